import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A Redis Sentinel deployment for a test, all on free loopback ports: a master, one replica
/// (`--replicaof`) and three sentinels (`sentinel monitor m 127.0.0.1 PORT 2`, a master down
/// after 500 ms). The master and replica are `RedisTestServer`s, which die with the test
/// process; the sentinels are watched by a shell that kills them when the test process's end
/// of a pipe closes. All are stopped when the test ends.
///
/// Without redis-server (which runs sentinels with `--sentinel`) the suite is skipped, unless
/// `CI` is set: then it fails (`RedisTestServer.isRequired()`).
final class RedisTestSentinels: @unchecked Sendable {
  // The processes are started in `with` and stopped in sequence by the owning test.
  static let masterName = "m"
  let nodes: [RedisTestServer]
  let sentinels: [SentinelProcess]
  /// With TLS: each node's TLS port (nodes replicate, and sentinels reach them, over it), by
  /// its plaintext port, and the certificates.
  let tls: (ports: [UInt16: UInt16], certificates: TLSTestCertificates)?

  private init(
    nodes: [RedisTestServer], sentinels: [SentinelProcess],
    tls: (ports: [UInt16: UInt16], certificates: TLSTestCertificates)? = nil
  ) {
    self.nodes = nodes
    self.sentinels = sentinels
    self.tls = tls
  }

  /// `redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/db#m`, or with TLS
  /// `rediss-sentinel://` on the sentinels' TLS ports with `?ca=` (`ca`: another CA file).
  func url(database: Int = 0, ca: String? = nil) -> String {
    guard let tls else {
      return "redis-sentinel://" + sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
        + (database == 0 ? "" : "/\(database)") + "#\(Self.masterName)"
    }
    return "rediss-sentinel://"
      + sentinels.compactMap { $0.tlsPort.map { "127.0.0.1:\($0)" } }.joined(separator: ",")
      + (database == 0 ? "" : "/\(database)") + "?ca=\(ca ?? tls.certificates.ca)"
      + "#\(Self.masterName)"
  }

  /// The plaintext port of the node the sentinels name by `announced` (its TLS port, with TLS).
  func plainPort(_ announced: UInt16) -> UInt16 {
    tls?.ports.first { $0.value == announced }?.key ?? announced
  }

  /// The port the sentinels name for the node listening in plaintext on `port`.
  func announcedPort(_ port: UInt16) -> UInt16 { tls?.ports[port] ?? port }

  /// A configuration on the deployment whose commands and connects may wait 30 s: long enough
  /// to ride through a failover (a hang guard, not a speed check).
  func configuration(database: Int = 0) throws -> RedisConfiguration {
    var configuration = try RedisConfiguration(url: url(database: database), environment: [:])
    configuration.commandTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(30)
    return configuration
  }

  /// Runs `body` with a fresh deployment, stopping every process afterwards.
  ///
  /// - Parameter refusingUnreplicatedWrites: Sets `min-replicas-to-write 1` on both nodes, as
  ///   ManyReplicas.md asks of a deployment: a master cut off from its replicas (the old one,
  ///   while a failover promotes the other) refuses writes instead of losing them. With one
  ///   replica that also stops writes once a node is gone for good, so a test that kills the
  ///   master leaves it off.
  /// - Parameter tls: Every process also listens on a TLS port with the test certificates
  ///   (`TLSTestCertificates.server`), replicas and sentinels reach the nodes over TLS
  ///   (`tls-replication yes`, so the sentinels name TLS ports), and ``url(database:ca:)`` is
  ///   a `rediss-sentinel://` URL. The plaintext ports stay for the test's own questions.
  static func with<T>(
    refusingUnreplicatedWrites: Bool = false, tls: Bool = false,
    _ body: (RedisTestSentinels) async throws -> T
  ) async throws -> T {
    let safety =
      refusingUnreplicatedWrites
      ? ["--min-replicas-to-write", "1", "--min-replicas-max-lag", "10"] : []
    let certificates = tls ? try TLSTestCertificates.get() : nil
    func tlsArguments(_ port: UInt16) -> [String] {
      guard let certificates else { return [] }
      return TLSRedisServer.arguments(
        port: port, pair: certificates.server, ca: certificates.ca, authClients: false)
        + ["--tls-replication", "yes"]
    }
    let masterTLS = try RedisTestServer.freePort()
    let master = try await RedisTestServer.start(arguments: safety + tlsArguments(masterTLS))
    defer { master.stop() }
    let replicaTLS = try RedisTestServer.freePort()
    let replica = try await RedisTestServer.start(
      arguments: safety + tlsArguments(replicaTLS)
        + ["--replicaof", "127.0.0.1", String(tls ? masterTLS : master.port)])
    defer { replica.stop() }
    var sentinels: [SentinelProcess] = []
    defer { for sentinel in sentinels { sentinel.shutdown() } }
    for _ in 0..<3 {
      sentinels.append(
        try await SentinelProcess(
          monitoring: tls ? masterTLS : master.port, certificates: certificates))
    }
    let deployment = RedisTestSentinels(
      nodes: [master, replica], sentinels: sentinels,
      tls: certificates.map {
        ([master.port: masterTLS, replica.port: replicaTLS], $0)
      })
    try await deployment.waitUntilReady()
    return try await body(deployment)
  }

