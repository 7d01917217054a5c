import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// A Redis Cluster of three masters and three replicas on loopback, started once per test
/// process (six servers starting per test would not fit two cores) and shared by the cluster
/// tests, which use unique key prefixes. Each server is a `RedisTestServer` with
/// `--cluster-enabled yes`, which never outlives the test process; `redis-cli --cluster create`
/// assigns the slots.
final class RedisTestCluster: Sendable {
  let nodes: [RedisTestServer]
  /// Each node's TLS port (`--tls-port`, `--tls-cluster yes`) in a TLS cluster.
  let tlsPorts: [UInt16]
  let certificates: TLSTestCertificates?

  private init(nodes: [RedisTestServer], tlsPorts: [UInt16], certificates: TLSTestCertificates?) {
    self.nodes = nodes
    self.tlsPorts = tlsPorts
    self.certificates = certificates
  }

  var ports: [UInt16] { nodes.map(\.port) }
  /// `redis://127.0.0.1:PORT` of the first node (a URL naming any node works).
  var url: String { "redis://127.0.0.1:\(ports[0])" }

  /// `rediss://HOST:TLSPORT?ca=...` of the first node of a TLS cluster.
  func tlsURL(host: String) -> String? {
    guard let certificates, let port = tlsPorts.first else { return nil }
    return "rediss://\(host):\(port)?ca=\(certificates.ca)"
  }

  /// How long creating the cluster and a failover may take: hang guards, not speed checks.
  static let deadline = Duration.seconds(90)

