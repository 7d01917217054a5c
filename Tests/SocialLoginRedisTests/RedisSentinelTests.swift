import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Redis Sentinel against real processes: a master, one replica and three sentinels on
/// loopback ports (``RedisTestSentinels``). The stores find the master through the sentinels,
/// follow it through failovers, and wait for a lease to reach the replica (`WAIT 1`) before a
/// refresh token is spent.
@Suite(.redisAvailable, .serialized, .timeLimit(.minutes(10))) struct RedisSentinelTests {
  func makeStore(
    _ deployment: RedisTestSentinels, prefix: String = uniquePrefix(),
    leaseTTL: Duration = .seconds(5)
  ) throws -> RedisSessionStore {
    RedisSessionStore(
      client: RedisClient(configuration: try deployment.configuration()),
      sealing: TestSealing.sealing,
      options: RedisSessionStore.Options(
        keyPrefix: prefix, leaseTimeToLive: leaseTTL, leasePollInterval: .milliseconds(100)))
  }

  @Test func theSentinelsNameTheMasterWhichIsCheckedAndWrittenTo() async throws {
    try await RedisTestSentinels.with { deployment in
      let master = try await deployment.waitUntilReady()
      let client = RedisClient(configuration: try deployment.configuration())
      defer { client.close() }
      try await client.send(["SET", "sentinel-key", "v"])
      #expect(client.pool.connector.master == .tcp(host: "127.0.0.1", port: master))
      #expect(await client.pool.connector.replicaCount(through: client.pool) == 1)
      // Written on the master, replicated to the replica.
      #expect(try await RedisTestSentinels.ask(master, ["GET", "sentinel-key"]).string == "v")
    }
  }

  /// `rediss-sentinel://`: sentinels and nodes on TLS ports only as far as the client sees
  /// (replication and the sentinels' own links over TLS too, so the sentinels name TLS ports).
  /// The store keeps its contract on the master found, follows a failover, and a CA that
  /// signed none of the certificates is a typed error, not a retry until the connect deadline.
  @Test(.enabled(if: TLSRedisServer.shouldRun, "redis-server was built without TLS"))
  func aTLSDeploymentIsVerifiedFoundAndFollowedThroughAFailover() async throws {
    try await RedisTestSentinels.with(tls: true) { deployment in
      let master = try await deployment.waitUntilReady()
      var configuration = try RedisConfiguration(url: deployment.url(), environment: [:])
      configuration.commandTimeout = .seconds(30)
      configuration.connectTimeout = .seconds(30)
      #expect(configuration.tls != nil && configuration.sentinel?.tls != nil)
      let expected = RedisConfiguration.Endpoint.tcp(
        host: "127.0.0.1", port: deployment.announcedPort(master))
      for check in SessionStoreContract.allCases {
        let store = RedisSessionStore(
          client: RedisClient(configuration: configuration), sealing: TestSealing.sealing,
          options: RedisSessionStore.Options(
            keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(120),
            leasePollInterval: .milliseconds(100)))
        defer { store.client.close() }
        try await check.run(on: store)
        #expect(store.client.pool.connector.master == expected)
      }

      let client = RedisClient(configuration: configuration)
      defer { client.close() }
      try await client.send(["SET", "tls-sentinel-key", "before"])
      let (_, promoted) = try await deployment.failOver()
      try await WaitTimeout.yieldUntil("a write on the promoted master", timeout: .seconds(60)) {
        guard (try? await client.send(["SET", "tls-sentinel-key", "after"])) != nil else {
          return false
        }
        return (try? await RedisTestSentinels.ask(promoted, ["GET", "tls-sentinel-key"]))?
          .string == "after"
      }
      #expect(
        client.pool.connector.master
          == .tcp(host: "127.0.0.1", port: deployment.announcedPort(promoted)))

      let certificates = try #require(deployment.tls).certificates
      var untrusted = try RedisConfiguration(
        url: deployment.url(ca: certificates.otherCA), environment: [:])
      untrusted.connectTimeout = .seconds(30)
      let refused = RedisClient(configuration: untrusted)
      defer { refused.close() }
      let error = await #expect(throws: RedisError.self) { try await refused.send(["PING"]) }
      #expect(error?.kind == .tlsUntrustedCertificate, "\(String(describing: error))")
    }
  }

  @Test func aSentinelAnsweringGarbageIsATypedError() async throws {
    // Answers the handshake's PING, then garbage to get-master-addr-by-name.
    for garbage in ["*1\r\n$1\r\nx\r\n", ":12\r\n", "*2\r\n$1\r\nh\r\n$5\r\n99999\r\n", "%%%\r\n"] {
      let fake = try FakeRedisServer(replies: ["+PONG\r\n", garbage], closeAfterReplies: true)
      var configuration = try RedisConfiguration(
        url: "redis-sentinel://127.0.0.1:\(fake.port)#m", environment: [:])
      configuration.connectTimeout = .milliseconds(300)
      configuration.connectAttempts = 1
      let client = RedisClient(configuration: configuration)
      defer { client.close() }
      let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
      #expect(
        error?.kind == .connectionFailed,
        "\(garbage.debugDescription): \(String(describing: error))")
    }
  }

  @Test func aStoreOnTheSentinelsKeepsTheContract() async throws {
    try await RedisTestSentinels.with { deployment in
      for check in SessionStoreContract.allCases {
        let store = try makeStore(deployment, leaseTTL: .seconds(120))
        defer { store.client.close() }
        try await check.run(on: store)
      }
    }
  }

  @Test func aLeaseWaitsForTheReplicaOnlyWhereThereIsOne() async throws {
    // No replica: WAIT is never sent (it would block its whole timeout).
    try await RedisFixture.withOwn { server in
      let store = try server.store(RedisSessionStore.Options(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      let lease = try await store.lockRefresh(for: SessionKey(provider: .twitter, subject: "a"))
      await lease.release()
      _ = try await store.lockRefresh(
        for: SessionKey(provider: .twitter, subject: "b"), unlessNewerThan: 0)
      let stats = try await store.client.send(["INFO", "commandstats"]).string ?? ""
      #expect(!stats.contains("cmdstat_wait:"), "\(stats)")
      #expect(store.leaseReplicationConfirmations == 0 && store.leaseReplicationTimeouts == 0)
    }
    // A replica: both forms of the lease wait for it, on the lease's own connection.
    try await RedisTestSentinels.with { deployment in
      let store = try makeStore(deployment)
      defer { store.client.close() }
      let lease = try await store.lockRefresh(for: SessionKey(provider: .twitter, subject: "a"))
      await lease.release()
      _ = try await store.lockRefresh(
        for: SessionKey(provider: .twitter, subject: "b"), unlessNewerThan: 0)
      #expect(store.leaseReplicationConfirmations == 2)
      #expect(store.leaseReplicationTimeouts == 0)
    }
  }

  /// Three X sessions refreshing, their provider calls held, when the master is killed: the
  /// store follows the replica the sentinels promote, and every session is stored with the
  /// tokens its refresh returned, each refresh token spent exactly once.
  @Test func theMasterKilledWhileRefreshesAreInFlightLosesNoSession() async throws {
    try await RedisTestSentinels.with { deployment in
      try await ProviderEmulator.run { emulator in
        let x = try Self.xProvider(emulator, clock: SystemAuthClock())
        let store = try makeStore(deployment)
        defer { store.client.close() }
        let initial = try await Self.seed(emulator, x: x, into: store, expired: true)
        // No proactive refresh: restored sessions that are already due would otherwise start
        // refreshing at once, and could reach the provider before the held fault is injected
        // (then no refresh is held when the master is killed; one CI run in many did this).
        let client = try LoginClient(
          providers: [x], store: store, policy: RefreshPolicy(proactiveMargin: nil))
        _ = try await client.restoreSessions()
        emulator.clearRequests()
        emulator.inject(
          EmulatorFault(
            provider: .twitter, endpoint: "token", latencyMilliseconds: 1500,
            count: initial.count))
        let oldMaster = try await deployment.waitUntilReady()
        var tokens: [SessionKey: String] = [:]
        try await withThrowingTaskGroup(of: (SessionKey, String).self) { group in
          for stored in initial {
            let session = try #require(client.session(for: stored.key))
            group.addTask { (stored.key, try await session.freshAccessToken()) }
          }
          try await waitFor { emulator.faults.isEmpty }  // every refresh is held
          deployment.node(port: oldMaster)?.stop()
          for try await (key, token) in group { tokens[key] = token }
        }
        for stored in initial {
          let now = try #require(try await store.load(stored.key))
          #expect(now.credential.accessToken.revealed == tokens[stored.key])
          #expect(now.version > stored.version)
          #expect(now.credential.refreshToken != stored.credential.refreshToken)
        }
        let statuses = emulator.requests(
          to: .twitter, endpoint: "token", grantType: "refresh_token"
        ).map(\.status)
        #expect(statuses == Array(repeating: 200, count: initial.count))
        #expect(store.client.pool.connector.master != .tcp(host: "127.0.0.1", port: oldMaster))
        #expect(store.leaseReplicationConfirmations == initial.count)
      }
    }
  }

  /// The failover measurement: two replicas of a service (two stores, one prefix) refresh the
  /// same three due X sessions (single-use, rotating refresh tokens) while `SENTINEL FAILOVER`
  /// moves the master, N times (`SOCIALLOGIN_SENTINEL_FAILOVERS`, default 3), on nodes with
  /// `min-replicas-to-write 1`. Printed: provider refreshes per due session, rejected second
  /// spends, sessions lost, and what the leases' `WAIT 1` answered.
  ///
  /// Asserted: every round ends (no hang, every caller answered), exactly one refresh per due
  /// session, no rotated token spent twice, no session lost, and every session stored with the
  /// token both replicas hold. With one replica and `min-replicas-to-write 1` the new master
  /// refuses writes until the old one has resynchronised as its replica (10–16 s here), longer
  /// than the leases' 5 s: leases lapse mid-refresh, and what keeps the other replica from
  /// spending the token the leader already spent is the lease's spend claim (and the leader
  /// keeping its lease and tokens while its write is refused). Before them, about one round in
  /// three lost a session this way.
  @Test func failoversDuringRefreshesAreCountedAndBounded() async throws {
    let rounds =
      Int(ProcessInfo.processInfo.environment["SOCIALLOGIN_SENTINEL_FAILOVERS"] ?? "") ?? 3
    try await RedisTestSentinels.with(refusingUnreplicatedWrites: true) { deployment in
      let clock = ManualClock(wallTime: Date())
      try await ProviderEmulator.run(clock: clock) { emulator in
        let x = try Self.xProvider(emulator, clock: clock)
        let prefix = uniquePrefix()
        let stores = try [
          makeStore(deployment, prefix: prefix), makeStore(deployment, prefix: prefix),
        ]
        defer { for store in stores { store.client.close() } }
        var live = try await Self.seed(emulator, x: x, into: stores[0], expired: false).map(\.key)
        // How often each store's change feed was cut: once or twice per failover, not at every
        // write the new master refuses while its replica resynchronises.
        let cuts = Locked(0)
        let counting = stores.compactMap { $0.changes() }.map { feed in
          Task {
            for await change in feed {
              if case .interrupted = change { cuts.withLock { $0 += 1 } }
            }
          }
        }
        defer { for task in counting { task.cancel() } }
        var replicas: [LoginClient] = []
        for store in stores {
          let client = try LoginClient(providers: [x], store: store, clock: clock)
          _ = try await client.restoreSessions()
          replicas.append(client)
        }
        var due = 0
        var refreshes = 0
        var rejected = 0
        var lost = 0
        for round in 1...rounds where !live.isEmpty {
          emulator.clearRequests()
          emulator.inject(
            EmulatorFault(
              provider: .twitter, endpoint: "token", latencyMilliseconds: 300,
              count: 2 * live.count))
          clock.advance(by: .seconds(2 * 3600 + 60))
          let failover = Task { try await deployment.failOver() }
          let sessions = replicas.flatMap { replica in live.compactMap { replica.session(for: $0) }
          }
          await withTaskGroup(of: Void.self) { group in
            for session in sessions {
              for _ in 0..<5 { group.addTask { _ = try? await session.freshAccessToken() } }
            }
          }
          let switched = try await failover.value
          let statuses = emulator.requests(
            to: .twitter, endpoint: "token", grantType: "refresh_token"
          ).map(\.status)
          let succeeded = statuses.filter { $0 == 200 }.count
          #expect(succeeded <= 2 * live.count, "round \(round): \(statuses)")
          due += live.count
          refreshes += succeeded
          rejected += statuses.count - succeeded
          for key in live {
            let stored = try await stores[0].load(key)
            var held: [String?] = []
            for replica in replicas {
              held.append(await replica.session(for: key)?.credential?.accessToken.revealed)
            }
            guard let stored, held.allSatisfy({ $0 != nil }) else {
              lost += 1
              live.removeAll { $0 == key }
              continue
            }
            #expect(
              held.allSatisfy { $0 == stored.credential.accessToken.revealed },
              "round \(round): both replicas hold the stored token")
          }
          print(
            "sentinel failover round \(round): master \(switched.old) -> \(switched.new), "
              + "provider refreshes \(statuses)")
        }
        let confirmed = stores.map(\.leaseReplicationConfirmations).reduce(0, +)
        let timedOut = stores.map(\.leaseReplicationTimeouts).reduce(0, +)
        let claimWaits = stores.map(\.spendClaimWaits).reduce(0, +)
        print(
          "sentinel failover figure: \(rounds) failovers, \(due) due sessions: \(refreshes) "
            + "provider refreshes (\(Double(refreshes) / Double(max(due, 1))) per due session), "
            + "\(rejected) rejected second spends, \(lost) sessions lost; WAIT 1 confirmed "
            + "\(confirmed), timed out \(timedOut); lease attempts held off by a spend claim "
            + "\(claimWaits); change feeds cut \(cuts.withLock { $0 }) times")
        #expect(lost == 0, "no session lost across \(rounds) failovers")
        #expect(cuts.withLock { $0 } <= 4 * rounds * stores.count, "the feeds do not flap")
        #expect(rejected == 0, "no refresh token spent twice")
        #expect(refreshes == due, "every due session was refreshed once")
      }
    }
  }

  static func xProvider(_ emulator: ProviderEmulator, clock: any AuthClock) throws -> XProvider {
    XProvider(
      configuration: try .init(
        clientID: EmulatorApps.twitterClientID,
        clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
        environment: [:]),
      clock: clock)
  }

  /// One real X login per emulated user, stored in `store` (already expired when `expired`).
  static func seed(
    _ emulator: ProviderEmulator, x: XProvider, into store: RedisSessionStore, expired: Bool
  ) async throws -> [StoredSession] {
    var stored: [StoredSession] = []
    for user in emulator.users {
      emulator.setCurrentUser(user.id)
      let client = try LoginClient(providers: [x], store: InMemorySessionStore())
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      var credential = try #require(await session.credential)
      if expired { credential.expiresAt = Date().addingTimeInterval(-60) }
      stored.append(
        try await store.save(
          StoredSession(
            key: session.key, credential: credential, identity: await session.identity),
          expectedVersion: nil))
    }
    return stored
  }
}