  /// A plain client to one node or sentinel (port), for the test's own questions.
  static func ask(_ port: UInt16, _ command: RedisCommand) async throws -> RESPValue {
    var configuration = RedisConfiguration(endpoint: .tcp(host: "127.0.0.1", port: port))
    configuration.commandTimeout = .seconds(10)
    let client = RedisClient(configuration: configuration)
    defer { client.close() }
    return try await client.send(command)
  }

  /// The master the sentinels agree on (every one names it), and whether it has a replica
  /// connected and every sentinel sees a replica and the two other sentinels.
  func agreedMaster() async -> UInt16? {
    var ports: Set<UInt16> = []
    for sentinel in sentinels {
      guard
        let reply = try? await Self.ask(
          sentinel.port, ["SENTINEL", "get-master-addr-by-name", Self.masterName]),
        case .tcp(_, let port)? = try? SentinelReplies.masterAddress(reply),
        let replicas = try? await Self.ask(
          sentinel.port, ["SENTINEL", "replicas", Self.masterName]),
        let others = try? await Self.ask(
          sentinel.port, ["SENTINEL", "sentinels", Self.masterName]),
        others.elements?.count == 2,
        (replicas.elements ?? []).contains(where: { Self.isHealthyReplica($0) })
      else { return nil }
      ports.insert(plainPort(port))
    }
    guard ports.count == 1, let port = ports.first,
      let role = try? await Self.ask(port, ["ROLE"]),
      case .master(let replicas)? = try? SentinelReplies.role(role), replicas >= 1
    else { return nil }
    return port
  }

  /// A `SENTINEL replicas` entry (a flat list of field, value) whose flags are just `slave`
  /// and whose link to the master is up.
  static func isHealthyReplica(_ entry: RESPValue) -> Bool {
    guard let fields = entry.elements else { return false }
    var values: [String: String] = [:]
    for index in stride(from: 0, to: fields.count - 1, by: 2) {
      if let name = fields[index].string, let value = fields[index + 1].string {
        values[name] = value
      }
    }
    return values["flags"] == "slave" && values["master-link-status"] == "ok"
  }

  /// Waits (bounded) until the sentinels agree on a master with a replica connected.
  @discardableResult
  func waitUntilReady(timeout: Duration = .seconds(60)) async throws -> UInt16 {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let port = await agreedMaster() { return port }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw RedisTestError("the sentinels did not agree on a master within \(timeout)")
  }

  /// The node process listening on `port`.
  func node(port: UInt16) -> RedisTestServer? { nodes.first { $0.port == port } }

