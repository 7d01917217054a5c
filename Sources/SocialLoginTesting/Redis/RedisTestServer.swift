import Foundation
import SocialLogin

/// A redis-server of the test's own on a free loopback port, for testing code that talks to
/// Redis (a `RedisSessionStore` built from ``url``, your own client) against the real thing.
///
/// ```swift
/// @Test(.redisAvailable) func sessionsSurviveTheClient() async throws {
///   try await RedisTestServer.with { redis in
///     let store = try await RedisSessionStore.connect(url: redis.url)
///     // ...
///   }
/// }
/// ```
///
/// ``with(arguments:environment:readinessTimeout:_:)`` starts the server, waits until it
/// answers `PING`, runs the body and kills the server with SIGKILL afterwards, whether the
/// body returned, threw or was cancelled; the process is reaped, so no zombie stays. On Linux
/// the server also dies when the test process dies, however it dies (a crash, a SIGKILL, a
/// `swift test` interrupted): the kernel kills it (`PR_SET_PDEATHSIG`), so a server never
/// outlives `swift test`. It starts with an empty signal mask and default signal handling, so a
/// signal blocked in the test process cannot make it ignore SIGTERM.
///
/// The server has no persistence (`--save ''`, `--appendonly no`), listens on 127.0.0.1 only
/// and on a Unix socket in a fresh directory that ``stop()`` removes. A port taken by another
/// process between choosing and binding it is detected and another one is tried.
///
/// Without `redis-server` on `PATH`, tests with the `.redisAvailable` trait are
/// skipped with a printed reason; when the `CI` environment variable is set they run and fail
/// with a ``RedisTestServerError`` of code `notInstalled`, so a CI image that lost its
/// redis-server cannot pass by skipping.
public final class RedisTestServer: Sendable {
  /// `127.0.0.1`: the server listens on loopback only.
  public let host = "127.0.0.1"
  /// The server's TCP port, free when it was chosen; it stays the same across ``restart(whileDown:)``.
  public let port: UInt16
  /// The directory of the server's Unix socket, its output and any `SAVE`d data; removed by
  /// ``stop()``.
  public let directory: URL
  let launch: Launch
  private let child: Locked<ChildProcess?>

  init(port: UInt16, launch: Launch, child: ChildProcess) {
    self.port = port
    self.directory = launch.directory
    self.launch = launch
    self.child = Locked(child)
  }

  /// `redis://127.0.0.1:PORT`: what a Redis client or `RedisSessionStore.connect(url:)` takes.
  public var url: String { "redis://\(host):\(port)" }

  /// The path of the server's Unix socket (`--unixsocket`, permissions `700`), for clients
  /// that connect without TCP.
  public var unixSocket: String { launch.unixSocket }

  /// The server's process id while it runs (it changes with ``restart(whileDown:)``); `nil`
  /// after ``stop()``. For tests that signal the server themselves.
  public var processIdentifier: Int32? { child.withLock { $0?.pid } }

  /// The last lines the server wrote to stdout and stderr (its log), to explain a failure.
  public var output: String { launch.outputTail() }

  /// Starts a server, runs `body` with it, and kills it (SIGKILL, reaped) when `body` returns,
  /// throws or is cancelled.
  ///
  /// - Parameters:
  ///   - arguments: added to the server's command line, such as `["--requirepass", "secret"]`
  ///     or `["--maxmemory", "10mb"]`. The fixture owns `--port`, `--bind`, `--dir` and
  ///     `--unixsocket`.
  ///   - environment: where `PATH` (to find `redis-server`) and `CI` are read; the process's
  ///     environment by default.
  ///   - readinessTimeout: how long the server may take to answer `PING`: a hang guard for a
  ///     loaded machine, not a speed check (the wait ends as soon as it answers).
  ///   - body: the test's code, given the running server.
  /// - Returns: what `body` returns.
  /// - Throws: ``RedisTestServerError`` when the server cannot start (not installed, exited at
  ///   start with its output, not ready in time, no free port), or what `body` throws.
  public static func with<T>(
    arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    readinessTimeout: Duration = .seconds(60),
    _ body: (RedisTestServer) async throws -> T
  ) async throws -> T {
    let server = try await start(
      arguments: arguments, environment: environment, readinessTimeout: readinessTimeout)
    do {
      let result = try await body(server)
      server.stop()
      return result
    } catch {
      server.stop()
      throw error
    }
  }

