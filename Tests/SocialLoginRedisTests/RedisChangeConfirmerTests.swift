import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// The confirmer without Redis: hints in, re-reads through a reader the test controls,
/// changes out.
@Suite(.timeLimit(.minutes(1))) struct RedisChangeConfirmerTests {
  let key = SessionKey(provider: "x", subject: "1")
  var tag: String { RedisKeys.tag(for: key) }

  let stored: StoredSession = {
    var session = SessionStoreContract.sampleSession("1", provider: "x")
    session.version = 3
    return session
  }()

  /// A feed, its subscription, and what it heard.
  final class Listener: Sendable {
    let feed = SessionStoreChangeFeed()
    let heard = Locked<[SessionStoreChange]>([])
    let task: Task<Void, Never>

    init() {
      let stream = feed.subscribe()
      let heard = self.heard
      task = Task { for await change in stream { heard.withLock { $0.append(change) } } }
    }

    deinit { task.cancel() }
  }

  @Test func aHintIsReportedOnlyAsWhatTheReReadFound() async throws {
    let listener = Listener()
    let confirmer = RedisChangeConfirmer(feed: listener.feed, copies: RedisMessageCopies())
    let found = Locked<SessionStoreChange?>(.written(stored))
    confirmer.reader = { _ in found.withLock { $0 } }
    // Newer than what is stored, a deletion of what is still there: nothing.
    confirmer.enqueue(RedisStoreMessage(kind: .written, tag: tag, version: 9))
    try await WaitTimeout.yieldUntil("the first re-read", timeout: .seconds(10)) {
      confirmer.unconfirmedHints == 1
    }
    confirmer.enqueue(RedisStoreMessage(kind: .deleted, tag: tag, version: 3))
    try await WaitTimeout.yieldUntil("the second re-read", timeout: .seconds(10)) {
      confirmer.unconfirmedHints == 2
    }
    #expect(listener.heard.withLock { $0 }.isEmpty)
    // An older write hint: what is stored is newer, and that is what is reported, once.
    confirmer.enqueue(RedisStoreMessage(kind: .written, tag: tag, version: 2))
    try await WaitTimeout.yieldUntil("the record", timeout: .seconds(10)) {
      !listener.heard.withLock { $0 }.isEmpty
    }
    confirmer.enqueue(RedisStoreMessage(kind: .written, tag: tag, version: 3))
    // The deletion, found by its re-read.
    found.withLock { $0 = .deleted(key, version: 3, reason: .userInitiated) }
    confirmer.enqueue(RedisStoreMessage(kind: .deleted, tag: tag, version: 3))
    try await WaitTimeout.yieldUntil("the deletion", timeout: .seconds(10)) {
      listener.heard.withLock { $0 }.count == 2
    }
    #expect(
      listener.heard.withLock { $0 } == [
        .written(stored), .deleted(key, version: 3, reason: .userInitiated),
      ])
    #expect(confirmer.rereads == 4, "the copy of version 3 was not read again")
  }

  @Test func aFloodIsBoundedAndReportedAsACutFeed() async throws {
    let listener = Listener()
    let confirmer = RedisChangeConfirmer(feed: listener.feed, copies: RedisMessageCopies())
    let gate = Gate()
    confirmer.reader = { _ in
      await gate.wait()
      return nil
    }
    func hint(_ index: Int) -> RedisStoreMessage {
      let tag = String(format: "%032x", index)
      return RedisStoreMessage(kind: .written, tag: tag, version: 1)
    }
    // Each worker holds one session; many hints for one session take one place.
    for index in 0..<RedisChangeConfirmer.concurrency { confirmer.enqueue(hint(index)) }
    try await gate.waitForWaiters(count: RedisChangeConfirmer.concurrency, timeout: .seconds(10))
    // A session being read takes one place in the queue for the hints that come meanwhile.
    for _ in 0..<100 { confirmer.enqueue(hint(0)) }
    let first = RedisChangeConfirmer.concurrency
    let last = first + RedisChangeConfirmer.capacity - 1
    for index in first..<last { confirmer.enqueue(hint(index)) }
    #expect(confirmer.overflows == 0)
    #expect(listener.heard.withLock { $0 }.isEmpty)
    confirmer.enqueue(hint(last))
    #expect(confirmer.overflows == 1)
    try await WaitTimeout.yieldUntil("the cut feed", timeout: .seconds(10)) {
      listener.heard.withLock { $0 } == [.interrupted, .resumed]
    }
    gate.open()
    try await WaitTimeout.yieldUntil("the workers to finish", timeout: .seconds(10)) {
      confirmer.unconfirmedHints >= RedisChangeConfirmer.concurrency
    }
    // Never more than one re-read per session at once, never more than the workers.
    #expect(confirmer.rereads <= RedisChangeConfirmer.concurrency + 1)
  }
}