  /// Fails the master over with `SENTINEL FAILOVER` (retried while a sentinel answers that it
  /// cannot yet) and waits until the sentinels agree on the new one, with a replica.
  func failOver(timeout: Duration = .seconds(60)) async throws -> (old: UInt16, new: UInt16) {
    let old = try await waitUntilReady(timeout: timeout)
    let deadline = ContinuousClock.now + timeout
    var asked = false
    while ContinuousClock.now < deadline {
      if !asked {
        let reply = try? await Self.ask(
          sentinels[0].port, ["SENTINEL", "FAILOVER", Self.masterName])
        asked = reply == .simpleString("OK")
      }
      if asked, let port = await agreedMaster(), port != old { return (old, port) }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw RedisTestError("SENTINEL FAILOVER did not complete within \(timeout)")
  }
}

/// One `redis-server sentinel.conf --sentinel` on a free loopback port, watched so it dies
/// with the test process.
final class SentinelProcess: @unchecked Sendable {
  /// How long a sentinel may take to come up: a hang guard for a loaded machine.
  static let readinessDeadline = Duration.seconds(60)
  // `process` and `watchdog` are only touched by init and shutdown, called in sequence.
  private(set) var port: UInt16 = 0
  /// Its TLS port, when started with certificates.
  private(set) var tlsPort: UInt16?
  let directory: URL
  private var process: Process?
  private var watchdog: (pipe: Pipe, process: Process)?

  init(monitoring masterPort: UInt16, certificates: TLSTestCertificates? = nil) async throws {
    guard let executable = RedisTestServer.executable() else {
      throw RedisTestError("redis-server is not installed (apt-get install redis-server)")
    }
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-sentinel-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var attempts = 0
    while true {
      port = try RedisTestServer.freePort()
      if certificates != nil { tlsPort = try RedisTestServer.freePort() }
      do {
        try await start(executable: executable, masterPort: masterPort, certificates: certificates)
        return
      } catch let error as RedisTestError where error.portTaken && attempts < 5 {
        attempts += 1
      }
    }
  }

  private func start(
    executable: String, masterPort: UInt16, certificates: TLSTestCertificates?
  ) async throws {
    let configuration = directory.appendingPathComponent("sentinel.conf")
    let name = RedisTestSentinels.masterName
    var tls = ""
    if let certificates, let tlsPort {
      tls = """
        tls-port \(tlsPort)
        tls-cert-file \(certificates.server.certificate)
        tls-key-file \(certificates.server.key)
        tls-ca-cert-file \(certificates.ca)
        tls-auth-clients no
        tls-replication yes

        """
    }
    try
      (tls
        + """
        port \(port)
        bind 127.0.0.1
        daemonize no
        dir \(directory.path)
        logfile \(directory.appendingPathComponent("sentinel.log").path)
        sentinel monitor \(name) 127.0.0.1 \(masterPort) 2
        sentinel down-after-milliseconds \(name) 500
        sentinel failover-timeout \(name) 3000
        sentinel parallel-syncs \(name) 1

        """).write(to: configuration, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [configuration.path, "--sentinel"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let pipe = Pipe()
    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
    watcher.arguments = [
      "-c",
      "read -r _; [ \"$(cat /proc/$0/comm 2>/dev/null)\" = redis-server ] && kill -9 \"$0\"",
      String(process.processIdentifier),
    ]
    watcher.standardInput = pipe
    watcher.standardOutput = FileHandle.nullDevice
    watcher.standardError = FileHandle.nullDevice
    try watcher.run()
    watchdog = (pipe, watcher)
    self.process = process
    let deadline = ContinuousClock.now + SentinelProcess.readinessDeadline
    while ContinuousClock.now < deadline {
      guard process.isRunning else {
        stop()
        throw RedisTestError("the sentinel exited: port \(port) was taken", portTaken: true)
      }
      if acceptsConnections(port: port),
        (try? await RedisTestSentinels.ask(port, ["PING"])) == .simpleString("PONG")
      {
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    stop()
    throw RedisTestError("the sentinel did not start on port \(port)")
  }

  /// Stops the sentinel (SIGKILL) and removes its directory.
  func shutdown() {
    stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Stops the sentinel (SIGKILL) and waits for it.
  func stop() {
    if let watchdog {
      self.watchdog = nil
      try? watchdog.pipe.fileHandleForWriting.close()
      watchdog.process.waitUntilExit()
    }
    if let process {
      self.process = nil
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  deinit {
    shutdown()
  }
}
