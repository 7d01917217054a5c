import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Clients sharing a store that reports changes follow each other: a session signed out on
/// one replica ends on the others with the same reason, a newer record is adopted, and after
/// the feed was cut no cached token is served before the store was read again.
@Suite(.timeLimit(.minutes(1)))
struct SignOutEverywhereTests {
  let clock = ManualClock()
  let key = SessionKey(provider: "scripted", subject: "alice")

  /// Two clients ("replicas") on `store`, each holding the stored session live.
  func replicas(on store: any SessionStore) async throws -> (LoginClient, LoginClient) {
    let first = try client(on: store)
    let second = try client(on: store)
    try await first.restoreSessions()
    try await second.restoreSessions()
    return (first, second)
  }

  func client(on store: any SessionStore) throws -> LoginClient {
    try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
  }

  func seed(_ store: any SessionStore, accessToken: String = "at-1") async throws -> StoredSession {
    try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: Secret(accessToken), refreshToken: "rt-1",
          expiresAt: clock.wallTime.addingTimeInterval(3600)),
        signedInAt: clock.wallTime),
      expectedVersion: nil)
  }

  /// Waits (real time, with a deadline) until `session` has published `state`.
  func waitFor(_ state: AuthState, on session: SessionActor) async throws {
    try await WaitTimeout.yieldUntil("\(state) on the other replica", timeout: .seconds(45)) {
      session.currentState == state
    }
  }

  func expectSignedOut(
    _ session: SessionActor, _ reason: SignOutReason,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    #expect(
      await session.signedOutReasonForNextCaller() == reason, sourceLocation: sourceLocation)
  }

  @Test func aUsersSignOutOnOneReplicaEndsTheSessionOnTheOther() async throws {
    let store = InMemorySessionStore()
    _ = try await seed(store)
    let (first, second) = try await replicas(on: store)
    let here = try #require(first.session(for: key))
    let there = try #require(second.session(for: key))
    #expect(try await there.freshAccessToken() == "at-1")
    try await here.signOut(revoke: false)
    try await waitFor(.signedOut(.userInitiated), on: there)
    await expectSignedOut(there, .userInitiated)
    #expect(second.session(for: key) == nil, "the ended session leaves the other registry")
  }

  @Test func anObservedReplicasSignOutCarriesItsReasonToo() async throws {
    // With an observer, sessions reach the store through the observing wrapper, which must
    // hand the reason on.
    let store = InMemorySessionStore()
    _ = try await seed(store)
    let observed = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), observer: MetricsRecorder())
    let other = try client(on: store)
    try await observed.restoreSessions()
    try await other.restoreSessions()
    try await #require(observed.session(for: key)).signOut(revoke: false)
    let there = try #require(other.session(for: key))
    try await waitFor(.signedOut(.userInitiated), on: there)
    #expect(try await store.deletionReason(for: key) == .userInitiated)
  }

  @Test func aProvidersVerdictCarriesItsReasonToTheOtherReplica() async throws {
    let store = InMemorySessionStore()
    let record = try await seed(store)
    let (_, second) = try await replicas(on: store)
    let there = try #require(second.session(for: key))
    // What a replica whose refresh was refused with invalid_grant does to the store.
    #expect(try await store.delete(key, ifVersion: record.version, reason: .refreshTokenRevoked))
    try await waitFor(.signedOut(.refreshTokenRevoked), on: there)
    await expectSignedOut(there, .refreshTokenRevoked)
  }

  @Test func aNewerRecordWrittenElsewhereIsAdopted() async throws {
    let store = InMemorySessionStore()
    let record = try await seed(store)
    let (_, second) = try await replicas(on: store)
    let there = try #require(second.session(for: key))
    var newer = record
    newer.credential.accessToken = "at-2"
    _ = try await store.save(newer, expectedVersion: record.version)
    try await WaitTimeout.yieldUntil("the newer record on the other replica") {
      await there.credential?.accessToken == "at-2"
    }
    #expect(try await there.freshAccessToken() == "at-2")
    #expect(there.currentState == .signedIn)
  }

  @Test func anOlderDeletionNeverEndsANewerSession() async throws {
    let store = FeedStore()
    let record = try await seed(store)
    let (_, second) = try await replicas(on: store)
    let there = try #require(second.session(for: key))
    store.feed.publish(.deleted(key, version: record.version - 1, reason: .userInitiated))
    store.feed.publish(
      .deleted(SessionKey(provider: "scripted", subject: "bob"), version: 9, reason: .userInitiated)
    )
    // A change the client handles after the two above: once it shows, they were handled.
    var newer = record
    newer.version += 1
    newer.credential.accessToken = "at-2"
    store.feed.publish(.written(newer))
    try await WaitTimeout.yieldUntil("the written change") {
      await there.credential?.accessToken == "at-2"
    }
    #expect(there.currentState == .signedIn)
  }

  @Test func afterTheFeedWasCutTheStoreIsReadBeforeACachedTokenIsServed() async throws {
    let store = FeedStore()
    let record = try await seed(store)
    let (_, second) = try await replicas(on: store)
    let there = try #require(second.session(for: key))
    store.feed.publish(.interrupted)
    // Signed out elsewhere while this replica heard nothing.
    #expect(try await store.base.delete(key, ifVersion: record.version, reason: .accountDeleted))
    #expect(try await there.freshAccessToken() == "at-1", "nothing is known yet")
    store.feed.publish(.resumed)
    try await waitFor(.signedOut(.accountDeleted), on: there)
    await expectSignedOut(there, .accountDeleted)
  }

  /// A second replica's session on a feed store to which a newer record (`at-2`) was written
  /// without a report (a change the replica missed).
  /// The client is returned too: the session follows the feed only while it lives.
  func replicaBehindANewerRecord() async throws -> (FeedStore, LoginClient, SessionActor) {
    let store = FeedStore()
    let record = try await seed(store)
    let (_, second) = try await replicas(on: store)
    let there = try #require(second.session(for: key))
    var newer = record
    newer.credential.accessToken = "at-2"
    _ = try await store.base.save(newer, expectedVersion: record.version)
    return (store, second, there)
  }

  @Test func aCallerAfterTheFeedCameBackReadsTheStoreFirst() async throws {
    let (_, client, there) = try await replicaBehindANewerRecord()
    defer { withExtendedLifetime(client) {} }
    #expect(try await there.freshAccessToken() == "at-1", "the change was not reported")
    await there.mustRereadStore()
    #expect(try await there.freshAccessToken() == "at-2", "the re-read comes before serving")
  }

  @Test func manyCallersAfterTheFeedCameBackShareOneReRead() async throws {
    let (store, client, there) = try await replicaBehindANewerRecord()
    defer { withExtendedLifetime(client) {} }
    let gate = Gate()
    store.loadGate.withLock { $0 = gate }
    let before = store.loads.withLock { $0 }
    await there.mustRereadStore()
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<200 { group.addTask { try await there.freshAccessToken() } }
      try await gate.waitForWaiters(count: 1)
      // Let the other callers reach the actor while the one load is held at the gate (each
      // would load again if re-reads were not shared).
      for _ in 0..<2000 { await Task.yield() }
      gate.open()
      var all: Set<String> = []
      for try await token in group { all.insert(token) }
      return all
    }
    #expect(tokens == ["at-2"])
    #expect(store.loads.withLock { $0 } - before == 1, "one load for 200 callers")
  }
}

/// An in-memory store whose change feed the test drives by hand (a feed that loses messages).
final class FeedStore: SessionStore {
  let base = InMemorySessionStore()
  let feed = SessionStoreChangeFeed()
  /// How many times `load` was called.
  let loads = Locked(0)
  /// While set, every `load` waits at it.
  let loadGate = Locked<Gate?>(nil)

  func changes() -> AsyncStream<SessionStoreChange>? { feed.subscribe() }
  func load(_ key: SessionKey) async throws -> StoredSession? {
    loads.withLock { $0 += 1 }
    if let gate = loadGate.withLock({ $0 }) { await gate.wait() }
    return try await base.load(key)
  }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    try await base.deletionReason(for: key)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await base.lockRefresh(for: key)
  }
}
