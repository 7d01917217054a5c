import Foundation
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLoginRedis

/// The intent to spend (``SpendIntent``) in Redis: recorded under the lease before a refresh is
/// sent, settled by a save, a release or a deletion, found by the next holder when its owner
/// vanished, and never believed when Redis hands back something else.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisSpendIntentTests {
  static let digest = SpendIntent.digest(of: "rt-0")

  func stores(_ server: RedisFixture, grace: Duration? = nil) throws -> (
    RedisSessionStore, RedisSessionStore
  ) {
    let prefix = uniquePrefix()
    let session = SessionStoreContract.sampleSession()
    let options = RedisSessionStore.Options(
      keyPrefix: prefix, leaseTimeToLive: .seconds(30), leasePollInterval: .milliseconds(20),
      refreshTokenReuseGrace: grace.map { [session.key.provider: $0] } ?? [:])
    return (try server.store(options), try server.store(options))
  }

  /// A holder killed after recording its intent (its lease and claim left to expire): the next
  /// holder, in another store, finds the intent with the token's digest and its owner.
  @Test func aVanishedHoldersIntentIsFoundByTheNextHolder() async throws {
    try await RedisFixture.with { server in
      let (storeA, storeB) = try stores(server)
      defer { for store in [storeA, storeB] { store.client.close() } }
      let session = try await storeA.save(
        SessionStoreContract.sampleSession(), expectedVersion: nil)
      let tag = RedisKeys.tag(for: session.key)
      let vanished = try await storeA.lockRefresh(for: session.key)
      #expect(await vanished.interruptedIntent() == nil)
      try await vanished.recordIntent(toSpend: Self.digest)
      let stored = try #require(
        try await storeA.client.send(["GET", storeA.keys.spendIntent(tag: tag)]).string)
      #expect(stored.contains(Self.digest))
      #expect(!stored.contains("rt-0"), "the intent names the token by its digest only")
      // Killed: nothing is released; the lease and the claim lapse.
      try await storeA.client.send(
        ["DEL", storeA.keys.lease(tag: tag), storeA.keys.spendClaim(tag: tag)])
      let next = try await withDeadline(.seconds(45), "B's lease") {
        try await storeB.lockRefresh(for: session.key)
      }
      let found = try #require(await next.interruptedIntent())
      #expect(found.refreshTokenDigest == Self.digest)
      #expect(found.owner.hasPrefix(storeA.claimPrefix))
      #expect(abs(found.recordedAt.timeIntervalSinceNow) < 120)
      await next.release()
      _ = vanished
    }
  }

  /// A store's own flights settle their intents: one left over from this store (a release that
  /// did not reach Redis) is not another holder's interrupted spend.
  @Test func aStoresOwnIntentIsNotInterrupted() async throws {
    try await RedisFixture.with { server in
      let (storeA, other) = try stores(server)
      defer { for store in [storeA, other] { store.client.close() } }
      let key = SessionStoreContract.sampleSession().key
      let tag = RedisKeys.tag(for: key)
      let first = try await storeA.lockRefresh(for: key)
      try await first.recordIntent(toSpend: Self.digest)
      try await storeA.client.send(["DEL", storeA.keys.lease(tag: tag)])
      let again = try await withDeadline(.seconds(45), "A's lease again") {
        try await storeA.lockRefresh(for: key)
      }
      #expect(await again.interruptedIntent() == nil)
      await again.release()
      _ = first
    }
  }

  /// A leader killed after taking the lease but before recording an intent holds nothing off:
  /// its lease lapses and the next holder takes it without waiting for any claim.
  @Test func aHolderKilledBeforeItsIntentHoldsNothingOff() async throws {
    try await RedisFixture.with { server in
      let (storeA, storeB) = try stores(server)
      defer { for store in [storeA, storeB] { store.client.close() } }
      let key = SessionStoreContract.sampleSession().key
      let tag = RedisKeys.tag(for: key)
      let vanished = try await storeA.lockRefresh(for: key)
      try await storeA.client.send(["DEL", storeA.keys.lease(tag: tag)])
      let next = try await withDeadline(.seconds(45), "B's lease") {
        try await storeB.lockRefresh(for: key)
      }
      #expect(storeB.spendClaimWaits == 0)
      #expect(await next.interruptedIntent() == nil)
      await next.release()
      _ = vanished
    }
  }

  /// The intent is recorded only while the lease is this holder's: a holder whose lease lapsed
  /// gets a typed error and does not spend.
  @Test func anIntentNeedsTheLease() async throws {
    try await RedisFixture.with { server in
      let (storeA, storeB) = try stores(server)
      defer { for store in [storeA, storeB] { store.client.close() } }
      let key = SessionStoreContract.sampleSession().key
      let tag = RedisKeys.tag(for: key)
      let lapsed = try await storeA.lockRefresh(for: key)
      try await storeA.client.send(["DEL", storeA.keys.lease(tag: tag)])
      let taken = try await storeB.lockRefresh(for: key)
      await #expect(throws: AuthError.self) { try await lapsed.recordIntent(toSpend: Self.digest) }
      #expect(
        try await storeA.client.send(["EXISTS", storeA.keys.spendIntent(tag: tag)]) == .integer(0))
      await taken.release()
    }
  }

  /// A save, a release and a deletion each settle the intent.
  @Test func saveReleaseAndDeleteSettleTheIntent() async throws {
    try await RedisFixture.with { server in
      let (store, other) = try stores(server)
      defer { for store in [store, other] { store.client.close() } }
      var session = try await store.save(SessionStoreContract.sampleSession(), expectedVersion: nil)
      let intentKey = store.keys.spendIntent(tag: RedisKeys.tag(for: session.key))
      func exists() async throws -> Bool {
        try await store.client.send(["EXISTS", intentKey]) == .integer(1)
      }
      let saving = try await store.lockRefresh(for: session.key)
      try await saving.recordIntent(toSpend: Self.digest)
      #expect(try await exists())
      session = try await store.save(session, expectedVersion: session.version)
      #expect(try await !exists())
      await saving.release()

      let releasing = try await store.lockRefresh(for: session.key)
      try await releasing.recordIntent(toSpend: Self.digest)
      await releasing.release()
      #expect(try await !exists())

      let deleting = try await store.lockRefresh(for: session.key)
      try await deleting.recordIntent(toSpend: Self.digest)
      #expect(try await store.delete(session.key, ifVersion: session.version))
      #expect(try await !exists())
      await deleting.release()
    }
  }

  /// With a reuse grace for the provider, the claim lives half the grace (so a successor's
  /// retry lands inside it); without, the configured claim time to live.
  @Test func theClaimFollowsTheProvidersGrace() async throws {
    try await RedisFixture.with { server in
      let key = SessionStoreContract.sampleSession().key
      for (grace, expected) in [(Duration.seconds(8), 4000), (nil, 60000)] {
        let (store, other) = try stores(server, grace: grace)
        defer { for store in [store, other] { store.client.close() } }
        #expect(store.options.spendClaimWait(for: key.provider) == .milliseconds(expected))
        let lease = try await store.lockRefresh(for: key)
        try await lease.recordIntent(toSpend: Self.digest)
        let left = try await store.client.send(
          ["PTTL", store.keys.spendClaim(tag: RedisKeys.tag(for: key))]
        ).integer
        // Alive, and never longer than the wait for this provider (half an 8 s grace is far
        // below the 60 s default); how much of it is left depends on the machine's load.
        #expect((1...expected).contains(Int(left ?? -1)), "\(left ?? -1) ms left")
        await lease.release()
      }
    }
  }

  /// Whatever Redis holds under the intent key, only a well-formed intent of another store is
  /// believed: anything else counts as none, and nothing crashes.
  @Test func hostileIntentValuesAreNotBelieved() async throws {
    try await RedisFixture.with { server in
      let (storeA, storeB) = try stores(server)
      defer { for store in [storeA, storeB] { store.client.close() } }
      let key = SessionStoreContract.sampleSession().key
      let intentKey = storeA.keys.spendIntent(tag: RedisKeys.tag(for: key))
      let good = "0123456789abcdef:owner|\(Self.digest)|1700000000000"
      let hostile = [
        "", "|||", "owner|\(Self.digest)", "owner|\(Self.digest)|-1",
        "owner|\(Self.digest.uppercased())|1", "owner|\(Self.digest)x|1",
        "owner|\(Self.digest)|99999999999999999999", "own er|\(Self.digest)|1",
        String(repeating: "a", count: 100_000) + "|\(Self.digest)|1",
        storeB.claimPrefix + "x|\(Self.digest)|1",
      ]
      for value in hostile + [good] {
        try await storeA.client.send(["SET", intentKey, value])
        let lease = try await storeB.lockRefresh(for: key)
        let found = await lease.interruptedIntent()
        if value == good {
          #expect(found?.refreshTokenDigest == Self.digest)
          #expect(found?.recordedAt == Date(timeIntervalSince1970: 1_700_000_000))
        } else {
          #expect(found == nil, "believed \(value.prefix(60))")
        }
        await lease.release()
      }
    }
  }
}
