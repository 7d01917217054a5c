import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// Sessions loaded on demand, one actor per key, `restoreSessions()` run again, and an
/// operator's sign-out: what a replica started before a login on another replica needs.
@Suite(.timeLimit(.minutes(1)))
struct LoadSessionTests {
  let clock = ManualClock()
  let key = SessionKey(provider: "scripted", subject: "alice")

  func client(on store: any SessionStore, autoRefresh: Bool = false) throws -> LoginClient {
    try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: autoRefresh ? .seconds(120) : nil))
  }

  @discardableResult
  func seed(_ store: any SessionStore, accessToken: String = "at-1") async throws
    -> StoredSession
  {
    let current = try await store.load(key)
    return try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: Secret(accessToken), refreshToken: "rt-1",
          expiresAt: clock.wallTime.addingTimeInterval(3600)),
        signedInAt: clock.wallTime),
      expectedVersion: current?.version)
  }

  func expectSignedOut(
    _ session: SessionActor, _ reason: SignOutReason,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    #expect(
      await session.signedOutReasonForNextCaller() == reason, sourceLocation: sourceLocation)
  }

  @Test func aSessionMadeElsewhereAfterStartIsServedOnFirstRequest() async throws {
    let store = InMemorySessionStore()
    let replica = try client(on: store)
    try await replica.restoreSessions()
    #expect(replica.sessionCount == 0)
    try await seed(store)  // another replica's login
    #expect(replica.session(for: key) == nil, "the synchronous lookup answers from memory")
    let session = try #require(try await replica.loadSession(key))
    #expect(try await session.freshAccessToken() == "at-1")
    #expect(replica.session(for: key) === session)
    #expect(try await replica.loadSession(key) === session)
  }

  @Test func aThousandFirstRequestsCostOneStoreRead() async throws {
    let base = InMemorySessionStore()
    try await seed(base)
    let gate = Gate()
    let counting = CountingSessionStore(base: base, holdingLoads: gate)
    let replica = try client(on: counting)
    let sessions = try await withThrowingTaskGroup(of: SessionActor?.self) { group in
      for _ in 0..<1000 { group.addTask { try await replica.loadSession(key) } }
      try await gate.waitForWaiters(count: 1)
      // Every caller has had the chance to join the one read before it answers.
      for _ in 0..<50 { await Task.yield() }
      gate.open()
      var all: [SessionActor?] = []
      for try await session in group { all.append(session) }
      return all
    }
    #expect(counting.loads == 1)
    let first = try #require(sessions.first ?? nil)
    #expect(sessions.allSatisfy { $0 === first })
  }

  @Test func aCancelledCallerDoesNotFailTheOthersSharingTheRead() async throws {
    let base = InMemorySessionStore()
    try await seed(base)
    let gate = Gate()
    let counting = CountingSessionStore(base: base, holdingLoads: gate)
    let replica = try client(on: counting)
    let cancelled = Task { try await replica.loadSession(key) }
    try await gate.waitForWaiters(count: 1)
    let waiting = Task { try await replica.loadSession(key) }
    cancelled.cancel()
    gate.open()
    #expect(try await waiting.value != nil)
    #expect(counting.loads == 1)
  }

  @Test func noStoredSessionIsNilAndNotRemembered() async throws {
    let store = InMemorySessionStore()
    let counting = CountingSessionStore(base: store)
    let replica = try client(on: counting)
    #expect(try await replica.loadSession(key) == nil)
    try await seed(store)
    #expect(try await replica.loadSession(key) != nil)
    #expect(counting.loads == 2)
  }

  @Test func anUnregisteredProviderIsATypedErrorBeforeAnyRead() async throws {
    let counting = CountingSessionStore(base: InMemorySessionStore())
    let replica = try client(on: counting)
    let error = await #expect(throws: AuthError.self) {
      try await replica.loadSession(SessionKey(provider: "lime", subject: "a"))
    }
    #expect(error?.code == .unknownProvider)
    #expect(counting.loads == 0)
  }

  @Test func aStoreFailureIsThrownToEveryCallerAndTheNextCallReadsAgain() async throws {
    let base = InMemorySessionStore()
    try await seed(base)
    let flaky = ScriptedLoads(base: base)
    let replica = try client(on: flaky)
    flaky.fail(true)
    let error = await #expect(throws: AuthError.self) { try await replica.loadSession(key) }
    #expect(error?.code == .storageFailed)
    flaky.fail(false)
    #expect(try await replica.loadSession(key) != nil)
  }

  @Test func aSignOutWhileTheReadRunsEndsTheLoadedSession() async throws {
    // The load has read the record; the sign-out elsewhere lands before the session is
    // registered, so its change reaches no actor: the session must read the store again
    // before it serves the token it loaded.
    let store = InMemorySessionStore()
    try await seed(store)
    let afterRead = Gate()
    let held = ScriptedLoads(base: store, holdingAfterRead: afterRead)
    let replica = try client(on: held)
    let other = try client(on: store)
    let elsewhere = try #require(try await other.loadSession(key))
    let loading = Task { try await replica.loadSession(key) }
    try await afterRead.waitForWaiters(count: 1)
    try await elsewhere.signOut(revoke: false)
    try await WaitTimeout.yieldUntil("the replica routed the deletion", timeout: .seconds(45)) {
      replica.registry.loadMissedChange(key)
    }
    afterRead.open()
    let session = try #require(try await loading.value)
    await expectSignedOut(session, .userInitiated)
  }

  @Test func aFeedCutWhileTheReadRunsMakesTheLoadedSessionReadAgain() async throws {
    // A newer record was written while the feed was cut: the load read the older one and
    // cannot know what it missed, so the session reads the store before serving.
    let store = FeedStore()
    let record = try await seed(store)
    let afterRead = Gate()
    let replica = try client(on: ScriptedLoads(base: store, holdingAfterRead: afterRead))
    let loading = Task { try await replica.loadSession(key) }
    try await afterRead.waitForWaiters(count: 1)
    var newer = record
    newer.credential.accessToken = "at-2"
    _ = try await store.base.save(newer, expectedVersion: record.version)
    store.feed.publish(.interrupted)
    store.feed.publish(.resumed)
    try await WaitTimeout.yieldUntil("the replica saw the cut", timeout: .seconds(45)) {
      replica.registry.loadMissedChange(key)
    }
    afterRead.open()
    let session = try #require(try await loading.value)
    #expect(try await session.freshAccessToken() == "at-2")
  }

  @Test func missedChangesKeepAFewThenOnlyTheFact() {
    var missed = MissedChanges()
    #expect(missed.isEmpty)
    for version in 1...UInt64(MissedChanges.limit) {
      missed.append(.deleted(key, version: version, reason: nil))
    }
    #expect(missed.changes.count == MissedChanges.limit && !missed.lostTrack)
    missed.append(.deleted(key, version: 99, reason: nil))
    #expect(missed.changes.isEmpty && missed.lostTrack && !missed.isEmpty)
    missed.append(.deleted(key, version: 100, reason: nil))
    #expect(missed.changes.isEmpty)
  }

  @Test func aStoreAnsweringWithAnotherAccountsRecordIsRefused() async throws {
    // A store that matches keys loosely (NFC vs NFD subjects): "é" and "e\u{301}" look the
    // same but are two accounts; the second must never be served the first one's session.
    let store = LooseKeyStore()
    let composed = SessionKey(provider: "scripted", subject: "caf\u{E9}")
    let decomposed = SessionKey(provider: "scripted", subject: "cafe\u{301}")
    _ = try await store.save(
      StoredSession(
        key: composed,
        credential: Credential(
          accessToken: "theirs", expiresAt: clock.wallTime.addingTimeInterval(3600))),
      expectedVersion: nil)
    let replica = try client(on: store)
    let error = await #expect(throws: AuthError.self) { try await replica.loadSession(decomposed) }
    #expect(error?.code == .ambiguousSession)
    #expect(replica.session(for: decomposed) == nil)
    #expect(try await replica.loadSession(composed) != nil, "the other account is unaffected")
  }

  @Test func restoreSessionsTwiceKeepsTheSameActor() async throws {
    let store = InMemorySessionStore()
    try await seed(store)
    let replica = try client(on: store)
    try await replica.restoreSessions()
    let held = try #require(replica.session(for: key))
    try await seed(store, accessToken: "at-2")  // a newer record, written elsewhere
    try await replica.restoreSessions()
    #expect(replica.session(for: key) === held)
    #expect(try await held.freshAccessToken() == "at-2", "the newer record is adopted")
  }

  @Test func restoreSessionsEndsAHeldSessionWhoseRecordIsGone() async throws {
    let store = InMemorySessionStore()
    let stored = try await seed(store)
    let replica = try client(on: store)
    try await replica.restoreSessions()
    let held = try #require(replica.session(for: key))
    // Deleted behind the feed's back (another tool on the store), with a reason kept.
    _ = try await store.delete(key, ifVersion: stored.version, reason: .accountDisabled)
    try await replica.restoreSessions()
    await expectSignedOut(held, .accountDisabled)
    #expect(replica.session(for: key) == nil)
  }

  @Test func aLoginAfterAStaleLoadKeepsOneActorWithTheNewestRecord() async throws {
    let store = InMemorySessionStore()
    try await seed(store)
    let replica = try client(on: store)
    let loaded = try #require(try await replica.loadSession(key))
    let registered = try await replica.register(
      credential: Credential(
        accessToken: "at-login", refreshToken: "rt-login",
        expiresAt: clock.wallTime.addingTimeInterval(3600)),
      identity: Identity(provider: "scripted", subject: "alice"))
    #expect(registered === loaded)
    #expect(try await loaded.freshAccessToken() == "at-login")
  }

  @Test func anOperatorWithNoLiveSessionSignsTheUserOutEverywhere() async throws {
    let store = InMemorySessionStore()
    try await seed(store)
    let first = try client(on: store)
    let second = try client(on: store)
    let held = try #require(try await first.loadSession(key))  // a request handler holds it
    let alsoHeld = try #require(try await second.loadSession(key))
    let provider = ScriptedProvider(clock: clock)
    let operatorClient = try LoginClient(
      providers: [provider], store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    #expect(operatorClient.sessionCount == 0)
    let outcome = try await operatorClient.signOut(key)
    guard case .revoked = outcome else {
      Issue.record("expected the tokens revoked, got \(String(describing: outcome))")
      return
    }
    #expect(await provider.revokedAccessTokens == ["at-1"])
    try await WaitTimeout.yieldUntil("both replicas ended", timeout: .seconds(45)) {
      held.currentState == .signedOut(.signedOutByOperator)
        && alsoHeld.currentState == .signedOut(.signedOutByOperator)
    }
    await expectSignedOut(held, .signedOutByOperator)
    #expect(try await store.load(key) == nil)
    #expect(try await store.deletionReason(for: key) == .signedOutByOperator)
    #expect(try await operatorClient.signOut(key) == nil, "nothing left to sign out")
  }

  @Test func anOperatorSignOutOfASessionLiveHereUsesItsReason() async throws {
    let store = InMemorySessionStore()
    try await seed(store)
    let replica = try client(on: store)
    let held = try #require(try await replica.loadSession(key))
    let outcome = try await replica.signOut(key, reason: .accountDisabled, revoke: false)
    guard case .skipped = outcome else {
      Issue.record("expected no revocation, got \(String(describing: outcome))")
      return
    }
    await expectSignedOut(held, .accountDisabled)
  }

  @Test func anOperatorWithoutTheProviderDeletesTheStoredLoginWhenNotRevoking() async throws {
    let store = InMemorySessionStore()
    try await seed(store)
    let operatorClient = try LoginClient(providers: [], store: store, clock: clock)
    let error = await #expect(throws: AuthError.self) { try await operatorClient.signOut(key) }
    #expect(error?.code == .unknownProvider)
    #expect(try await store.load(key) != nil, "nothing deleted when revocation was impossible")
    _ = try await operatorClient.signOut(key, revoke: false)
    #expect(try await store.load(key) == nil)
    #expect(try await store.deletionReason(for: key) == .signedOutByOperator)
  }
}

/// A store whose loads can be made to fail, or held at a gate after they read.
final class ScriptedLoads: SessionStore {
  let base: any SessionStore
  private let failing = Locked(false)
  private let holdingAfterRead: Gate?

  init(base: any SessionStore, holdingAfterRead: Gate? = nil) {
    self.base = base
    self.holdingAfterRead = holdingAfterRead
  }

  func fail(_ fail: Bool) { failing.withLock { $0 = fail } }

  func load(_ key: SessionKey) async throws -> StoredSession? {
    if failing.withLock({ $0 }) { throw AuthError(.storageFailed, "unreachable (test)") }
    let record = try await base.load(key)
    await holdingAfterRead?.wait()
    return record
  }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    try await base.delete(key, ifVersion: version, reason: reason)
  }
  func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    try await base.deletionReason(for: key)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await base.lockRefresh(for: key)
  }
  func changes() -> AsyncStream<SessionStoreChange>? { base.changes() }
}
