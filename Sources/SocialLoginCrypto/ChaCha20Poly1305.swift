/// ChaCha20-Poly1305 authenticated encryption with associated data (RFC 8439 §2.8).
///
/// Use it to keep data confidential and tamper-evident where it rests or travels, under a key
/// you hold. Its 96-bit nonce must never repeat under one key; when nonces are random, prefer
/// ``XChaCha20Poly1305``, whose 192-bit nonce makes random collisions negligible.
///
/// Pure Swift, constant-time in the key, plaintext and tag (no data-dependent branches or
/// table lookups), and allocation-free apart from the returned array.
///
/// ```swift
/// let sealed = try ChaCha20Poly1305.seal(record, key: key, nonce: nonce, authenticating: header)
/// let record = try ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: header)
/// ```
public enum ChaCha20Poly1305 {
  /// 32 bytes (256-bit key).
  public static let keySize = 32
  /// 12 bytes (96-bit nonce): unique per message under one key, never reused.
  public static let nonceSize = 12
  /// 16 bytes, appended to the ciphertext.
  public static let tagSize = 16

  /// Encrypts `plaintext` and authenticates it together with `associatedData`.
  ///
  /// - Parameters:
  ///   - plaintext: The data to protect.
  ///   - key: ``keySize`` secret bytes.
  ///   - nonce: ``nonceSize`` bytes, never used twice with the same key.
  ///   - associatedData: Data bound to the ciphertext but not encrypted (headers, context):
  ///     opening with different associated data fails.
  /// - Returns: The ciphertext (as long as `plaintext`) followed by the 16-byte tag.
  /// - Throws: ``AEADError`` `.invalidKeySize` or `.invalidNonceSize`.
  public static func seal(
    _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8]
  ) throws(AEADError) -> [UInt8] {
    try AEADConstruction.seal(
      plaintext, associatedData: associatedData, cipher: cipher(key: key, nonce: nonce))
  }

  /// Checks the tag of `sealed` and, only if it matches, decrypts it.
  ///
  /// The tag is compared in constant time before any plaintext exists, so a forged input
  /// yields nothing but the error.
  ///
  /// - Parameters:
  ///   - sealed: Ciphertext followed by its 16-byte tag, as ``seal(_:key:nonce:authenticating:)``
  ///     returns it.
  ///   - key: The ``keySize``-byte key it was sealed with.
  ///   - nonce: The ``nonceSize``-byte nonce it was sealed with.
  ///   - associatedData: The associated data it was sealed with.
  /// - Returns: The plaintext.
  /// - Throws: ``AEADError`` `.invalidKeySize`, `.invalidNonceSize`, or `.authenticationFailed`
  ///   when anything differs from what was sealed (or `sealed` is shorter than a tag).
  public static func open(
    _ sealed: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8]
  ) throws(AEADError) -> [UInt8] {
    try AEADConstruction.open(
      sealed, associatedData: associatedData, cipher: cipher(key: key, nonce: nonce))
  }

  private static func cipher(key: [UInt8], nonce: [UInt8]) throws(AEADError) -> ChaCha20 {
    guard key.count == keySize else { throw AEADError(.invalidKeySize) }
    guard nonce.count == nonceSize else { throw AEADError(.invalidNonceSize) }
    return key.withUnsafeBytes { key in
      nonce.withUnsafeBytes { nonce in ChaCha20(key: key, nonce: nonce) }
    }
  }
}
