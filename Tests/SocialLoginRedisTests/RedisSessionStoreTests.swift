import Foundation
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLoginRedis

/// The store protocol's contract (the same checks the memory and file stores pass) and the
/// Redis store's own promises, against a real redis-server.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisSessionStoreTests {
  /// A store; `claimTTL` is the spend claim's time to live (the default's 60 s, unless a test
  /// of a stalled leader wants another replica to take over once the lease lapses).
  func makeStore(
    _ server: RedisFixture, leaseTTL: Duration = .seconds(10), prefix: String? = nil,
    claimTTL: Duration = .seconds(60), sealing: RecordSealing = TestSealing.sealing
  )
    async throws -> RedisSessionStore
  {
    try server.store(
      RedisSessionStore.Options(
        keyPrefix: prefix ?? uniquePrefix(), leaseTimeToLive: leaseTTL,
        leasePollInterval: .milliseconds(50), spendClaimTimeToLive: claimTTL),
      sealing: sealing)
  }

  @Test(arguments: SessionStoreContract.allCases)
  func redisStoreKeepsTheContract(check: SessionStoreContract) async throws {
    try await RedisFixture.with { server in
      // No check waits for a lease to lapse: a long lifetime keeps a delayed renewal (a loaded
      // machine) from handing a held lease to a second owner mid-check.
      try await check.run(on: try await makeStore(server, leaseTTL: .seconds(120)))
    }
  }

  /// An unsealed store sets an undecodable record aside (a sealed store cannot tell a
  /// garbled value from a forged one: ``aValueThatDoesNotOpenIsKeptAndNeverServed``).
  @Test func aCorruptValueIsATypedErrorAndIsSetAside() async throws {
    try await RedisFixture.with { server in
      let store = try await makeStore(server, sealing: .unsealed)
      let good = try await store.save(
        SessionStoreContract.sampleSession("good"), expectedVersion: nil)
      let bad = try await store.save(
        SessionStoreContract.sampleSession("bad"), expectedVersion: nil)
      let badKey = store.keys.session(tag: RedisKeys.tag(for: bad.key))
      try await store.client.send(["HSET", badKey, "d", "{ not json"])

      let snapshot = try await store.loadAll()
      #expect(snapshot.sessions.map(\.key) == [good.key], "the corrupt record hides nothing")
      let failure = try #require(snapshot.failures.first)
      #expect(failure.error.code == .storageCorrupt)
      #expect(failure.location == badKey)
      let aside = try #require(failure.quarantinedAt)
      #expect(aside.hasPrefix(store.options.keyPrefix + ":{"), "same hash slot")
      #expect(try await store.client.send(["HGET", aside, "d"]).string == "{ not json")
      #expect(try await store.load(bad.key) == nil)
      // A record written again continues the versions (the tombstone kept version 1).
      #expect(try await store.save(bad, expectedVersion: nil).version == 2)

      // The same through load, and for a key holding another Redis type.
      try await store.client.send(["DEL", badKey])
      try await store.client.send(["SET", badKey, "plain string"])
      let error = await #expect(throws: AuthError.self) { try await store.load(bad.key) }
      #expect(error?.code == .storageCorrupt)
      #expect(try await store.load(bad.key) == nil)
    }
  }

  @Test func aVersionFieldThatIsNotANumberIsCorrupt() async throws {
    try await RedisFixture.with { server in
      let store = try await makeStore(server)
      let saved = try await store.save(SessionStoreContract.sampleSession(), expectedVersion: nil)
      let key = store.keys.session(tag: RedisKeys.tag(for: saved.key))
      for garbage in ["-3", "abc", "18446744073709551615", "99999999999999999999999"] {
        try await store.client.send(["HSET", key, "v", garbage])
        let error = await #expect(throws: AuthError.self) { try await store.load(saved.key) }
        #expect(error?.code == .storageCorrupt, "\(garbage)")
        _ = try await store.save(saved, expectedVersion: nil)
      }
    }
  }

  @Test func listingIsByProviderAndDeletedSessionsLeaveTheIndex() async throws {
    try await RedisFixture.with { server in
      let store = try await makeStore(server)
      for subject in ["a", "b", "c"] {
        _ = try await store.save(SessionStoreContract.sampleSession(subject), expectedVersion: nil)
      }
      _ = try await store.save(
        SessionStoreContract.sampleSession("z", provider: "line"), expectedVersion: nil)
      try await store.delete(SessionKey(provider: .twitter, subject: "b"))
      let twitter = try await store.loadAll(provider: .twitter)
      #expect(twitter.sessions.map(\.key.subject) == ["a", "c"])
      #expect(try await store.loadAll(provider: "line").sessions.map(\.key.subject) == ["z"])
      let members = try await store.client.send(["SCARD", store.keys.index(provider: .twitter)])
      #expect(members == .integer(2))
    }
  }

  @Test func recordsLiveAsLongAsTheProvidersRefreshTokens() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(
        RedisSessionStore.Options(
          keyPrefix: uniquePrefix(), refreshTokenLifetimes: [.twitter: .seconds(3600)]))
      var session = SessionStoreContract.sampleSession()
      session.credential.expiresAt = Date().addingTimeInterval(60)
      let saving = ContinuousClock.now
      let saved = try await store.save(session, expectedVersion: nil)
      let key = store.keys.session(tag: RedisKeys.tag(for: saved.key))
      let ttl = try #require(try await store.client.send(["PTTL", key]).integer)
      // An hour, less what passed since the save began (however long a loaded machine took).
      let passed = Int(saving.duration(to: .now).components.seconds + 1) * 1000
      #expect(ttl > 3_600_000 - passed && ttl <= 3_600_000, "\(ttl) ms, \(passed) ms passed")
      let line = try await store.save(
        SessionStoreContract.sampleSession("x", provider: "line"), expectedVersion: nil)
      let lineKey = store.keys.session(tag: RedisKeys.tag(for: line.key))
      let day = 24 * 3600 * 1000
      let lineTTL = try #require(try await store.client.send(["PTTL", lineKey]).integer)
      #expect(lineTTL > 179 * day && lineTTL <= 180 * day, "no lifetime known: 180 days")

      let forever = try server.store(
        RedisSessionStore.Options(
          keyPrefix: uniquePrefix(), unknownLifetimeTimeToLive: nil))
      let kept = try await forever.save(
        SessionStoreContract.sampleSession("y", provider: "line"), expectedVersion: nil)
      let keptKey = forever.keys.session(tag: RedisKeys.tag(for: kept.key))
      #expect(
        try await forever.client.send(["PTTL", keptKey]) == .integer(-1), "kept until deleted")
    }
  }

  @Test func everyKeyOfASessionSharesOneHashSlot() {
    let keys = RedisKeys(prefix: "p")
    let tag = RedisKeys.tag(for: SessionKey(provider: .twitter, subject: "{evil}:x"))
    for name in [
      keys.session(tag: tag), keys.lease(tag: tag), keys.spendClaim(tag: tag),
      keys.corrupt(tag: tag, suffix: "1"),
    ] {
      #expect(name.contains("{\(tag)}"))
      #expect(name.filter { $0 == "{" }.count == 1, "the subject never adds braces")
    }
    #expect(tag.count == 32)
  }

  @Test func theLeaseIsRenewedWhileHeldAndTakenOverOnceItLapses() async throws {
    try await RedisFixture.with { server in
      // Renewals come every third of the lifetime: 1.7 s apart, so a loaded machine that delays
      // one by a few seconds does not let the lease lapse while the leader holds it.
      let ttl = Duration.seconds(5)
      let shared = uniquePrefix()
      // (The spend claim lives no longer than the lease here: the takeover is what is tested.)
      let leader = try await makeStore(server, leaseTTL: ttl, prefix: shared, claimTTL: ttl)
      let follower = try await makeStore(server, leaseTTL: ttl, prefix: shared, claimTTL: ttl)
      let key = SessionKey(provider: .twitter, subject: "lease")
      let lease = try await leader.lockRefresh(for: key)

      // Held for four lifetimes: renewals keep the follower out.
      let waiting = Task { try await follower.lockRefresh(for: key) }
      try await Task.sleep(for: ttl * 4)
      #expect(await lease.isHeld())
      let leaseKey = leader.keys.lease(tag: RedisKeys.tag(for: key))
      #expect((try await leader.client.send(["PTTL", leaseKey]).integer ?? 0) > 0)

      // The leader stalls (no renewals): the lease lapses and the follower gets it. Nothing
      // else would end its wait (the leader never releases), so reaching it is the proof; the
      // deadline only turns a hang into a failure.
      leader.renewalsPaused.withLock { $0 = true }
      let second = try await withDeadline(.seconds(60), "the follower taking the lapsed lease") {
        try await waiting.value
      }
      #expect(await lease.isHeld() == false, "the stalled leader knows it may have lost it")
      #expect(await second.isHeld())
      // The stalled leader's release cannot delete the new owner's lease.
      await lease.release()
      #expect(try await leader.client.send(["EXISTS", leaseKey]) == .integer(1))
      await second.release()
      #expect(try await leader.client.send(["EXISTS", leaseKey]) == .integer(0))
    }
  }

  /// A lease is renewed from the moment its `SET` is sent, not once its reply has been
  /// processed: that reply resumes a task, and a busy cooperative pool can delay it past the
  /// lease's lifetime. Here the `SET` took effect and its reply is never processed (the hold is
  /// never adopted); the lease must still be alive three lifetimes later.
  @Test func renewalsBeginBeforeTheTakingReplyIsProcessed() async throws {
    try await RedisFixture.with { server in
      let ttl = Duration.seconds(3)
      let store = try server.store(
        RedisSessionStore.Options(keyPrefix: uniquePrefix(), leaseTimeToLive: ttl))
      let leaseKey = store.keys.lease(tag: "pending")
      let hold = LeaseHold(
        store: store, key: leaseKey, tag: "pending", token: "owner", claimMilliseconds: "60000",
        started: .now)
      defer { hold.end() }
      try await store.client.send(["SET", leaseKey, "owner", "NX", "PX", "3000"])
      try await Task.sleep(for: ttl * 3)
      #expect(try await store.client.send(["GET", leaseKey]).string == "owner")
      #expect(hold.isHeld == false, "not a lease until adopted")
      // Another owner's lease is never extended by it.
      try await store.client.send(["SET", leaseKey, "someone-else", "PX", "100"])
      try await Task.sleep(for: .seconds(2))
      #expect(try await store.client.send(["EXISTS", leaseKey]) == .integer(0))
    }
  }

  @Test func aReleaseWakesTheWaiterWithoutWaitingForItsPoll() async throws {
    try await RedisFixture.with { server in
      let options = RedisSessionStore.Options(
        keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(600),
        leasePollInterval: .seconds(600))
      let a = try server.store(options)
      let b = try server.store(options)
      let key = SessionKey(provider: .twitter, subject: "wake")
      let lease = try await a.lockRefresh(for: key)
      let waiting = Task { try await b.lockRefresh(for: key) }
      try await Task.sleep(for: .milliseconds(200))
      await lease.release()
      // Its poll is ten minutes away: only the release's message can wake it by the deadline.
      let next = try await withDeadline(.seconds(60), "the waiter woken by the release") {
        try await waiting.value
      }
      await next.release()
    }
  }

  /// The leader's write itself wakes the replicas waiting for its refresh, and they adopt the
  /// written record in one script without taking the lease (so they never queue behind one
  /// another for it), while the leader still holds it.
  @Test func aWriteWakesEveryWaiterWithTheNewRecordWhileTheLeaseIsStillHeld() async throws {
    try await RedisFixture.with { server in
      let options = RedisSessionStore.Options(
        keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(600),
        leasePollInterval: .seconds(600))
      let leader = try server.store(options)
      let initial = try await leader.save(
        SessionStoreContract.sampleSession("turn"), expectedVersion: nil)
      guard
        case .current(let lease) = try await leader.lockRefresh(
          for: initial.key, unlessNewerThan: initial.version)
      else {
        Issue.record("the first caller gets the lease")
        return
      }
      var followers: [RedisSessionStore] = []
      for _ in 0..<3 {
        followers.append(try server.store(options))
      }
      let waiting = followers.map { follower in
        Task { try await follower.lockRefresh(for: initial.key, unlessNewerThan: initial.version) }
      }
      try await Task.sleep(for: .milliseconds(200))
      var next = initial
      next.credential = Credential(accessToken: "at-turn-2", refreshToken: "rt-turn-2")
      let stored = try await leader.save(next, expectedVersion: initial.version)
      for task in waiting {
        // Their poll is ten minutes away: only the write's message can wake them by the
        // deadline.
        let answer = try await withDeadline(.seconds(60), "a waiter woken by the write") {
          try await task.value
        }
        guard case .superseded(let record) = answer else {
          Issue.record("a waiter took the lease instead of adopting the write")
          continue
        }
        #expect(record == stored)
      }
      #expect(await lease.isHeld(), "the waiters never touched the leader's lease")
      await lease.release()
      // With the version it holds, a caller gets the lease again.
      guard
        case .current(let again) = try await followers[0].lockRefresh(
          for: initial.key, unlessNewerThan: stored.version)
      else {
        Issue.record("a caller holding the stored version gets the lease")
        return
      }
      await again.release()
    }
  }

  /// A write message that carries an older version than the caller holds (delayed, replayed
  /// or published by someone else on the channel) is never adopted: only a strictly newer
  /// record supersedes the one held.
  @Test func aMessageWithAnOlderVersionIsNotAdopted() async throws {
    try await RedisFixture.with { server in
      let options = RedisSessionStore.Options(
        keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(30),
        leasePollInterval: .seconds(20))
      let leader = try await RedisSessionStore.connect(
        url: server.url, sealing: TestSealing.sealing, options: options)
      let follower = try await RedisSessionStore.connect(
        url: server.url, sealing: TestSealing.sealing, options: options)
      let first = try await leader.save(
        SessionStoreContract.sampleSession("stale"), expectedVersion: nil)
      var next = first
      next.credential = Credential(accessToken: "at-stale-2", refreshToken: "rt-stale-2")
      let second = try await leader.save(next, expectedVersion: first.version)
      guard
        case .current(let lease) = try await leader.lockRefresh(
          for: second.key, unlessNewerThan: second.version)
      else {
        Issue.record("the first caller gets the lease")
        return
      }
      let waiting = Task {
        try await follower.lockRefresh(for: second.key, unlessNewerThan: second.version)
      }
      try await Task.sleep(for: .milliseconds(200))
      // The first version's message, once more.
      let tag = RedisKeys.tag(for: first.key)
      let stale = RedisStoreMessage(kind: .written, tag: tag, version: first.version).payload
      _ = try await leader.client.send(
        RedisCommand(arguments: [
          Array("PUBLISH".utf8), Array(leader.keys.hintChannel.utf8), stale,
        ]))
      try await Task.sleep(for: .milliseconds(200))
      await lease.release()
      switch try await waiting.value {
      case .current(let next):
        await next.release()
      case .superseded(let record):
        Issue.record("adopted version \(record.version) while holding \(second.version)")
      case .acquired(let next):
        Issue.record("took the lease without the version check")
        await next.release()
      }
    }
  }

  @Test func aStalledLeaderCannotOverwriteTheNewerCredential() async throws {
    try await RedisFixture.with { server in
      let ttl = Duration.milliseconds(400)
      let replicaA = try await makeStore(server, leaseTTL: ttl, prefix: "fence", claimTTL: ttl)
      let replicaB = try await makeStore(server, leaseTTL: ttl, prefix: "fence", claimTTL: ttl)
      let initial = try await replicaA.save(
        SessionStoreContract.sampleSession(token: "at-0"), expectedVersion: nil)

      // Store level: A's lease lapses while it stalls; B refreshes and writes version 2; A's
      // write with the version it read is refused.
      replicaA.renewalsPaused.withLock { $0 = true }
      let leaseA = try await replicaA.lockRefresh(for: initial.key)
      let leaseB = try await replicaB.lockRefresh(for: initial.key)
      var fromB = initial
      fromB.credential.accessToken = "at-from-b"
      _ = try await replicaB.save(fromB, expectedVersion: initial.version)
      await leaseB.release()
      var fromA = initial
      fromA.credential.accessToken = "at-from-a"
      let conflict = await #expect(throws: AuthError.self) {
        try await replicaA.save(fromA, expectedVersion: initial.version)
      }
      #expect(conflict?.code == .storageConflict)
      #expect(await leaseA.isHeld() == false)
      await leaseA.release()
      #expect(try await replicaA.load(initial.key)?.credential.accessToken == "at-from-b")
    }
  }

  @Test func aStalledSessionLeaderAdoptsTheNewerRecordInsteadOfOverwritingIt() async throws {
    try await RedisFixture.with { server in
      let tokens = try RotatingTokenServer()
      defer { tokens.close() }
      let ttl = Duration.milliseconds(400)
      let storeA = try await makeStore(server, leaseTTL: ttl, prefix: "fence2", claimTTL: ttl)
      let storeB = try await makeStore(server, leaseTTL: ttl, prefix: "fence2", claimTTL: ttl)
      let record = try await storeA.save(expiredSession(), expectedVersion: nil)
      let providerA = RefreshOnlyProvider(id: .twitter, tokenEndpoint: tokens.tokenEndpoint)
      let sessionA = SessionActor(record: record, provider: providerA, store: storeA)

      // A spends rt-0 and stalls before its answer arrives, past its lease (no renewals from
      // then on: before, a loaded machine could let the short lease lapse before A recorded
      // its intent to spend, and A would rightly spend nothing).
      tokens.holdNextRefresh(spendFirst: true)
      let stalled = Task { try await sessionA.freshAccessToken() }
      try await waitFor { tokens.held == 1 }
      storeA.renewalsPaused.withLock { $0 = true }
      try await Task.sleep(for: ttl * 2)
      // Meanwhile the user signs in again on B (a new credential, written under B's lease).
      let leaseB = try await storeB.lockRefresh(for: record.key)
      var relogin = record
      relogin.credential.accessToken = "at-relogin"
      relogin.credential.refreshToken = "rt-relogin"
      relogin.credential.expiresAt = Date().addingTimeInterval(3600)
      let newer = try await storeB.save(relogin, expectedVersion: record.version)
      await leaseB.release()

      tokens.releaseHeld()
      let token = try await stalled.value
      #expect(token == "at-relogin", "A adopted the newer record")
      let stored = try #require(try await storeA.load(record.key))
      #expect(stored.credential.accessToken == "at-relogin")
      #expect(stored.version == newer.version, "A wrote nothing over it")
    }
  }

  @Test func redisRestartedMidRunDegradesNeverSignsOutAndRecovers() async throws {
    try await RedisFixture.withOwn { server in
      let tokens = try RotatingTokenServer()
      defer { tokens.close() }
      let store = try await makeStore(server, prefix: uniquePrefix())
      let record = try await store.save(expiredSession(), expectedVersion: nil)
      let provider = RefreshOnlyProvider(id: .twitter, tokenEndpoint: tokens.tokenEndpoint)
      let clock = ManualClock(wallTime: Date())
      let session = SessionActor(
        record: record, provider: provider, store: store, clock: clock,
        policy: RefreshPolicy(
          proactiveMargin: nil,
          backoff: BackoffPolicy(baseDelay: .seconds(1), jitter: .none)))
      try await server.restart {
        let error = await #expect(throws: AuthError.self) {
          try await session.freshAccessToken()
        }
        #expect(error?.isTransient == true || error?.code == .storageFailed)
        guard case .degraded = session.currentState else {
          Issue.record("expected .degraded, got \(session.currentState)")
          return
        }
        #expect(tokens.attempts == 0, "no refresh token is spent without the lease")
      }
      clock.advance(by: .seconds(5))
      #expect(try await session.freshAccessToken() == "at-1")
      #expect(session.currentState == .signedIn)
      #expect(try await store.load(record.key)?.credential.refreshToken == "rt-1")
    }
  }
}

