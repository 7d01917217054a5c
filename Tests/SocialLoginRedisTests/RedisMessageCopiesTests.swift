import Testing

@testable import SocialLoginRedis

/// The confirmed changes a store remembers, so the copies of one hint that a cluster store's
/// several subscriptions deliver are re-read and reported once.
@Suite struct RedisMessageCopiesTests {
  @Test func aConfirmedChangeIsReportedOnceAndCoversOlderHints() {
    let copies = RedisMessageCopies()
    #expect(!copies.isKnown(tag: "a", RedisChangeRank(version: 7, deletion: false)))
    #expect(copies.record(tag: "a", RedisChangeRank(version: 7, deletion: false)))
    #expect(!copies.record(tag: "a", RedisChangeRank(version: 7, deletion: false)))
    #expect(copies.isKnown(tag: "a", RedisChangeRank(version: 7, deletion: false)))
    #expect(copies.isKnown(tag: "a", RedisChangeRank(version: 6, deletion: true)))
    // The deletion at a version is newer than the write at it.
    #expect(!copies.isKnown(tag: "a", RedisChangeRank(version: 7, deletion: true)))
    #expect(copies.record(tag: "a", RedisChangeRank(version: 7, deletion: true)))
    #expect(copies.isKnown(tag: "a", RedisChangeRank(version: 7, deletion: false)))
    // Another version, another tag: other changes.
    #expect(copies.record(tag: "a", RedisChangeRank(version: 9, deletion: false)))
    #expect(copies.record(tag: "b", RedisChangeRank(version: 7, deletion: false)))
    #expect(copies.dropped == 4)
  }

  @Test func onlyTheLastCapacitySessionsAreKept() {
    let copies = RedisMessageCopies(capacity: 3)
    for tag in ["a", "b", "c", "d"] {
      #expect(copies.record(tag: tag, RedisChangeRank(version: 1, deletion: false)))
    }
    // The first fell out; the other three are still known.
    #expect(!copies.isKnown(tag: "a", RedisChangeRank(version: 1, deletion: false)))
    #expect(copies.isKnown(tag: "c", RedisChangeRank(version: 1, deletion: false)))
    #expect(copies.isKnown(tag: "d", RedisChangeRank(version: 1, deletion: false)))
  }
}
