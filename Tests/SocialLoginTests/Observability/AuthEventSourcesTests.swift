import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// An observer that opted in to subjects (an audit log).
final class AuditLog: AuthObserver {
  private let entries = Locked([(event: AuthEvent, subject: String?)]())
  var all: [(event: AuthEvent, subject: String?)] { entries.withLock { $0 } }
  var receivesSubjects: Bool { true }
  func observe(_ event: AuthEvent) { entries.withLock { $0.append((event, nil)) } }
  func observe(_ event: AuthEvent, subject: String) {
    entries.withLock { $0.append((event, subject)) }
  }
}

/// A store whose refresh lease is handed out only when the test opens a gate.
final class LeaseWaitStore: SessionStore {
  let base = InMemorySessionStore()
  let gate = Gate()

  func load(_ key: SessionKey) async throws -> StoredSession? { try await base.load(key) }
  func loadAll() async throws -> StoreSnapshot {
    var snapshot = try await base.loadAll()
    snapshot.failures.append(
      StoreFailure(
        location: "line:broken.json",
        error: AuthError(.storageCorrupt, "not JSON (test)", provider: .line)))
    return snapshot
  }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    await gate.wait()
    return try await base.lockRefresh(for: key)
  }
}

/// Issue 23: the events raised beyond sessions' state — lease waits, store failures,
/// verification, key-set fetches — and the opt-in subject for audit logs.
@Suite(.timeLimit(.minutes(2))) struct AuthEventSourcesTests {
  @Test func everyKindIsCoveredByTheRecorderFixtures() {
    let names = Set(AuthEvent.everyKind(provider: .line).map(\.kindName))
    #expect(names.count == 14, "\(names.sorted())")
  }

  @Test func aRefreshReportsHowLongItWaitedForTheLease() async throws {
    let store = LeaseWaitStore()
    let fixture = SessionFixture(store: store)
    let log = EventLog()
    let session = SessionActor(
      record: try await fixture.storeInitial(), provider: fixture.provider, store: store,
      clock: fixture.clock, policy: RefreshPolicy(proactiveMargin: nil), observer: log)
    let caller = Task { try await session.freshAccessToken() }
    try await store.gate.waitForWaiters(count: 1)
    fixture.clock.advance(by: .seconds(2))
    store.gate.open()
    _ = try await caller.value
    guard case .refreshed(_, .refreshed, let duration, let leaseWait)? = log.all.last else {
      Issue.record("expected a refresh event, got \(log.all)")
      return
    }
    #expect(leaseWait == .seconds(2))
    #expect(duration >= leaseWait)
  }

  @Test func aFailedSaveIsAStoreFailureAndAConflictIsNot() async throws {
    let store = FlakyStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: store)
    let log = EventLog()
    let session = SessionActor(
      record: try await fixture.storeInitial(), provider: fixture.provider, store: store,
      clock: fixture.clock, policy: RefreshPolicy(proactiveMargin: nil), observer: log)
    store.failWrites(true)
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(
      log.all.contains(.storeFailed(operation: .save, provider: "scripted", code: .storageFailed)),
      "\(log.all)")
    store.failWrites(false)
    let stale = try await fixture.store.load(fixture.key)
    _ = try await store.save(try #require(stale), expectedVersion: stale?.version)
    let before = log.all.count
    let observed = ObservedSessionStore(base: store, observer: log)
    await #expect(throws: AuthError.self) {
      _ = try await observed.save(try #require(stale), expectedVersion: stale?.version)
    }
    #expect(log.all.count == before, "a conflict is the store's answer, not its failure")
  }

  @Test func recordsARestoreSetAsideAreReported() async throws {
    let log = EventLog()
    let client = try LoginClient(
      providers: [ScriptedProvider(id: "corp", clock: ManualClock())], store: LeaseWaitStore(),
      observer: log)
    let failures = try await client.restoreSessions()
    #expect(failures.count == 1)
    #expect(log.all == [.storeFailed(operation: .loadAll, provider: .line, code: .storageCorrupt)])
  }

  @Test func verificationReportsItsKeySetFetchAndOutcome() async throws {
    let stub = try OIDCStubProvider()
    let log = EventLog()
    let client = try LoginClient(
      providers: [stub.provider], store: InMemorySessionStore(), clock: stub.clock,
      observer: log)
    let token = Secret(OIDCStubProvider.jwt(typ: "JWT", ["client_id": nil, "jti": nil]))
    _ = try await client.verify(.idTokenAcceptingAnyNonce(token), from: "corp")
    let kinds = log.all.map(\.kindName)
    #expect(kinds == ["keySetFetched", "verified"], "\(log.all)")
    #expect(log.all.last == .verified(provider: "corp", token: .idToken, duration: .zero))
    await #expect(throws: AuthError.self) {
      _ = try await client.verify(.idTokenAcceptingAnyNonce("not-a-jwt"), from: "corp")
    }
    #expect(
      log.all.last
        == .verificationFailed(
          provider: "corp", token: .idToken, duration: .zero, code: .invalidToken))
  }

  @Test func aKeySetThatCannotBeFetchedIsReportedWithItsCode() async throws {
    let stub = try OIDCStubProvider()
    stub.stub.on("GET", "/jwks", reply: .status(503, body: "down"))
    let log = EventLog()
    let client = try LoginClient(
      providers: [stub.provider], store: InMemorySessionStore(), clock: stub.clock,
      observer: log)
    let token = Secret(OIDCStubProvider.jwt(typ: "JWT", ["client_id": nil, "jti": nil]))
    await #expect(throws: AuthError.self) {
      _ = try await client.verify(.idTokenAcceptingAnyNonce(token), from: "corp")
    }
    #expect(
      log.all.contains(
        .keySetFetchFailed(provider: "corp", duration: .zero, code: .serverUnavailable)),
      "\(log.all)")
    #expect(log.all.last.map(\.kindName) == "verificationFailed")
  }

  @Test func anAuditObserverGetsTheSubjectOnlyOfEventsAboutOneAccount() async throws {
    let clock = ManualClock()
    let audit = AuditLog()
    let client = try LoginClient(
      providers: [ScriptedProvider(id: "corp", clock: clock)], store: InMemorySessionStore(),
      clock: clock, observer: audit)
    let handle = try await client.beginLogin("corp", redirectURI: "https://app.example/cb")
    let callback = try AuthorizationCallback(
      url: try #require(URL(string: "https://app.example/cb?state=\(handle.state)&code=c")))
    let session = try await client.completeLogin(callback: callback, expectedState: handle.state)
    try await session.signOut()
    let subject = session.key.subject
    #expect(!subject.isEmpty)
    #expect(audit.all.first?.event == .loginStarted(provider: "corp"))
    #expect(audit.all.first?.subject == nil, "a started login has no account yet")
    for entry in audit.all.dropFirst() {
      #expect(entry.subject == subject, "\(entry.event)")
    }
    #expect(audit.all.contains { $0.event == .signedOut(provider: "corp", reason: .userInitiated) })
    // The default observer never sees one.
    let plain = EventLog()
    #expect(!plain.receivesSubjects)
  }
}