/// An X-like session whose access token has expired, with refresh token `rt-0`.
func expiredSession(subject: String = ReplicaSetup.subject) -> StoredSession {
  let credential = Credential(
    accessToken: "at-0", refreshToken: "rt-0", tokenType: "bearer",
    scopes: ["tweet.read", "users.read", "offline.access"],
    expiresAt: Date().addingTimeInterval(-60), issuedAt: Date().addingTimeInterval(-7260))
  return StoredSession(
    key: SessionKey(provider: .twitter, subject: subject), credential: credential)
}

/// Polls `condition` every 5 ms until it holds; fails after `timeout`.
func waitFor(
  timeout: Duration = .seconds(20), _ condition: @Sendable () -> Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("condition never became true", sourceLocation: sourceLocation)
      throw RedisTestError("timed out waiting")
    }
    try await Task.sleep(for: .milliseconds(5))
  }
}

enum ReplicaSetup {
  static let subject = "replica-user"
}

/// The spend claim a lease holder takes as it records its intent to spend outlives the lease: a
/// holder whose lease lapsed before it saved (a failover refusing its renewals and its write)
/// may have spent the refresh token, so no other store takes the lease until the holder saves,
/// releases, or the claim expires.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisSpendClaimTests {
  @Test func aLapsedLeasesClaimKeepsOtherReplicasFromSpendingUntilTheHolderSaves() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let options = RedisSessionStore.Options(
        keyPrefix: prefix, leaseTimeToLive: .seconds(30), leasePollInterval: .milliseconds(20))
      let storeA = try server.store(options)
      let storeB = try server.store(options)
      let initial = try await storeA.save(
        SessionStoreContract.sampleSession(token: "at-0"), expectedVersion: nil)
      let tag = RedisKeys.tag(for: initial.key)
      let leaseKey = storeA.keys.lease(tag: tag)

      // A takes the lease, records its intent and spends the token; the lease then lapses
      // (deleted here, as a failover's refused renewals would let it expire) before A saves.
      let leaseA = try await storeA.lockRefresh(for: initial.key, unlessNewerThan: initial.version)
      guard case .current(let heldA) = leaseA else {
        Issue.record("expected the lease, got \(leaseA)")
        return
      }
      try await heldA.recordIntent(toSpend: SpendIntent.digest(of: "rt-0"))
      try await storeA.client.send(["DEL", leaseKey])

      // B finds no lease but A's claim, and waits rather than spend the token again.
      let turnB = Task {
        try await storeB.lockRefresh(for: initial.key, unlessNewerThan: initial.version)
      }
      try await WaitTimeout.yieldUntil("B to meet A's claim") { storeB.spendClaimWaits >= 2 }
      #expect(try await storeA.client.send(["EXISTS", leaseKey]) == .integer(0))

      // A's own store is not held off by its claim: it takes the lease again to save what it
      // got, the save ends the claim, and B adopts the saved record.
      let again = try await withDeadline(.seconds(30), "A taking the lease past its own claim") {
        try await storeA.lockRefresh(for: initial.key)
      }
      var refreshed = initial
      refreshed.credential.accessToken = "at-from-a"
      let saved = try await storeA.save(refreshed, expectedVersion: initial.version)
      await again.release()
      let turn = try await withDeadline(.seconds(30), "B's turn after A's save") {
        try await turnB.value
      }
      guard case .superseded(let adopted) = turn else {
        Issue.record("expected B to adopt A's record, got \(turn)")
        return
      }
      #expect(adopted.version == saved.version)
      #expect(adopted.credential.accessToken == "at-from-a")
      #expect(storeA.spendClaimWaits == 0)
    }
  }

  @Test func waitingForALiveLeaseIsNoClaimWait() async throws {
    try await RedisFixture.with { server in
      let options = RedisSessionStore.Options(
        keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(30),
        leasePollInterval: .milliseconds(20))
      let storeA = try server.store(options)
      let storeB = try server.store(options)
      let key = SessionStoreContract.sampleSession().key
      let held = try await storeA.lockRefresh(for: key)
      let sentBefore = storeB.client.commandsSent
      let waiting = Task { try await storeB.lockRefresh(for: key) }
      defer { waiting.cancel() }
      // Three tries of B's lease script, each finding A's live lease (and A's claim beside it).
      try await WaitTimeout.yieldUntil("B to try three times") {
        storeB.client.commandsSent - sentBefore >= 3
      }
      #expect(storeB.spendClaimWaits == 0, "a live leader is waited for, not a lapsed one")
      await held.release()
      let taken = try await withDeadline(.seconds(30), "B's lease") { try await waiting.value }
      #expect(await taken.isHeld())
      await taken.release()
      #expect(storeB.spendClaimWaits == 0)
    }
  }

  @Test func aReleasedLeaseEndsItsClaimAndAnExpiredClaimStopsHoldingOff() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let storeA = try server.store(
        RedisSessionStore.Options(
          keyPrefix: prefix, leaseTimeToLive: .seconds(30), leasePollInterval: .milliseconds(20)))
      let storeB = try server.store(
        RedisSessionStore.Options(
          keyPrefix: prefix, leaseTimeToLive: .seconds(30), leasePollInterval: .milliseconds(20)))
      let key = SessionStoreContract.sampleSession().key
      let claimKey = storeA.keys.spendClaim(tag: RedisKeys.tag(for: key))

      // The claim comes with the intent; released, it goes with the lease, and B takes the
      // lease at once.
      let first = try await storeA.lockRefresh(for: key)
      #expect(try await storeA.client.send(["EXISTS", claimKey]) == .integer(0))
      try await first.recordIntent(toSpend: SpendIntent.digest(of: "rt-0"))
      #expect(try await storeA.client.send(["EXISTS", claimKey]) == .integer(1))
      await first.release()
      #expect(try await storeA.client.send(["EXISTS", claimKey]) == .integer(0))
      let byB = try await withDeadline(.seconds(30), "B's lease") {
        try await storeB.lockRefresh(for: key)
      }
      await byB.release()

      // A holder that vanished (lease and claim left to expire): once the claim is gone too,
      // B takes the lease.
      let vanished = try await storeA.lockRefresh(for: key)
      try await vanished.recordIntent(toSpend: SpendIntent.digest(of: "rt-1"))
      try await storeA.client.send(["DEL", storeA.keys.lease(tag: RedisKeys.tag(for: key))])
      let waiting = Task { try await storeB.lockRefresh(for: key) }
      try await WaitTimeout.yieldUntil("B to meet the claim") { storeB.spendClaimWaits >= 1 }
      try await storeA.client.send(["PEXPIRE", claimKey, "1"])
      let taken = try await withDeadline(.seconds(30), "B's lease once the claim expired") {
        try await waiting.value
      }
      #expect(await taken.isHeld())
      // The vanished holder's intent is what B finds: the token may be spent.
      #expect(await taken.interruptedIntent()?.refreshTokenDigest == SpendIntent.digest(of: "rt-1"))
      await taken.release()
      await vanished.release()
    }
  }
}
