/// A cryptographic hash function that can digest data incrementally.
///
/// Conforming types are value types: copying a partially fed hasher forks its state, which is
/// what HMAC relies on to reuse precomputed key pads.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("header.".utf8))
/// hasher.update(Array("payload".utf8))
/// let digest = hasher.finalize()  // 32 bytes
///
/// let sameDigest = SHA256.hash(Array("header.payload".utf8))
/// ```
public protocol HashFunction: Sendable {
  /// The length of a digest, in bytes.
  static var digestByteCount: Int { get }

  /// The length of one compression block, in bytes; HMAC pads its key to this length.
  static var blockByteCount: Int { get }

  /// Creates a hasher that has consumed no input.
  init()

  /// Feeds more input to the hasher.
  ///
  /// Contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`, `String.UTF8View` of native
  /// strings, ...) are hashed straight from their storage; other collections are copied through
  /// a small stack buffer first.
  ///
  /// - Parameter data: The bytes to append to the message.
  mutating func update<D: Collection<UInt8>>(_ data: D)

  /// Returns the digest of everything fed so far.
  ///
  /// The hasher itself is left untouched, so it can keep absorbing input and be finalized
  /// again later (the result then covers the longer message).
  ///
  /// - Returns: `digestByteCount` bytes.
  func finalize() -> [UInt8]
}

extension HashFunction {
  /// Returns the digest of `data` in one call.
  ///
  /// - Parameter data: The complete message.
  /// - Returns: `digestByteCount` bytes.
  public static func hash<D: Collection<UInt8>>(_ data: D) -> [UInt8] {
    var hasher = Self()
    hasher.update(data)
    return hasher.finalize()
  }
}
