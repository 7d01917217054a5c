import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// The store on a real Redis Cluster of three masters and three replicas (``RedisTestCluster``,
/// shared by these tests, which run one after another: one of them fails a master over).
@Suite(redisClusterAvailable, .serialized, .timeLimit(.minutes(5))) struct RedisClusterTests {
  func makeStore(_ cluster: RedisTestCluster, leaseTTL: Duration = .seconds(10))
    throws -> RedisSessionStore
  {
    try cluster.store(
      RedisSessionStore.Options(
        keyPrefix: uniquePrefix(), leaseTimeToLive: leaseTTL,
        leasePollInterval: .milliseconds(50)))
  }

  @Test(arguments: SessionStoreContract.allCases)
  func clusterStoreKeepsTheContract(check: SessionStoreContract) async throws {
    let cluster = try await RedisTestCluster.get()
    let store = try makeStore(cluster, leaseTTL: .seconds(120))
    defer { store.client.close() }
    try await check.run(on: store)
    #expect(store.client.isCluster)
  }

  /// A `rediss://` cluster (bus and replication over TLS too) whose nodes announce `127.0.0.1`
  /// but present a certificate for `localhost` only: with the URL naming `localhost`, every
  /// node is verified against that name, and the store keeps its contract; a node reached by
  /// its address alone fails verification (so the name carried over, and nothing was skipped).
  @Test(.enabled(if: TLSRedisServer.shouldRun, "redis-server was built without TLS"))
  func aTLSClusterVerifiesNodesAnnouncedByAddressAgainstTheURLsName() async throws {
    let host = "localhost"
    let cluster = try await RedisTestCluster.getTLS()
    let named = try #require(cluster.tlsURL(host: host))
    // By default a URL naming `localhost` allows only `localhost`: the nodes' addresses are
    // refused before anything is sent to them.
    let strict = try RedisClient(url: named)
    defer { strict.close() }
    let refused = await #expect(throws: RedisError.self) { try await strict.send(["PING"]) }
    #expect(refused?.kind == .topologyOutsidePattern, "\(String(describing: refused))")
    #expect(refused?.message.contains("127.0.0.1") == true)
    // The nodes announce addresses: the URL allows them.
    let url = named + "&tls-host=ip"
    var configuration = try RedisConfiguration(url: url, environment: [:])
    configuration.commandTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(30)
    let client = RedisClient(configuration: configuration)
    defer { client.close() }
    for check in SessionStoreContract.allCases {
      // A prefix per check: the checks reuse session keys.
      let store = RedisSessionStore(
        client: client, sealing: TestSealing.sealing,
        options: RedisSessionStore.Options(
          keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(120),
          leasePollInterval: .milliseconds(50)))
      try await check.run(on: store)
    }
    let map = try #require(client.topology.cluster).map
    #expect(map.masters.count == 3)
    #expect(Set(map.masters) == Set(cluster.tlsPorts.map { .tcp(host: "127.0.0.1", port: $0) }))
    let byAddress = try RedisClient(url: try #require(cluster.tlsURL(host: "127.0.0.1")))
    defer { byAddress.close() }
    let error = await #expect(throws: RedisError.self) { try await byAddress.send(["PING"]) }
    #expect(error?.kind == .tlsHostNameMismatch)
  }

  @Test func aPipelineAcrossSlotsIsSplitByNodeAndKeepsItsOrder() async throws {
    let cluster = try await RedisTestCluster.get()
    let client = try RedisClient(url: cluster.url)
    defer { client.close() }
    let prefix = uniquePrefix()
    let keys = (0..<60).map { "\(prefix):k\($0)" }
    var commands: [RedisCommand] = []
    for (index, key) in keys.enumerated() {
      commands.append(["SET", key, "v\(index)"])
      commands.append(["GET", key])
    }
    let replies = try await client.pipeline(commands)
    #expect(client.isCluster)
    for (index, _) in keys.enumerated() {
      #expect(replies[2 * index] == .simpleString("OK"))
      #expect(replies[2 * index + 1].string == "v\(index)")
    }
    let cluster3 = try #require(client.topology.cluster)
    #expect(Set(keys.compactMap { cluster3.endpoint(for: HashSlot.slot(of: $0)) }).count == 3)
    // Our slots are the server's.
    for key in keys.prefix(10) {
      let slot = try await client.send(["CLUSTER", "KEYSLOT", key]).integer
      #expect(slot == Int64(HashSlot.slot(of: key)), "\(key)")
    }
  }

  @Test func aURLNamingAReplicaWorksToo() async throws {
    let cluster = try await RedisTestCluster.get()
    let (_, replica) = try cluster.masterAndReplica(of: 0)
    let client = try RedisClient(url: "redis://127.0.0.1:\(replica)")
    defer { client.close() }
    let key = "\(uniquePrefix()):replica"
    try await client.send(["SET", key, "1"])
    #expect(try await client.send(["GET", key]).string == "1")
  }

  /// A slot in migration: a key the source no longer has gets `ASK`, and the client sends
  /// `ASKING` and the command to the importing node, without changing its map; once the slot
  /// is moved for good, `MOVED` updates the map.
  @Test func aMigratingSlotIsFollowedWithAskingAndThenMoved() async throws {
    let cluster = try await RedisTestCluster.get()
    let client = try RedisClient(url: cluster.url)
    defer { client.close() }
    _ = try await client.send(["PING"])
    let map = try #require(client.topology.cluster).map
    // A key whose slot holds no key yet (moving a slot needs its keys moved too).
    let prefix = uniquePrefix()
    var key = ""
    var source: UInt16 = 0
    for index in 0..<1000 {
      let candidate = "\(prefix):ask\(index)"
      let slot = HashSlot.slot(of: candidate)
      guard case .tcp(_, let port) = try #require(map.master(for: slot)) else { continue }
      if try cluster.ask(port, ["CLUSTER", "COUNTKEYSINSLOT", String(slot)]).integer == 0 {
        key = candidate
        source = port
        break
      }
    }
    let slot = String(HashSlot.slot(of: key))
    let masters = try cluster.ports.filter {
      try cluster.ask($0, ["ROLE"]).elements?.first?.string == "master"
    }
    let target = try #require(masters.first { $0 != source })
    let sourceID = try #require(try cluster.ask(source, ["CLUSTER", "MYID"]).string)
    let targetID = try #require(try cluster.ask(target, ["CLUSTER", "MYID"]).string)
    _ = try cluster.ask(target, ["CLUSTER", "SETSLOT", slot, "IMPORTING", sourceID])
    _ = try cluster.ask(source, ["CLUSTER", "SETSLOT", slot, "MIGRATING", targetID])

    try await client.send(["SET", key, "moved-in"])
    #expect(try await client.send(["GET", key]).string == "moved-in")
    guard case .error(let redirect) = try cluster.ask(source, ["GET", key]) else {
      Issue.record("the source still has the key")
      return
    }
    #expect(redirect.hasPrefix("ASK "), "the key went to the importing node")
    #expect(
      try #require(client.topology.cluster).map.master(for: HashSlot.slot(of: key))
        == .tcp(host: "127.0.0.1", port: source), "ASK leaves the map alone")

    for port in masters {
      _ = try cluster.ask(port, ["CLUSTER", "SETSLOT", slot, "NODE", targetID])
    }
    try await cluster.waitUntilSettled()
    #expect(try await client.send(["GET", key]).string == "moved-in")
    #expect(
      try #require(client.topology.cluster).map.master(for: HashSlot.slot(of: key))
        == .tcp(host: "127.0.0.1", port: target), "MOVED updated the map")
  }

  @Test func fourProcessesOf250CallersSpendExactlyOneRefresh() async throws {
    let cluster = try await RedisTestCluster.get()
    let replicas = ReplicaProcessTests()
    try await replicas.withFixture(url: cluster.url) { fixture in
      fixture.emulator.inject(
        EmulatorFault(provider: .twitter, endpoint: "token", latencyMilliseconds: 50, count: 1))
      let workers = try fixture.workers(leaseMilliseconds: 5000)
      try await replicas.start(workers)
      var outcomes: [String: Int] = [:]
      for worker in workers {
        for (outcome, count) in try await worker.result().outcomes {
          outcomes[outcome, default: 0] += count
        }
      }
      let stored = try #require(try await fixture.stored)
      #expect(
        outcomes
          == ["token:" + stored.credential.accessToken.revealed: 4 * ReplicaProcessTests.callers])
      #expect(fixture.refreshStatuses == [200], "exactly one refresh reached the provider")
      #expect(workers.filter { $0.hasLine("leading") }.count == 1)
      #expect(stored.credential.refreshToken != fixture.initial.credential.refreshToken)
      #expect(fixture.store.client.isCluster)
    }
  }

  /// Sessions refresh over and over (X-like rotating tokens, a token server each) while the
  /// master of the first one's slot is failed over to its replica. Every refresh either
  /// succeeds or degrades the session (kept tokens, retried); none signs it out, and afterwards
  /// every session loads with the refresh token its server issued last.
  @Test func aMasterFailedOverMidRunLosesNoSession() async throws {
    let cluster = try await RedisTestCluster.get()
    let store = try makeStore(cluster)
    defer { store.client.close() }
    struct Runner {
      let tokens: RotatingTokenServer
      let session: SessionActor
      let clock: ManualClock
      let key: SessionKey
    }
    var runners: [Runner] = []
    for index in 0..<6 {
      let tokens = try RotatingTokenServer()
      let record = try await store.save(
        expiredSession(subject: "failover-\(index)"), expectedVersion: nil)
      let clock = ManualClock(wallTime: Date())
      let session = SessionActor(
        record: record,
        provider: RefreshOnlyProvider(id: .twitter, tokenEndpoint: tokens.tokenEndpoint),
        store: store, clock: clock,
        policy: RefreshPolicy(
          proactiveMargin: nil,
          backoff: BackoffPolicy(baseDelay: .milliseconds(100), jitter: .none)))
      runners.append(Runner(tokens: tokens, session: session, clock: clock, key: record.key))
    }
    let all = runners
    defer { for runner in all { runner.tokens.close() } }
    let slot = HashSlot.slot(of: store.keys.session(tag: RedisKeys.tag(for: runners[0].key)))
    let (master, replica) = try cluster.masterAndReplica(of: slot)

    let stop = Locked(false)
    let degraded = Locked(0)
    let signedOut = Locked([String]())
    try await withThrowingTaskGroup(of: Void.self) { group in
      for runner in all {
        group.addTask {
          // Until 5 rounds after the failover; bounded by a deadline.
          var roundsAfter = 0
          let deadline = ContinuousClock.now + RedisTestCluster.deadline
          while roundsAfter < 5, ContinuousClock.now < deadline {
            if stop.withLock({ $0 }) { roundsAfter += 1 }
            runner.clock.advance(by: .seconds(7200))
            do {
              _ = try await runner.session.freshAccessToken()
            } catch let error as AuthError where error.code == .signedOut {
              signedOut.withLock { $0.append("\(error)") }
              return
            } catch {
              degraded.withLock { $0 += 1 }
            }
          }
        }
      }
      group.addTask {
        // Let the refreshes run first, then move the slot's master.
        try await waitFor { all.allSatisfy { $0.tokens.spent >= 3 } }
        try await cluster.failOver(to: replica)
        stop.withLock { $0 = true }
      }
      try await group.waitForAll()
    }
    #expect(signedOut.withLock { $0 }.isEmpty, "no session signed out")
    #expect(try cluster.masterAndReplica(of: slot).master == replica, "the slot moved")
    #expect(master != replica)
    let refreshes = try #require(store.client.topology.cluster).refreshCount
    #expect(refreshes >= 1, "the client was redirected and read the map again")
    // Everything settled: each session's last tokens are stored, none is lost.
    for runner in all {
      runner.clock.advance(by: .seconds(7200))
      _ = try await runner.session.freshAccessToken()
      let stored = try #require(try await store.load(runner.key))
      #expect(stored.credential.refreshToken?.revealed == "rt-\(runner.tokens.spent)")
      #expect(runner.session.currentState == .signedIn)
    }
    print("failover: \(degraded.withLock { $0 }) degraded calls, \(refreshes) map refreshes")
  }
}
