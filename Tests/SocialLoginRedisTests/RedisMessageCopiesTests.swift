import Testing

@testable import SocialLoginRedis

/// The copies of one message that a cluster store's several subscriptions deliver are handled
/// once; a released lease is never held back.
@Suite struct RedisMessageCopiesTests {
  @Test func aWriteOrDeleteIsHandledOnceAndAReleaseEveryTime() {
    let copies = RedisMessageCopies()
    let written = Array("tag-a\n7\n{\"record\":1}".utf8)
    let deleted = Array("tag-a\nD8\n{}".utf8)
    #expect(copies.isFirst(written))
    #expect(!copies.isFirst(written))
    #expect(!copies.isFirst(written))
    // The same write's message with a different body still names the same tag and version.
    #expect(!copies.isFirst(Array("tag-a\n7\nother".utf8)))
    #expect(copies.isFirst(deleted))
    #expect(!copies.isFirst(deleted))
    // Another version, another tag: other messages.
    #expect(copies.isFirst(Array("tag-a\n9\n{}".utf8)))
    #expect(copies.isFirst(Array("tag-b\n7\n{}".utf8)))
    let release = Array("tag-a".utf8)
    #expect(copies.isFirst(release))
    #expect(copies.isFirst(release))
    #expect(copies.dropped == 4)
  }

  @Test func onlyTheLastCapacityKeysAreKept() {
    let copies = RedisMessageCopies(capacity: 3)
    let messages = (1...4).map { Array("tag\n\($0)\n".utf8) }
    for message in messages { #expect(copies.isFirst(message)) }
    // The first fell out; the other three are still known.
    #expect(copies.isFirst(messages[0]))
    #expect(!copies.isFirst(messages[2]))
    #expect(!copies.isFirst(messages[3]))
    #expect(!copies.isFirst(messages[0]))
  }
}
