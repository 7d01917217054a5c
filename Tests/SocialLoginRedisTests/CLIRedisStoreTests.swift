import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

@testable import SocialLoginRedis

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `sociallogin` binary with `--store redis://...` and `--store unix://...`
/// (`StoreLocation.openShared`): a login lands in the test's redis-server, not in a directory,
/// and `token` and `status` read it back from there, as another machine's CLI would.
@Suite(
  redisAvailable,
  .enabled(if: CLIProcess.executable != nil, "sociallogin binary not built; run swift build"),
  .timeLimit(.minutes(5)))
struct CLIRedisStoreTests {
  @Test(arguments: [false, true])
  func loginTokenAndStatusUseTheRedisStore(overUnixSocket: Bool) async throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-cli-redis-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisTestServer.with { server in
      try await ProviderEmulator.run(accessTokenTTL: 120) { emulator in
        let store = overUnixSocket ? "unix://\(server.unixSocket)?db=3" : server.url + "/3"
        let login = try await CLIProcess.login(
          ["twitter", "--emulator", emulator.host.description, "--store", store], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let identity = try JSONValue(parsing: Array(login.stdout.utf8))
        let subject = try #require(identity["subject"]?.stringValue)

        // The session is in Redis (database 3), and no session file was written.
        let redis = try await RedisSessionStore.connect(url: store)
        let stored = try await redis.loadAll().sessions
        #expect(stored.map(\.key) == [SessionKey(provider: .twitter, subject: subject)])
        let sessions = home.appendingPathComponent("sociallogin/sessions")
        #expect(!FileManager.default.fileExists(atPath: sessions.path))

        let token = try await CLIProcess.run(
          ["token", "--provider", "twitter", "--store", store], home: home)
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout == (stored.first?.credential.accessToken.revealed ?? "-") + "\n")

        // A refresh through the CLI writes the rotated tokens back to Redis.
        emulator.clearRequests()
        let fresh = try await CLIProcess.run(
          ["token", "--provider", "twitter", "--min-ttl", "200", "--store", store], home: home)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout != token.stdout)
        #expect(
          emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token").count
            == 1)
        let after = try #require(try await redis.loadAll().sessions.first)
        #expect(fresh.stdout == after.credential.accessToken.revealed + "\n")
        #expect(after.version > (stored.first?.version ?? .max))

        let status = try await CLIProcess.run(["status", "--json", "--store", store], home: home)
        #expect(status.status == 0, "\(status.stderr)")
        let rows = try #require(try JSONValue(parsing: Array(status.stdout.utf8)).arrayValue)
        #expect(rows.map { $0["subject"]?.stringValue } == [subject])

        // Another database of the same server holds nothing: the URL's database counts.
        let other = try await CLIProcess.run(
          [
            "status", "--json", "--store",
            overUnixSocket ? "unix://\(server.unixSocket)" : server.url,
          ],
          home: home)
        #expect(try JSONValue(parsing: Array(other.stdout.utf8)) == [])
        redis.client.close()
      }
    }
  }

  @Test func anUnreachableRedisIsAClearErrorNotASignOut() async throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-cli-redis-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let port = try RedisTestServer.freePort()
    let result = try await CLIProcess.run(
      ["status", "--store", "redis://127.0.0.1:\(port)"], home: home)
    #expect(result.status != 0)
    #expect(result.stderr.contains("127.0.0.1:\(port)"), "\(result.stderr)")
  }
}

/// The `sociallogin` binary as a child process, its outputs in files.
enum CLIProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// `<package>/.build/debug/sociallogin`, found from this file's path.
  static let executable: URL? = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { root.deleteLastPathComponent() }
    let candidate = root.appendingPathComponent(".build/debug/sociallogin")
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
  }()

  final class Running: Sendable {
    let process: Process
    let outURL: URL
    let errURL: URL

    init(_ arguments: [String], home: URL) throws {
      let id = UUID().uuidString
      outURL = home.appendingPathComponent("out-\(id)")
      errURL = home.appendingPathComponent("err-\(id)")
      _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      let process = Process()
      process.executableURL = CLIProcess.executable
      process.arguments = arguments
      var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("SOCIALLOGIN_")
      }
      environment["XDG_CONFIG_HOME"] = home.path
      environment["DISPLAY"] = nil
      environment["WAYLAND_DISPLAY"] = nil
      process.environment = environment
      process.standardOutput = try FileHandle(forWritingTo: outURL)
      process.standardError = try FileHandle(forWritingTo: errURL)
      process.standardInput = FileHandle.nullDevice
      try process.run()
      self.process = process
    }

    var stderr: String {
      String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
    }

    /// The first complete stderr line starting with `prefix`, waiting up to 60 s.
    func line(startingWith prefix: String) async throws -> String {
      let deadline = ContinuousClock.now + .seconds(60)
      while ContinuousClock.now < deadline {
        let text = stderr
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
          text.contains(line + "\n")
        {
          return String(line)
        }
        guard process.isRunning else { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      throw RedisTestError("no '\(prefix)' line; stderr: \(stderr)")
    }

    /// Waits (off the cooperative pool, at most 60 s) for the exit.
    func finish() async throws -> Result {
      let process = self.process
      let status: Int32 = await withCheckedContinuation { continuation in
        Thread {
          let killer = DispatchWorkItem { if process.isRunning { process.interrupt() } }
          DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
          process.waitUntilExit()
          killer.cancel()
          continuation.resume(returning: process.terminationStatus)
        }.start()
      }
      return Result(
        status: status,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self), stderr: stderr)
    }
  }

  static func run(_ arguments: [String], home: URL) async throws -> Result {
    try await Running(arguments, home: home).finish()
  }

  /// Runs `login` and plays the browser: GET the printed URL (the emulator auto-approves and
  /// redirects to the CLI's loopback callback).
  static func login(_ arguments: [String], home: URL) async throws -> Result {
    let cli = try Running(["login"] + arguments + ["--no-browser", "--timeout", "60"], home: home)
    let prefix = "Open this URL to sign in: "
    let line = try await cli.line(startingWith: prefix)
    let url = try #require(URL(string: String(line.dropFirst(prefix.count))))
    var request = URLRequest(url: url)
    request.timeoutInterval = 60
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200, "callback page")
    return try await cli.finish()
  }
}
