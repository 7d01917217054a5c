import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// `forceRefresh()` and the minimum TTL a provider cannot meet (issue 20, item 4).
@Suite(.timeLimit(.minutes(5))) struct ForceRefreshTests {
  @Test func aForcedRefreshRenewsATokenThatStillHasAnHourLeft() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: 3600))
    let renewed = try await session.forceRefresh()
    #expect(renewed.accessToken == "at-1001")
    #expect(await fixture.provider.refreshCount == 1)
    #expect(try await fixture.store.load(fixture.key)?.credential.accessToken == "at-1001")
    #expect(try await session.freshAccessToken() == "at-1001", "the fast path serves it")
  }

  @Test func concurrentForcedRefreshesSpendTheRefreshTokenOnce() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: 3600))
    let gate = await fixture.holdNextRefresh(issuing: 7)
    let provider = fixture.provider
    let callers = (0..<200).map { _ in Task { try await session.forceRefresh() } }
    try await gate.waitForWaiters(count: 1)
    gate.open()
    for caller in callers { #expect(try await caller.value.accessToken == "at-7") }
    #expect(await provider.refreshCount == 1)
    #expect(await provider.spentRefreshTokens == ["rt-0"])
  }

  @Test func aForcedRefreshDoesNotWaitForTheBackoff() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    await fixture.provider.enqueueRefresh { _ in
      throw AuthError(.serverUnavailable, "503 from provider", httpStatus: 503)
    }
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    guard case .degraded(let retryAt) = session.currentState else {
      Issue.record("expected degraded, got \(session.currentState)")
      return
    }
    #expect(retryAt > fixture.clock.wallTime)
    // Before the retry time an ordinary caller fails fast without asking the provider ...
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(await fixture.provider.refreshCount == 1)
    // ... a forced refresh asks, and recovers the session.
    #expect(try await session.forceRefresh().accessToken == "at-1001")
    #expect(await fixture.provider.refreshCount == 2)
    #expect(session.currentState == .signedIn)
  }

  @Test func aSessionThatCannotRefreshSaysSoInsteadOfSigningOut() async throws {
    let fixture = SessionFixture()
    let credential = Credential(
      accessToken: "at-0", expiresAt: fixture.clock.wallTime.addingTimeInterval(3600),
      issuedAt: fixture.clock.wallTime)
    let record = try await fixture.store.save(
      StoredSession(key: fixture.key, credential: credential), expectedVersion: nil)
    let session = fixture.makeSession(record: record)
    let error = await #expect(throws: AuthError.self) { try await session.forceRefresh() }
    #expect(error?.code == .unsupported)
    #expect(error?.provider == "scripted")
    #expect(session.currentState == .signedIn)
    #expect(await fixture.provider.refreshCount == 0)
  }

  @Test func aMinimumTTLBeyondWhatTheProviderGrantsIsAClearError() async throws {
    let fixture = SessionFixture()  // the provider grants 3600 s
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: 600))
    let error = await #expect(throws: AuthError.self) {
      try await session.freshAccessToken(minimumTTL: .seconds(4000))
    }
    #expect(error?.code == .tokenLifetimeTooShort)
    #expect(error?.message.contains("3600 s") == true)
    #expect(await fixture.provider.refreshCount == 1)
    // The refreshed tokens are kept, and the session is fine for what the provider grants.
    #expect(session.currentState == .signedIn)
    #expect(try await session.freshAccessToken(minimumTTL: .seconds(3000)) == "at-1001")
    #expect(await fixture.provider.refreshCount == 1)
  }

  @Test func aJoinedRefreshThatAdoptedAnOlderTokenIsRenewedForTheCallersMinimum() async throws {
    let gate = Gate()
    let store = GatedLeaseStore(base: InMemorySessionStore(), gate: gate)
    let fixture = SessionFixture(store: store)
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: -60))
    // The first caller's refresh waits for the lease; a caller that needs 20 minutes joins it.
    let first = Task { try await session.freshAccessToken() }
    try await gate.waitForWaiters(count: 1)
    let demanding = Task { try await session.freshAccessToken(minimumTTL: .seconds(1200)) }
    try await WaitTimeout.yieldUntil("the second caller joins") {
      await session.refreshWaiterCount == 2
    }
    // Meanwhile another process refreshed, 50 minutes ago by its clock: 10 minutes left of 60.
    let elsewhere = fixture.provider.makeCredential(
      number: 500, clockNow: fixture.clock.wallTime.addingTimeInterval(-3000))
    var stored = try #require(try await store.base.load(fixture.key))
    stored.credential = elsewhere
    _ = try await store.base.save(stored, expectedVersion: stored.version)
    gate.open()
    // The flight adopts it (enough for the first caller); the demanding caller gets a new one.
    #expect(try await first.value == "at-500")
    #expect(try await demanding.value == "at-1001")
    #expect(await fixture.provider.spentRefreshTokens == ["rt-500"])
  }
}

/// A store whose version-checked lease waits at a gate first (a Redis lease held elsewhere).
final class GatedLeaseStore: SessionStore {
  let base: InMemorySessionStore
  let gate: Gate

  init(base: InMemorySessionStore, gate: Gate) {
    self.base = base
    self.gate = gate
  }

  func load(_ key: SessionKey) async throws -> StoredSession? { try await base.load(key) }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await base.lockRefresh(for: key)
  }
  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    await gate.wait()
    return try await base.lockRefresh(for: key, unlessNewerThan: version)
  }
}
