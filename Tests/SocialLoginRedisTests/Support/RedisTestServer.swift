import Foundation
import SocialLogin
import Synchronization
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A redis-server for a test: a database of its own on the process's shared server
/// (``with(_:)``), or a whole server of its own (``withOwn(arguments:_:)``) for a test that
/// restarts it, sets a password, flushes its script cache or counts its clients.
///
/// One shared server per test process instead of one per test: thirty servers starting at once
/// on two cores missed their readiness deadline. Each test that shares it gets the next of its
/// databases (`SELECT`; pub/sub channels are server-wide, so tests still use unique key
/// prefixes). The shared server is watched by a shell that kills it when the test process's end
/// of a pipe closes, so it never outlives `swift test`, even one that crashed.
///
/// Without `redis-server` on the machine the Redis suites are skipped with a message, unless
/// `CI` is set (to anything but empty, `0` or `false`): then a missing server fails the run.
final class RedisTestServer: Sendable {
  let process: RedisServerProcess
  /// The database this test uses (`0` on a server of the test's own).
  let database: Int
  private let ownsProcess: Bool

  private init(process: RedisServerProcess, database: Int, ownsProcess: Bool) {
    self.process = process
    self.database = database
    self.ownsProcess = ownsProcess
  }

  var port: UInt16 { process.port }
  /// `redis://127.0.0.1:PORT`, with `/DB` when the test has a database of the shared server.
  var url: String {
    database == 0 ? "redis://127.0.0.1:\(port)" : "redis://127.0.0.1:\(port)/\(database)"
  }
  var unixSocket: String { process.unixSocket }

  static var executable: String? { RedisServerProcess.executable }

  /// A session store on this test's database whose commands may wait 30 s (the default 2 s is
  /// a production setting; on a loaded two-core machine queueing for a pooled connection took
  /// longer): a hang guard, not a speed check.
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

  static var isRequired: Bool {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
  }

  /// Whether the suites run: a server is installed, or CI requires it (and will fail).
  static var shouldRun: Bool { executable != nil || isRequired }

  /// Saves, stops and starts again a server of the test's own (see ``withOwn(arguments:_:)``).
  func restart(downtime: Duration = .zero, whileDown: () async throws -> Void = {}) async throws {
    guard ownsProcess else { throw RedisTestError("restart needs a server of the test's own") }
    try await process.restart(downtime: downtime, whileDown: whileDown)
  }

  deinit {
    if ownsProcess { process.shutdown() }
  }

  /// The databases the shared server has (`--databases`); each `with` takes the next one.
  static let sharedDatabases = 4096
  private static let nextDatabase = Mutex(1)
  private static let shared = SharedServer()

  /// Runs `body` with a database of its own on the process's shared server.
  static func with<T>(_ body: (RedisTestServer) async throws -> T) async throws -> T {
    let process = try await shared.process()
    let database = nextDatabase.withLock { next in
      defer { next += 1 }
      return next
    }
    guard database < sharedDatabases else {
      throw RedisTestError("the shared redis-server has only \(sharedDatabases) databases")
    }
    return try await body(RedisTestServer(process: process, database: database, ownsProcess: false))
  }

  /// Runs `body` with a fresh server of its own (`arguments` added to its command line, such
  /// as `--requirepass x`), always stopping it afterwards.
  static func withOwn<T>(arguments: [String] = [], _ body: (RedisTestServer) async throws -> T)
    async throws -> T
  {
    let process = try await RedisServerProcess(arguments: arguments, watched: false)
    defer { process.shutdown() }
    return try await body(RedisTestServer(process: process, database: 0, ownsProcess: true))
  }

  static func accepts(port: UInt16) -> Bool { RedisServerProcess.accepts(port: port) }
  static func freePort() throws -> UInt16 { try RedisServerProcess.freePort() }

  /// Starts the shared server on first use, once, whichever test asks first.
  private actor SharedServer {
    private var started: Task<RedisServerProcess, any Error>?

    func process() async throws -> RedisServerProcess {
      if let started { return try await started.value }
      let task = Task {
        try await RedisServerProcess(
          arguments: ["--databases", String(RedisTestServer.sharedDatabases)], watched: true)
      }
      started = task
      return try await task.value
    }
  }
}

/// One redis-server process: a free loopback port, a fresh directory, no persistence
/// (`--save '' --appendonly no`).
final class RedisServerProcess: @unchecked Sendable {
  // `process` (and `port`, chosen in `init`) are only touched by init/start/stop, which the
  // owning test calls in sequence.
  private(set) var port: UInt16 = 0
  let directory: URL
  let extraArguments: [String]
  /// Watched by a shell that kills the server when this process's end of a pipe closes.
  let watched: Bool
  private var process: Process?
  private var watchdog: (pipe: Pipe, process: Process)?

