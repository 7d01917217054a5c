import SocialLogin

/// The store's fuzz entries, for the libFuzzer package in `Tests/Fuzz` and the corpus replay in
/// the normal test run. Not API: behind the `Fuzzing` SPI.
@_spi(Fuzzing) public enum RedisStoreFuzzTargets {
  /// The corpus folder and libFuzzer executable suffix of ``storeHint(_:)``.
  public static let hintName = "store_hint"

  /// Feeds a payload as a change-feed hint from an untrusted publisher: the parser must accept
  /// exactly the fixed shape (a hint it accepts prints back to the same bytes), and a stream of
  /// such payloads through the confirmed-change memory must never trap or grow past its bound.
  public static func storeHint(_ bytes: [UInt8]) {
    let copies = RedisMessageCopies(capacity: 8)
    var start = 0
    // The input as newline-separated payloads (a crafted corpus entry can hold several).
    for end in bytes.indices where bytes[end] == 0x0A {
      feed(Array(bytes[start..<end]), copies)
      start = end + 1
    }
    feed(Array(bytes[start...]), copies)
  }

  private static func feed(_ payload: [UInt8], _ copies: RedisMessageCopies) {
    guard let hint = RedisStoreMessage.parse(payload) else { return }
    precondition(hint.payload == payload, "a hint prints back to its own bytes")
    precondition(payload.count <= RedisStoreMessage.maximumLength)
    let rank = RedisChangeRank(version: hint.version, deletion: hint.kind == .deleted)
    if hint.kind != .released, !copies.isKnown(tag: hint.tag, rank) {
      _ = copies.record(tag: hint.tag, rank)
    }
  }
}
