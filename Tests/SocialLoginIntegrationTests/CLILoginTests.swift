import CLITestProcess
import Foundation
import GlewlwydTestPeer
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `sociallogin login oidc` as a user runs it: a real Glewlwyd, the real loopback redirect, the
/// built CLI binary as a subprocess, and a "browser" that signs in and follows the redirect.
extension GlewlwydSuites {
  @Suite(
    .oneCLIAtATime,
    .enabled(
      if: GlewlwydPeer.shouldRun && CLITestProcess.CLIProcess.executable != nil,
      "needs glewlwyd and a built .build/debug/sociallogin (swift build)"),
    .timeLimit(.minutes(10)))
  struct CLILoginTests {
    /// A fresh `XDG_CONFIG_HOME`, removed when the test ends.
    final class ConfigHome {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("sociallogin-cli-\(UUID().uuidString)")
      deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// `sociallogin login oidc` against `peer` with `extra` options and its own config home.
    func startLogin(
      _ peer: GlewlwydPeer, clientID: String, _ extra: [String], home: ConfigHome,
      environment: [String: String] = [:]
    ) throws -> CLIProcess {
      try CLIProcess(
        arguments: [
          "login", "oidc", "--issuer", peer.rsIssuer.absoluteString, "--client-id", clientID,
        ]
          + extra,
        environment: environment.merging(["XDG_CONFIG_HOME": home.url.path]) { $1 })
    }

    @Test func loginOIDCPrintsTheIdentityAndStoresThePrivateSession() async throws {
      let peer = try await GlewlwydPeer.shared.value
      let home = ConfigHome()
      let cli = try startLogin(
        peer, clientID: GlewlwydPeer.confidentialClient,
        [
          "--client-secret-env", "TEST_SECRET", "--scope", "openid",
          "--redirect-port", String(peer.redirectPort), "--no-browser",
        ],
        home: home, environment: ["TEST_SECRET": GlewlwydPeer.confidentialSecret])
      let prompt = try await cli.waitForStderrLine(prefix: "Open this URL to sign in: ")
      let url = try #require(
        URL(string: String(prompt.dropFirst("Open this URL to sign in: ".count))))
      let browser = GlewlwydBrowser(peer: peer, clientID: GlewlwydPeer.confidentialClient)
      let redirect = try await browser.authorize(url)
      let (page, response) = try await URLSession.shared.data(from: redirect)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(
        !String(decoding: page, as: UTF8.self).contains("code="), "page never echoes the code")

      let result = try await cli.finish()
      #expect(result.status == 0, "stderr: \(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["email"] == .string(GlewlwydPeer.email))
      // Stored under an id of this issuer, not a shared "oidc".
      let expectedID = ProviderID.oidc(issuer: peer.rsIssuer)
      #expect(identity["provider"] == .string(expectedID.rawValue))
      #expect(expectedID != ProviderID.oidc(issuer: peer.esIssuer))

      let sessions = home.url.appendingPathComponent("sociallogin/sessions")
      let files = try FileManager.default.contentsOfDirectory(atPath: sessions.path)
        .filter { $0.hasSuffix(".json") }
      #expect(files.count == 1)
      let attributes = try FileManager.default.attributesOfItem(
        atPath: sessions.appendingPathComponent(try #require(files.first)).path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      let directory = try FileManager.default.attributesOfItem(atPath: sessions.path)
      #expect((directory[.posixPermissions] as? Int) == 0o700)
    }

    @Test func interruptExitsCleanlyWithAMessage() async throws {
      let peer = try await GlewlwydPeer.shared.value
      let home = ConfigHome()
      let cli = try startLogin(
        peer, clientID: GlewlwydPeer.publicClient, ["--no-browser"], home: home)
      _ = try await cli.waitForStderrLine(prefix: "Open this URL to sign in: ")
      cli.interrupt()
      let result = try await cli.finish()
      withExtendedLifetime(home) {}
      #expect(result.status == 130)
      #expect(result.stderr.contains("Login cancelled."))
    }

    @Test func timeoutExitsWithAMessage() async throws {
      let peer = try await GlewlwydPeer.shared.value
      let home = ConfigHome()
      let cli = try startLogin(
        peer, clientID: GlewlwydPeer.publicClient, ["--no-browser", "--timeout", "1"], home: home)
      let result = try await cli.finish()
      withExtendedLifetime(home) {}
      #expect(result.status == 1)
      #expect(result.stderr.contains("error: timed_out"), "\(result.stderr)")
    }

    @Test func badUsageExitsWithTwo() async throws {
      let cli = try CLIProcess(
        arguments: ["login", "oidc", "--issuer", "not a url"], environment: [:])
      let result = try await cli.finish()
      #expect(result.status == 2)
      #expect(result.stderr.contains("--issuer must be an http(s) URL"))
    }
  }
}

/// The CLI running as a subprocess, with its stderr readable line by line while it runs.
final class CLIProcess: @unchecked Sendable {
  // `stderrText` is only touched under `lock`; the process and pipes are set up once.
  private let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  private let lock = NSLock()
  private var stderrText = ""

  init(arguments: [String], environment: [String: String]) throws {
    guard let url = CLITestProcess.CLIProcess.executable else {
      throw PeerError("sociallogin is not built")
    }
    process.executableURL = url
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = output
    process.standardError = errors
    errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let chunk = handle.availableData
      guard let self, !chunk.isEmpty else { return }
      self.lock.withLock { self.stderrText += String(decoding: chunk, as: UTF8.self) }
    }
    try process.run()
  }

  var stderr: String { lock.withLock { stderrText } }

  /// Waits (yielding, bounded by the process staying alive) for a complete stderr line.
  func waitForStderrLine(prefix: String, timeout: Duration = .seconds(60)) async throws
    -> String
  {
    let deadline = ContinuousClock.now + timeout
    while true {
      guard ContinuousClock.now < deadline else {
        throw PeerError("no stderr line starting '\(prefix)' within \(timeout): \(stderr)")
      }
      if let line = stderr.split(separator: "\n", omittingEmptySubsequences: true)
        .first(where: { $0.hasPrefix(prefix) }), stderr.contains(line + "\n")
      {
        return String(line)
      }
      guard process.isRunning else { throw PeerError("CLI exited early: \(stderr)") }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  func interrupt() { process.interrupt() }

  /// Waits for the exit on a thread of its own (not a cooperative one: a login can take
  /// seconds), bounded by the suite's time limit.
  func finish() async throws -> (status: Int32, stdout: String, stderr: String) {
    let stdout = try await blockingCall { [self] in
      let stdout = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      errors.fileHandleForReading.readabilityHandler = nil
      let rest = errors.fileHandleForReading.readDataToEndOfFile()
      lock.withLock { stderrText += String(decoding: rest, as: UTF8.self) }
      return stdout
    }
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), stderr)
  }
}