  static let executable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
    return candidates.map { $0 + "/redis-server" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  var unixSocket: String { directory.appendingPathComponent("redis.sock").path }

  /// Starts a server with `arguments` added to the command line (`--requirepass x`, ...).
  init(arguments: [String], watched: Bool) async throws {
    guard let executable = Self.executable else {
      throw RedisTestError("redis-server is not installed (apt-get install redis-server)")
    }
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-redis-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    extraArguments = arguments
    self.watched = watched
    // A port handed out free can be taken by another test's server before ours binds it;
    // then ours exits at once (see `start`) and another port is tried.
    var attempts = 0
    while true {
      port = try Self.freePort()
      do {
        try await start(executable: executable)
        return
      } catch let error as RedisTestError where error.portTaken && attempts < 5 {
        attempts += 1
      }
    }
  }

  /// How long a server may take to come up: a hang guard for a loaded machine, not a speed
  /// check (the readiness poll ends as soon as the server is up).
  static let readinessDeadline = Duration.seconds(60)

  private func start(executable: String) async throws {
    // A SIGKILLed server leaves its socket file behind; a stale one must not count as ready.
    try? FileManager.default.removeItem(atPath: unixSocket)
    let arguments =
      [
        "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
        "--dir", directory.path, "--daemonize", "no", "--protected-mode", "yes",
        "--logfile", directory.appendingPathComponent("redis.log").path,
        "--unixsocket", unixSocket, "--unixsocketperm", "700",
      ] + extraArguments
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    if watched {
      // A watcher kills the server once its stdin — this process's pipe — reaches end of
      // file, as it does when this process exits, however it exits. (A shell that started the
      // server and `wait`ed for it would hang: it inherits a blocked SIGCHLD from here.)
      let pipe = Pipe()
      let watcher = Process()
      watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
      watcher.arguments = [
        // Only while that process is still a redis-server: once it exited, its number may
        // be another process's.
        "-c",
        "read -r _; [ \"$(cat /proc/$0/comm 2>/dev/null)\" = redis-server ] && kill -9 \"$0\"",
        String(process.processIdentifier),
      ]
      watcher.standardInput = pipe
      watcher.standardOutput = FileHandle.nullDevice
      watcher.standardError = FileHandle.nullDevice
      try watcher.run()
      watchdog = (pipe, watcher)
    }
    self.process = process
    // Ready when its own Unix socket exists and the port accepts a connection (a refused AUTH
    // still means it is up). The socket proves the port is ours: redis-server creates it only
    // after binding the TCP port, and exits if that port is taken — a connection accepted
    // there could otherwise be another test's server, which goes away mid-test.
    let deadline = ContinuousClock.now + Self.readinessDeadline
    while ContinuousClock.now < deadline {
      guard process.isRunning else {
        stop()
        throw RedisTestError("redis-server exited: port \(port) was taken", portTaken: true)
      }
      if FileManager.default.fileExists(atPath: unixSocket), Self.accepts(port: port) {
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    stop()
    throw RedisTestError(
      "redis-server did not start on port \(port) within \(Self.readinessDeadline)")
  }

  /// Stops the server by its PID (SIGKILL) and waits for it.
  func stop() {
    guard let process else { return }
    self.process = nil
    // SIGKILL: the data is thrown away anyway (no persistence; restart() saves first), and
    // SIGTERM makes redis-server linger for its shutdown timeout with clients connected.
    if let watchdog {
      // The watcher kills the server (if it still runs) and exits.
      self.watchdog = nil
      try? watchdog.pipe.fileHandleForWriting.close()
      watchdog.process.waitUntilExit()
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Saves the data (`SAVE`), stops the server and starts it again on the same port and
  /// directory, so it comes back with the same data (and an empty script cache).
  func restart(downtime: Duration = .zero, whileDown: () async throws -> Void = {}) async throws {
    let client = try RedisClient(url: "redis://127.0.0.1:\(port)")
    _ = try await client.send(["SAVE"])
    client.close()
    stop()
    try await whileDown()
    if downtime > .zero { try await Task.sleep(for: downtime) }
    guard let executable = Self.executable else { return }
    try await start(executable: executable)
  }

  /// Stops the server and removes its directory.
  func shutdown() {
    stop()
    try? FileManager.default.removeItem(at: directory)
  }

  deinit {
    shutdown()
  }

  static func accepts(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// A port the kernel just handed out (bound and closed): free unless raced.
  static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RedisTestError("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw RedisTestError("bind failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}

struct RedisTestError: Error, CustomStringConvertible {
  var description: String
  /// The server exited while starting: its port was taken by someone else.
  var portTaken = false
  init(_ description: String, portTaken: Bool = false) {
    self.description = description
    self.portTaken = portTaken
  }
}

/// The trait of every suite that needs redis-server.
let redisAvailable = ConditionTrait.enabled(
  if: RedisTestServer.shouldRun,
  "redis-server is not installed; apt-get install redis-server (with CI set this fails)")

/// A key prefix no other test uses, so tests can share a server.
func uniquePrefix() -> String { "t\(UInt32.random(in: 0...UInt32.max))" }
