import SocialLoginCrypto

/// The keys a store seals and opens its records with: one sealing key, and any number of
/// older keys kept only to open what they sealed.
///
/// Sealing encrypts and authenticates a record with XChaCha20-Poly1305 under a random 24-byte
/// nonce, so a copy of the store (a backup, a Redis dump, a stolen disk) reveals no token,
/// and a record modified, truncated or moved to another record's place (see `context`) fails
/// to open instead of being served.
///
/// Rotation: put the new key first and keep the old one; records sealed with the old key
/// still open (``SealedPlaintext/needsReseal`` is `true`) and are resealed when next written.
///
/// ```swift
/// let ring = try SealingKeyRing.load(contentsOf: "/etc/myapp/sealing-keys")  // mode 0600
/// let sealed = ring.seal(recordBytes, context: Array("session:42".utf8))
/// let opened = try ring.open(sealed, context: Array("session:42".utf8))
/// ```
///
/// ## Sealed value layout
/// `"SLs1"` (4 bytes), the key id's length (1 byte), the id (ASCII), the 24-byte nonce, then
/// the ciphertext and its 16-byte tag. The associated data is the header (magic through id)
/// followed by `context`, so neither the id nor the context can be swapped unnoticed.
public struct SealingKeyRing: Sendable {
  /// The first four bytes of every sealed value.
  static let magic: [UInt8] = Array("SLs1".utf8)

  /// The sealing key first, then the keys that only open.
  private let keys: [SealingKey]

  /// A ring that seals with `sealingKey` and also opens what `others` sealed.
  ///
  /// - Throws: ``SealingError`` `.invalidKeyFile` when two keys share an id (a sealed value
  ///   names its key by id, so ids must be unique).
  public init(sealingKey: SealingKey, openingAlso others: [SealingKey] = []) throws(SealingError) {
    var seen: Set<String> = []
    for key in [sealingKey] + others where !seen.insert(key.id).inserted {
      throw SealingError(
        .invalidKeyFile, "Sealing key id \"\(key.id)\" appears twice; ids must be unique.")
    }
    keys = [sealingKey] + others
  }

  /// The id of the key that seals.
  public var sealingKeyID: String { keys[0].id }

  /// Every key's id, the sealing key's first.
  public var keyIDs: [String] { keys.map(\.id) }

  /// Whether `value` starts with the sealed magic `SLs1`, that is, whether it claims to be
  /// sealed (it may still fail to open).
  public static func isSealed(_ value: [UInt8]) -> Bool {
    value.count >= magic.count && value[0..<magic.count].elementsEqual(magic)
  }

  /// Encrypts and authenticates `plaintext` with the sealing key and a fresh random nonce.
  ///
  /// - Parameters:
  ///   - plaintext: The record.
  ///   - context: What the record is (for example its key or file name): opening needs the
  ///     same bytes, so a sealed value copied over another record's place fails to open.
  /// - Returns: The sealed value (see the layout above); 45 bytes plus the id longer than
  ///   `plaintext`.
  public func seal(_ plaintext: [UInt8], context: [UInt8]) -> [UInt8] {
    let key = keys[0]
    let header = Self.magic + [UInt8(key.id.utf8.count)] + Array(key.id.utf8)
    let nonce = SecureRandom.bytes(count: XChaCha20Poly1305.nonceSize)
    let body: [UInt8]
    do {
      body = try XChaCha20Poly1305.seal(
        plaintext, key: key.secret, nonce: nonce, authenticating: header + context)
    } catch {
      // Unreachable: a SealingKey always holds 32 bytes and the nonce is 24.
      preconditionFailure("XChaCha20Poly1305.seal refused a valid key and nonce: \(error)")
    }
    return header + nonce + body
  }

  /// Checks and decrypts a value sealed by a key of this ring.
  ///
  /// - Parameters:
  ///   - sealed: The stored value.
  ///   - context: The same context it was sealed with.
  /// - Returns: The plaintext, the id of the key that sealed it, and whether it should be
  ///   resealed with the current key.
  /// - Throws: ``SealingError`` `.notSealed` when the value does not start with the magic;
  ///   `.sealedWithUnknownKey` (with ``SealingError/keyID``) when its key is not in the ring;
  ///   `.tampered` when the header is garbled or truncated or authentication fails.
  public func open(_ sealed: [UInt8], context: [UInt8]) throws(SealingError) -> SealedPlaintext {
    let header = try Self.parseHeader(sealed)
    guard let key = keys.first(where: { $0.id == header.keyID }) else {
      throw SealingError(
        .sealedWithUnknownKey,
        "The value was sealed with key \"\(header.keyID)\", which this key ring does not hold "
          + "(it holds \(keyIDs.map { "\"\($0)\"" }.joined(separator: ", "))).",
        keyID: header.keyID)
    }
    let nonce = Array(sealed[header.length..<header.length + XChaCha20Poly1305.nonceSize])
    let body = Array(sealed[(header.length + XChaCha20Poly1305.nonceSize)...])
    do {
      let plaintext = try XChaCha20Poly1305.open(
        body, key: key.secret, nonce: nonce,
        authenticating: Array(sealed[..<header.length]) + context)
      return SealedPlaintext(
        bytes: plaintext, keyID: key.id, needsReseal: key.id != sealingKeyID)
    } catch {
      throw SealingError(
        .tampered,
        "The value sealed with key \"\(key.id)\" fails authentication: it was modified, "
          + "truncated, or sealed for another record.")
    }
  }

  /// The parsed header of a sealed value: its key id and its length (magic through id).
  struct Header {
    var keyID: String
    var length: Int
  }

  /// Parses and checks the header and that a nonce and a tag follow it.
  ///
  /// - Throws: `.notSealed` without the magic, `.tampered` for anything else wrong.
  static func parseHeader(_ value: [UInt8]) throws(SealingError) -> Header {
    guard isSealed(value) else {
      throw SealingError(
        .notSealed, "The value is not sealed (it does not start with the sealed header).")
    }
    let idLength = value.count > magic.count ? Int(value[magic.count]) : 0
    let idStart = magic.count + 1
    let length = idStart + idLength
    let minimum = length + XChaCha20Poly1305.nonceSize + XChaCha20Poly1305.tagSize
    guard idLength > 0, value.count >= minimum,
      SealingKey.isValidID(value[idStart..<length])
    else {
      throw SealingError(
        .tampered, "The sealed value's header is garbled or the value is truncated.")
    }
    return Header(
      keyID: String(decoding: value[idStart..<length], as: UTF8.self), length: length)
  }
}
