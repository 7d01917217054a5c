import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Replicas sharing one Redis follow each other's sign-outs and writes through the store's
/// channel (``RedisSessionStore/changes()``): each replica here is a `LoginClient` on a store
/// of its own (its own connections and subscription) on one server.
@Suite(.redisAvailable, .timeLimit(.minutes(2)))
struct RedisSignOutEverywhereTests {
  let key = SessionKey(provider: "scripted", subject: "alice")

  func seed(_ store: RedisSessionStore) async throws -> StoredSession {
    try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date().addingTimeInterval(3600)),
        signedInAt: Date(timeIntervalSince1970: 1_700_000_000)),
      expectedVersion: nil)
  }

  /// A replica: a client on its own store under `prefix`, with the seeded session restored.
  func replica(url: String, prefix: String) async throws -> (LoginClient, SessionActor) {
    let store = try await RedisSessionStore.connect(
      url: url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix), environment: [:])
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: SystemAuthClock())], store: store,
      policy: RefreshPolicy(proactiveMargin: nil))
    try await client.restoreSessions()
    return (client, try #require(client.session(for: key)))
  }

  func waitFor(_ state: AuthState, on session: SessionActor) async throws {
    try await WaitTimeout.yieldUntil("\(state) on the other replica", timeout: .seconds(20)) {
      session.currentState == state
    }
  }

  @Test func aSignOutOnOneReplicaEndsTheOthersWithItsReason() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      _ = try await seed(try server.store(.init(keyPrefix: prefix)))
      let replicas = [
        try await replica(url: server.url, prefix: prefix),
        try await replica(url: server.url, prefix: prefix),
        try await replica(url: server.url, prefix: prefix),
      ]
      for (_, session) in replicas { #expect(try await session.freshAccessToken() == "at-1") }
      try await replicas[0].1.signOut(revoke: false)
      for (client, session) in replicas.dropFirst() {
        try await waitFor(.signedOut(.userInitiated), on: session)
        #expect(await session.signedOutReasonForNextCaller() == .userInitiated)
        #expect(client.session(for: key) == nil)
      }
    }
  }

  @Test func aNewerRecordIsAdoptedAndAProvidersVerdictKeepsItsReason() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let writer = try server.store(.init(keyPrefix: prefix))
      let record = try await seed(writer)
      let (client, session) = try await replica(url: server.url, prefix: prefix)
      defer { withExtendedLifetime(client) {} }
      var newer = record
      newer.credential.accessToken = "at-2"
      let saved = try await writer.save(newer, expectedVersion: record.version)
      try await WaitTimeout.yieldUntil("the newer record", timeout: .seconds(20)) {
        await session.credential?.accessToken == "at-2"
      }
      #expect(try await session.freshAccessToken() == "at-2")
      #expect(try await writer.delete(key, ifVersion: saved.version, reason: .reuseDetected))
      try await waitFor(.signedOut(.reuseDetected), on: session)
      #expect(try await writer.deletionReason(for: key) == .reuseDetected)
    }
  }

  @Test func aRestartCutsAndResumesTheFeedAndSignOutsStillReachTheReplica() async throws {
    try await RedisFixture.withOwn { server in
      let prefix = uniquePrefix()
      let record = try await seed(try server.store(.init(keyPrefix: prefix)))
      let (client, session) = try await replica(url: server.url, prefix: prefix)
      let store = try #require(client.store as? RedisSessionStore)
      let feed = try #require(store.changes())
      let links = Task {
        var seen: [SessionStoreChange] = []
        for await change in feed where change == .interrupted || change == .resumed {
          seen.append(change)
          if change == .resumed { break }
        }
        return seen
      }
      try await server.restart()
      let elsewhere = try server.store(.init(keyPrefix: prefix))
      // Racing this replica's resubscription: heard as a message, or read after `.resumed`.
      #expect(try await elsewhere.delete(key, ifVersion: record.version, reason: .accessRevoked))
      try await waitFor(.signedOut(.accessRevoked), on: session)
      #expect(await session.signedOutReasonForNextCaller() == .accessRevoked)
      let seen = try await withDeadline(.seconds(20)) { await links.value }
      #expect(seen == [.interrupted, .resumed])
    }
  }

  /// `body`'s result, or a failure after `timeout` of real time.
  func withDeadline<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async -> T)
    async throws -> T
  {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { await body() }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      guard let first = try await group.next(), let value = first else {
        group.cancelAll()
        throw WaitTimeout("Gave up after \(timeout).")
      }
      group.cancelAll()
      return value
    }
  }

  @Test func hintsHaveOneShapeAndEverythingElseIsDropped() throws {
    let key = SessionKey(provider: "x", subject: "1")
    let tag = RedisKeys.tag(for: key)
    #expect(
      RedisStoreMessage.parse(Array("D\(tag):7".utf8))
        == RedisStoreMessage(kind: .deleted, tag: tag, version: 7))
    #expect(
      RedisStoreMessage.parse(Array("W\(tag):18446744073709551615".utf8))
        == RedisStoreMessage(kind: .written, tag: tag, version: UInt64.max))
    #expect(RedisStoreMessage.parse(Array("R\(tag)".utf8)) == .released(tag: tag))
    let hostile = [
      "", "R", "R\(tag):1", "D\(tag)", "D\(tag):", "D\(tag):0", "D\(tag):07", "D\(tag):x",
      "D\(tag):18446744073709551616", "D\(tag):1\n{}", "X\(tag):1", "W\(tag.uppercased()):1",
      "W\(tag.dropLast()):1", "W\(tag)0:1", "W\(tag):-1", "W\(tag): 1",
      "\(tag)\nD18446744073709551614\n{\"key\":{}}",
    ]
    for payload in hostile {
      #expect(RedisStoreMessage.parse(Array(payload.utf8)) == nil, "\(payload)")
    }
    #expect(RedisStoreMessage.parse([UInt8](repeating: 0x57, count: 1 << 20)) == nil)
    for message in [
      RedisStoreMessage(kind: .deleted, tag: tag, version: 42), .released(tag: tag),
    ] {
      #expect(RedisStoreMessage.parse(message.payload) == message)
    }
  }
}