  static let cliExecutable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return (path.split(separator: ":").map(String.init) + ["/usr/bin"]).map { $0 + "/redis-cli" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  private static let shared = Shared(tls: false)
  private static let sharedTLS = Shared(tls: true)

  /// The process's cluster, created on first use.
  static func get() async throws -> RedisTestCluster { try await shared.cluster() }

  /// The process's TLS cluster (three masters, no replicas), created on first use. Its nodes
  /// present a certificate for `localhost` only, and announce `127.0.0.1`.
  static func getTLS() async throws -> RedisTestCluster { try await sharedTLS.cluster() }

  private actor Shared {
    let tls: Bool
    private var started: Task<RedisTestCluster, any Error>?

    init(tls: Bool) { self.tls = tls }

    func cluster() async throws -> RedisTestCluster {
      if let started { return try await started.value }
      let tls = self.tls
      let task = Task {
        tls
          ? try await RedisTestCluster.create(count: 3, replicas: 0, tls: true)
          : try await RedisTestCluster.create(count: 6, replicas: 1, tls: false)
      }
      started = task
      return try await task.value
    }
  }

  private static func create(count: Int, replicas: Int, tls: Bool) async throws
    -> RedisTestCluster
  {
    guard let cli = cliExecutable else {
      throw RedisTestError("redis-cli is not installed (apt-get install redis-tools)")
    }
    let certificates = tls ? try TLSTestCertificates.get() : nil
    var nodes: [RedisTestServer] = []
    var tlsPorts: [UInt16] = []
    for _ in 0..<count {
      // The cluster bus gets a free port of its own: by default it is the port + 10000, which
      // for a port above 55535 does not exist (redis-server then refuses to start).
      var attempt = 0
      while true {
        do {
          var arguments = [
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", "5000",
            "--cluster-port", String(try RedisTestServer.freePort()),
          ]
          var tlsPort: UInt16?
          if let certificates {
            let port = try RedisTestServer.freePort()
            tlsPort = port
            // The bus and replication over TLS too; TLS clients are told the TLS ports.
            arguments += TLSRedisServer.arguments(
              port: port, pair: certificates.localhostOnly, ca: certificates.ca,
              authClients: false)
            arguments += ["--tls-cluster", "yes", "--tls-replication", "yes"]
          }
          nodes.append(try await RedisTestServer.start(arguments: arguments))
          if let tlsPort { tlsPorts.append(tlsPort) }
          break
        } catch let error as RedisTestServerError where error.addressInUse && attempt < 5 {
          attempt += 1
        }
      }
    }
    let cluster = RedisTestCluster(nodes: nodes, tlsPorts: tlsPorts, certificates: certificates)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cli)
    process.arguments =
      ["--cluster", "create"] + cluster.ports.map { "127.0.0.1:\($0)" }
      + ["--cluster-replicas", String(replicas), "--cluster-yes"]
    let log = nodes[0].directory.appendingPathComponent("cluster-create.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let output = try FileHandle(forWritingTo: log)
    defer { try? output.close() }
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let deadline = ContinuousClock.now + Self.deadline
    while process.isRunning {
      guard ContinuousClock.now < deadline else {
        process.terminate()
        throw RedisTestError("redis-cli --cluster create did not finish within \(Self.deadline)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    guard process.terminationStatus == 0 else {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw RedisTestError(
        "redis-cli --cluster create failed (\(process.terminationStatus)): \(text.suffix(600))")
    }
    try await cluster.waitUntilSettled(replicas: replicas > 0)
    return cluster
  }

  /// A direct connection's reply from the node on `port` (not routed: admin commands).
  func ask(_ port: UInt16, _ command: RedisCommand) throws -> RESPValue {
    let configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(port)", environment: [:])
    let connection = try RedisConnection.open(configuration, deadline: .now + .seconds(10))
    defer { connection.close() }
    return try connection.execute([command], deadline: .now + .seconds(10))[0]
  }

  /// Waits until every node says `cluster_state:ok`, all give the same masters for the 16384
  /// slots, and every master has its replica.
  func waitUntilSettled(replicas: Bool = true) async throws {
    let deadline = ContinuousClock.now + Self.deadline
    while true {
      if (try? isSettled(replicas: replicas)) == true { return }
      guard ContinuousClock.now < deadline else {
        throw RedisTestError("the cluster did not settle within \(Self.deadline)")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  private func isSettled(replicas: Bool) throws -> Bool {
    var first: ClusterSlotMap?
    for port in ports {
      guard try ask(port, ["CLUSTER", "INFO"]).string?.contains("cluster_state:ok") == true
      else { return false }
      let reply = try ask(port, ["CLUSTER", "SLOTS"])
      guard !replicas || (reply.elements ?? []).allSatisfy({ ($0.elements?.count ?? 0) >= 4 })
      else {
        return false
      }
      let map = try ClusterSlotMap.parse(slots: reply, askedHost: "127.0.0.1")
      guard map.assignedSlots == HashSlot.count else { return false }
      if let first, !Self.sameOwners(first, map) { return false }
      first = first ?? map
    }
    return true
  }

  private static func sameOwners(_ a: ClusterSlotMap, _ b: ClusterSlotMap) -> Bool {
    (0..<UInt16(HashSlot.count)).allSatisfy { a.master(for: $0) == b.master(for: $0) }
  }

  /// The port of the master serving `slot` and of one of its replicas, as the first node sees
  /// it.
  func masterAndReplica(of slot: UInt16) throws -> (master: UInt16, replica: UInt16) {
    let reply = try ask(ports[0], ["CLUSTER", "SLOTS"])
    for range in reply.elements ?? [] {
      guard let parts = range.elements, parts.count >= 4,
        let start = parts[0].integer, let end = parts[1].integer,
        (start...end).contains(Int64(slot)),
        let master = parts[2].elements?[1].integer, let replica = parts[3].elements?[1].integer
      else { continue }
      return (UInt16(master), UInt16(replica))
    }
    throw RedisTestError("no master with a replica serves slot \(slot)")
  }

  /// `CLUSTER FAILOVER` on `replica`, then waits until it is a master and the cluster settled.
  func failOver(to replica: UInt16) async throws {
    _ = try ask(replica, ["CLUSTER", "FAILOVER"])
    let deadline = ContinuousClock.now + Self.deadline
    while try ask(replica, ["ROLE"]).elements?.first?.string != "master" {
      guard ContinuousClock.now < deadline else {
        throw RedisTestError("the failover to \(replica) did not happen within \(Self.deadline)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    try await waitUntilSettled()
  }

  /// A session store on the cluster whose commands may wait 30 s (a hang guard on a loaded
  /// machine, as ``RedisFixture/store(_:)``).
  func store(
    _ options: RedisSessionStore.Options, sealing: RecordSealing = TestSealing.sealing
  ) throws -> RedisSessionStore {
    var configuration = try RedisConfiguration(url: url, environment: [:])
    configuration.commandTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(30)
    return RedisSessionStore(
      client: RedisClient(configuration: configuration), sealing: sealing,
      options: options)
  }

  /// Whether the cluster tests run: redis-server and redis-cli are installed, or CI requires
  /// them (and will fail).
  static var shouldRun: Bool {
    (RedisTestServer.executable() != nil && cliExecutable != nil) || RedisTestServer.isRequired()
  }
}

/// The trait of every suite that needs a Redis Cluster.
let redisClusterAvailable = ConditionTrait.enabled(
  if: RedisTestCluster.shouldRun,
  "redis-server or redis-cli is not installed; apt-get install redis-server redis-tools")
