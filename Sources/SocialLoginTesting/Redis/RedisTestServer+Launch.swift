import Foundation

extension RedisTestServer {
  /// How one server is started: its executable, directory and command line, and the wait
  /// until it is ready.
  struct Launch: Sendable {
    /// How many ports `start` tries when each is taken before redis-server binds it.
    static let portAttempts = 5
    /// How many of the server's last output lines an error or ``RedisTestServer/output``
    /// shows.
    static let outputLines = 20

    let executable: String
    let arguments: [String]
    let directory: URL
    let readinessTimeout: Duration

    enum Outcome {
      case ready(ChildProcess)
      /// The server exited because another process holds the port.
      case portTaken(output: String)
    }

    /// Finds redis-server and creates a fresh directory for it.
    init(arguments: [String], environment: [String: String], readinessTimeout: Duration)
      throws(RedisTestServerError)
    {
      guard let executable = RedisTestServer.executable(environment: environment) else {
        throw RedisTestServerError(
          .notInstalled,
          RedisTestServer.isRequired(environment: environment)
            ? "redis-server is not on PATH and CI is set, so the Redis tests must run here: "
              + "install redis-server (apt-get install redis-server)"
            : "redis-server is not on PATH: install redis-server (apt-get install "
              + "redis-server), or skip the test with the .redisAvailable trait")
      }
      self.executable = executable
      self.arguments = arguments
      self.readinessTimeout = readinessTimeout
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sociallogin-redis-\(UUID().uuidString)", isDirectory: true)
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw RedisTestServerError(
          .spawnFailed, "could not create \(directory.path): \(error)")
      }
    }

    var unixSocket: String { directory.appendingPathComponent("redis.sock").path }
    var outputFile: String { directory.appendingPathComponent("redis-server.log").path }

    /// Starts the server on `port` and waits until it answers, or kills it.
    func run(port: UInt16) async throws -> Outcome {
      // A killed server leaves its socket file behind; a stale one must not count as ready.
      try? FileManager.default.removeItem(atPath: unixSocket)
      let child = try ChildProcess(
        executable: executable,
        arguments: [
          "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
          "--dir", directory.path, "--daemonize", "no", "--protected-mode", "yes",
          "--unixsocket", unixSocket, "--unixsocketperm", "700",
        ] + arguments,
        output: outputFile)
      do {
        return try await waitUntilReady(child, port: port)
      } catch {
        child.killAndReap()
        throw error
      }
    }

    /// Ready when its Unix socket exists and its port answers `PING`. The socket proves the
    /// port is this server's: redis-server creates it only after binding the TCP port, and
    /// exits if that port is taken — a `PING` answered there could otherwise come from
    /// another process's server.
    private func waitUntilReady(_ child: ChildProcess, port: UInt16) async throws -> Outcome {
      let deadline = ContinuousClock.now + readinessTimeout
      while ContinuousClock.now < deadline {
        if let status = child.exitStatus() {
          let output = outputTail()
          if output.contains("Address already in use"), output.contains(":\(port)") {
            return .portTaken(output: output)
          }
          throw RedisTestServerError(
            .exitedAtStart,
            "redis-server \(ChildProcess.describe(status)) while starting on port \(port)",
            output: output)
        }
        if FileManager.default.fileExists(atPath: unixSocket),
          LoopbackProbe.answersPing(port: port)
        {
          return .ready(child)
        }
        try await Task.sleep(for: .milliseconds(10))
      }
      throw RedisTestServerError(
        .notReady, "redis-server did not answer PING on port \(port) within \(readinessTimeout)",
        output: outputTail())
    }

    /// The last lines of the server's output.
    func outputTail() -> String {
      guard let data = FileManager.default.contents(atPath: outputFile) else { return "" }
      let lines = String(decoding: data, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: true)
      return lines.suffix(Self.outputLines).joined(separator: "\n")
    }

    func removeDirectory() {
      try? FileManager.default.removeItem(at: directory)
    }
  }
}
