/// How a store protects what it writes: sealed with a key ring, or not at all.
///
/// Stores take a `RecordSealing` so one code path serves both modes. ``unsealed`` stores
/// tokens in plain text and is meant for development only: anyone who can read the store
/// (a backup, a Redis dump, a copied disk) can use every refresh token in it.
///
/// ```swift
/// let sealing: RecordSealing = .keyRing(try SealingKeyRing.load(contentsOf: keyPath))
/// let stored = sealing.seal(record, context: Array("session:42".utf8))
/// let record = try sealing.open(stored, context: Array("session:42".utf8)).bytes
/// ```
public enum RecordSealing: Sendable {
  /// Seal every record with the ring's sealing key; open with any of its keys.
  case keyRing(SealingKeyRing)
  /// Store records as they are. Development only: tokens are readable by anyone who can
  /// read the store.
  case unsealed

  /// Whether records are sealed (``keyRing(_:)``).
  public var isSealing: Bool {
    if case .keyRing = self { return true }
    return false
  }

  /// The bytes to store for `plaintext`: sealed for ``keyRing(_:)`` (see
  /// ``SealingKeyRing/seal(_:context:)``), `plaintext` itself for ``unsealed``.
  public func seal(_ plaintext: [UInt8], context: [UInt8]) -> [UInt8] {
    switch self {
    case .keyRing(let ring): ring.seal(plaintext, context: context)
    case .unsealed: plaintext
    }
  }

  /// The record in stored `value`.
  ///
  /// ``keyRing(_:)`` opens it (``SealingKeyRing/open(_:context:)``): a value without the
  /// magic is `.notSealed`, an unknown key id `.sealedWithUnknownKey`, a bad tag, truncation
  /// or a garbled header `.tampered`. ``unsealed`` returns the bytes as they are (key id
  /// empty, no reseal), except a value that is sealed: this store has no key for it, so it
  /// throws `.sealedWithUnknownKey` with the id from its header (`.tampered` when even the
  /// header is garbled) rather than hand ciphertext to a decoder.
  public func open(_ value: [UInt8], context: [UInt8]) throws(SealingError) -> SealedPlaintext {
    switch self {
    case .keyRing(let ring):
      return try ring.open(value, context: context)
    case .unsealed:
      guard SealingKeyRing.isSealed(value) else {
        return SealedPlaintext(bytes: value, keyID: "", needsReseal: false)
      }
      let header = try SealingKeyRing.parseHeader(value)
      throw SealingError(
        .sealedWithUnknownKey,
        "The value was sealed with key \"\(header.keyID)\", but this store has no sealing "
          + "keys configured.",
        keyID: header.keyID)
    }
  }
}
