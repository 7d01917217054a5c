import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Tokens a refresh got but could not save keep the store's refresh lease until they are
/// saved. Released, the lease would let another replica read the stored record and spend the
/// refresh token those tokens replaced: a rotating provider refuses it, and that replica signs
/// the user out (what a Redis failover cutting the write did). Two session actors on one
/// store stand for two replicas; the stores count their leases.
@Suite(.timeLimit(.minutes(1)))
struct UnsavedTokensKeepTheLeaseTests {
  @Test func anotherReplicaWaitsForTheKeptLeaseAndAdoptsTheSavedTokens() async throws {
    let base = InMemorySessionStore()
    let storeA = FlakyStore(base: base)
    let storeB = FlakyStore(base: base)
    let fixture = SessionFixture(store: storeA)
    let initial = try await fixture.storeInitial()
    let replicaA = fixture.makeSession(record: initial, store: storeA)
    let replicaB = fixture.makeSession(record: initial, store: storeB)

    storeA.failWrites(true)
    let error = await #expect(throws: AuthError.self) { try await replicaA.freshAccessToken() }
    #expect(error?.code == .storageFailed)
    #expect(storeA.leaseCounts == LeaseCounts(askedFor: 1, taken: 1, outstanding: 1))

    // Replica B, asked for a token meanwhile, waits for the lease instead of spending rt-0.
    let tokenB = Task { try await replicaB.freshAccessToken() }
    try await WaitTimeout.yieldUntil("replica B to ask for the lease") {
      storeB.leaseCounts.askedFor == 1
    }
    #expect(storeB.leaseCounts.taken == 0)

    // A's next attempt saves the tokens under the lease it kept (it asks for no other), then
    // gives the lease back; B takes it and finds the saved tokens.
    // (The clock moves to A's retry time only: B's refresh deadline is a minute.)
    guard case .degraded(let retryAt) = replicaA.currentState else {
      Issue.record("expected degraded, got \(replicaA.currentState)")
      return
    }
    storeA.failWrites(false)
    fixture.clock.advance(by: .seconds(retryAt.timeIntervalSince(fixture.clock.wallTime)))
    #expect(try await replicaA.freshAccessToken() == "at-1001")
    #expect(storeA.leaseCounts == LeaseCounts(askedFor: 1, taken: 1, outstanding: 0))
    #expect(try await tokenB.value == "at-1001")
    #expect(await fixture.provider.spentRefreshTokens == ["rt-0"])
    #expect(try await base.load(fixture.key)?.credential.refreshToken == "rt-1001")
  }

  @Test func aWriteCutOnceOrTwiceIsTriedAgainAtOnce() async throws {
    let store = FlakyStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: store)
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    store.failNextWrites(2)
    #expect(try await session.freshAccessToken() == "at-1001")
    #expect(session.currentState == .signedIn)
    #expect(try await store.load(fixture.key)?.credential.refreshToken == "rt-1001")
    #expect(store.leaseCounts == LeaseCounts(askedFor: 1, taken: 1, outstanding: 0))

    // A third failure in a row degrades, holding the tokens and the lease.
    fixture.clock.advance(by: .seconds(3600))
    store.failNextWrites(3)
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    guard case .degraded = session.currentState else {
      Issue.record("expected degraded, got \(session.currentState)")
      return
    }
    #expect(store.leaseCounts.outstanding == 1)
    #expect(await fixture.provider.spentRefreshTokens == ["rt-0", "rt-1001"])
  }

  @Test func signingOutGivesTheKeptLeaseBack() async throws {
    let store = FlakyStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: store)
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    store.failWrites(true)
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(store.leaseCounts.outstanding == 1)
    store.failWrites(false)
    try await session.signOut(revoke: false)
    #expect(store.leaseCounts.outstanding == 0)
    // The lease is free: another holder takes it at once.
    let lease = try await store.lockRefresh(for: fixture.key)
    await lease.release()
  }
}
