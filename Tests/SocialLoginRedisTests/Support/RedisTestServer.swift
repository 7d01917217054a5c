import Foundation
import SocialLogin
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A redis-server of the test's own: a free loopback port, a fresh directory, no persistence
/// (`--save '' --appendonly no`), stopped by its PID when the test ends.
///
/// Without `redis-server` on the machine the Redis suites are skipped with a message, unless
/// `CI` is set (to anything but empty, `0` or `false`): then a missing server fails the run.
final class RedisTestServer: @unchecked Sendable {
  // `process` (and `port`, chosen in `init`) are only touched by init/start/stop, which the
  // owning test calls in sequence.
  private(set) var port: UInt16 = 0
  let directory: URL
  let extraArguments: [String]
  private var process: Process?

  static let executable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
    return candidates.map { $0 + "/redis-server" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static var isRequired: Bool {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
  }

  /// Whether the suites run: a server is installed, or CI requires it (and will fail).
  static var shouldRun: Bool { executable != nil || isRequired }

  var url: String { "redis://127.0.0.1:\(port)" }
  var unixSocket: String { directory.appendingPathComponent("redis.sock").path }

  /// Starts a server with `arguments` added to the command line (`--requirepass x`, ...).
  init(arguments: [String] = []) async throws {
    guard let executable = Self.executable else {
      throw RedisTestError("redis-server is not installed (apt-get install redis-server)")
    }
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-redis-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    extraArguments = arguments
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

  private func start(executable: String) async throws {
    // A SIGKILLed server leaves its socket file behind; a stale one must not count as ready.
    try? FileManager.default.removeItem(atPath: unixSocket)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      [
        "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
        "--dir", directory.path, "--daemonize", "no", "--protected-mode", "yes",
        "--logfile", directory.appendingPathComponent("redis.log").path,
        "--unixsocket", unixSocket, "--unixsocketperm", "700",
      ] + extraArguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    // Ready when its own Unix socket exists and the port accepts a connection (a refused AUTH
    // still means it is up). The socket proves the port is ours: redis-server creates it only
    // after binding the TCP port, and exits if that port is taken — a connection accepted
    // there could otherwise be another test's server, which goes away mid-test.
    let deadline = ContinuousClock.now + .seconds(10)
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
    throw RedisTestError("redis-server did not start on port \(port)")
  }

  /// Stops the server by its PID (SIGTERM, then SIGKILL after 5 s) and waits for it.
  func stop() {
    guard let process else { return }
    self.process = nil
    // SIGKILL: the data is thrown away anyway (no persistence; restart() saves first), and
    // SIGTERM makes redis-server linger for its shutdown timeout with clients connected.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Saves the data (`SAVE`), stops the server and starts it again on the same port and
  /// directory, so it comes back with the same data (and an empty script cache).
  func restart(downtime: Duration = .zero, whileDown: () async throws -> Void = {}) async throws {
    let client = try RedisClient(url: url)
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

  /// Runs `body` with a fresh server, always stopping it afterwards.
  static func with<T>(arguments: [String] = [], _ body: (RedisTestServer) async throws -> T)
    async throws -> T
  {
    let server = try await RedisTestServer(arguments: arguments)
    defer { server.shutdown() }
    return try await body(server)
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
