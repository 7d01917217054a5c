import Testing

@testable import SocialLoginRedis

/// The copies of one message that a cluster store's several subscriptions deliver are handled
/// once; a released lease is never held back.
@Suite struct RedisMessageCopiesTests {
  /// Whether the message of `payload` is the first copy `copies` saw (`false` for a payload
  /// that does not parse).
  func isFirst(_ copies: RedisMessageCopies, _ payload: [UInt8]) -> Bool {
    RedisStoreMessage.parse(payload).map(copies.isFirst) ?? false
  }

  @Test func aWriteOrDeleteIsHandledOnceAndAReleaseEveryTime() {
    let copies = RedisMessageCopies()
    let written = Array("tag-a\n7\n{\"record\":1}".utf8)
    let deleted = Array("tag-a\nD8\n{}".utf8)
    #expect(isFirst(copies, written))
    #expect(!isFirst(copies, written))
    #expect(!isFirst(copies, written))
    // The same write's message with a different body still names the same tag and version.
    #expect(!isFirst(copies, Array("tag-a\n7\nother".utf8)))
    #expect(isFirst(copies, deleted))
    #expect(!isFirst(copies, deleted))
    // Another version, another tag: other messages.
    #expect(isFirst(copies, Array("tag-a\n9\n{}".utf8)))
    #expect(isFirst(copies, Array("tag-b\n7\n{}".utf8)))
    let release = Array("tag-a".utf8)
    #expect(isFirst(copies, release))
    #expect(isFirst(copies, release))
    #expect(copies.dropped == 4)
  }

  @Test func onlyTheLastCapacityKeysAreKept() {
    let copies = RedisMessageCopies(capacity: 3)
    let messages = (1...4).map { Array("tag\n\($0)\n".utf8) }
    for message in messages { #expect(isFirst(copies, message)) }
    // The first fell out; the other three are still known.
    #expect(isFirst(copies, messages[0]))
    #expect(!isFirst(copies, messages[2]))
    #expect(!isFirst(copies, messages[3]))
    #expect(!isFirst(copies, messages[0]))
  }
}