  /// Starts a server that runs until ``stop()``, until it is released, or until the test
  /// process exits, for a server shared by many tests of one process. Prefer
  /// ``with(arguments:environment:readinessTimeout:_:)``, which always stops it.
  ///
  /// - Throws: ``RedisTestServerError`` when the server cannot start, or `CancellationError`.
  public static func start(
    arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    readinessTimeout: Duration = .seconds(60)
  ) async throws -> RedisTestServer {
    try await start(
      arguments: arguments, environment: environment, readinessTimeout: readinessTimeout,
      ports: LoopbackProbe.freePort)
  }

  /// `start`, with the ports to try coming from `ports` (tests hand out a taken one).
  static func start(
    arguments: [String], environment: [String: String], readinessTimeout: Duration,
    ports: () throws(RedisTestServerError) -> UInt16
  ) async throws -> RedisTestServer {
    let launch = try Launch(
      arguments: arguments, environment: environment, readinessTimeout: readinessTimeout)
    do {
      // Another process can take a port between `freePort()` and the server's bind: the
      // server then exits saying so, and another port is tried.
      var lastOutput = ""
      for _ in 0..<Launch.portAttempts {
        let port = try ports()
        switch try await launch.run(port: port) {
        case .ready(let child): return RedisTestServer(port: port, launch: launch, child: child)
        case .portTaken(let output): lastOutput = output
        }
      }
      throw RedisTestServerError(
        .portUnavailable,
        "\(Launch.portAttempts) free ports in a row were taken before "
          + "redis-server could bind them", output: lastOutput)
    } catch {
      launch.removeDirectory()
      throw error
    }
  }

  /// A loopback port free right now, for the extra listeners a test passes in `arguments`
  /// (`--tls-port`, `--cluster-port`). Another process may take it before the server binds
  /// it: the server then exits, and ``RedisTestServerError/output`` says
  /// "Address already in use".
  ///
  /// - Throws: ``RedisTestServerError`` when no socket can be bound on 127.0.0.1.
  public static func freePort() throws(RedisTestServerError) -> UInt16 {
    try LoopbackProbe.freePort()
  }

  /// Kills the server (SIGKILL, then reaped) and starts it again on the same port and
  /// directory, running `whileDown` in between: for testing reconnection. Data is lost unless
  /// a `SAVE` wrote it to ``directory`` first. Not to be called concurrently with itself or
  /// ``stop()``.
  ///
  /// - Throws: ``RedisTestServerError`` (code `portUnavailable` if another process took the
  ///   port meanwhile), or what `whileDown` throws (the server then stays down).
  public func restart(whileDown: () async throws -> Void = {}) async throws {
    child.withLock { child in
      child?.killAndReap()
      child = nil
    }
    try await whileDown()
    switch try await launch.run(port: port) {
    case .ready(let started): child.withLock { $0 = started }
    case .portTaken(let output):
      throw RedisTestServerError(
        .portUnavailable, "port \(port) was taken while redis-server was down", output: output)
    }
  }

  /// Kills the server (SIGKILL, then reaped) and removes its directory. Calling it again does
  /// nothing. SIGKILL because the data is thrown away anyway, and SIGTERM makes redis-server
  /// linger for its shutdown timeout while clients are connected.
  public func stop() {
    child.withLock { child in
      child?.killAndReap()
      child = nil
    }
    launch.removeDirectory()
  }

  deinit {
    stop()
  }
}
