/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): ChaCha20-Poly1305 with a 192-bit nonce.
///
/// The nonce is long enough to be drawn at random for every message (a collision after 2^80
/// messages is negligible), which is why it is the right choice for data sealed at rest under
/// a long-lived key. HChaCha20 derives a subkey from the key and the first 16 nonce bytes; the
/// last 8 become an RFC 8439 nonce. Same guarantees as ``ChaCha20Poly1305``: constant-time,
/// tag checked before decryption.
///
/// ```swift
/// let nonce = SecureRandom.bytes(count: XChaCha20Poly1305.nonceSize)
/// let sealed = try XChaCha20Poly1305.seal(record, key: key, nonce: nonce, authenticating: [])
/// ```
public enum XChaCha20Poly1305 {
  /// 32 bytes (256-bit key).
  public static let keySize = 32
  /// 24 bytes (192-bit nonce): random per message is safe.
  public static let nonceSize = 24
  /// 16 bytes, appended to the ciphertext.
  public static let tagSize = 16

  /// Encrypts `plaintext` and authenticates it together with `associatedData`.
  ///
  /// - Parameters:
  ///   - plaintext: The data to protect.
  ///   - key: ``keySize`` secret bytes.
  ///   - nonce: ``nonceSize`` bytes, for example from `SecureRandom.bytes(count: 24)`.
  ///   - associatedData: Data bound to the ciphertext but not encrypted.
  /// - Returns: The ciphertext (as long as `plaintext`) followed by the 16-byte tag.
  /// - Throws: ``AEADError`` `.invalidKeySize` or `.invalidNonceSize`.
  public static func seal(
    _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8]
  ) throws(AEADError) -> [UInt8] {
    try AEADConstruction.seal(
      plaintext, associatedData: associatedData, cipher: cipher(key: key, nonce: nonce))
  }

  /// Checks the tag of `sealed` in constant time and, only if it matches, decrypts it.
  ///
  /// - Parameters:
  ///   - sealed: Ciphertext followed by its 16-byte tag.
  ///   - key: The ``keySize``-byte key it was sealed with.
  ///   - nonce: The ``nonceSize``-byte nonce it was sealed with.
  ///   - associatedData: The associated data it was sealed with.
  /// - Returns: The plaintext.
  /// - Throws: ``AEADError`` `.invalidKeySize`, `.invalidNonceSize`, or `.authenticationFailed`.
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
      nonce.withUnsafeBytes { nonce in
        let subkey = ChaCha20.hChaCha20(
          key: key, nonce: UnsafeRawBufferPointer(rebasing: nonce[0..<16]))
        return ChaCha20(
          keyWords: subkey,
          nonceWords: (0, nonce.littleEndianWord(at: 16), nonce.littleEndianWord(at: 20)))
      }
    }
  }
}
