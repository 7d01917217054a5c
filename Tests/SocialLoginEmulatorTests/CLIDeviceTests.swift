import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// `sociallogin login oidc --device` (the built binary) against the emulator: the test plays
/// the person with a phone through the emulator's control API.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIDeviceTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-device")
  }

  static let prefix = "To sign in, open "

  /// Starts `login ... --device`, waits for the instructions and returns the running CLI and
  /// the user code it shows.
  func start(_ arguments: [String]) async throws -> (CLIProcess.Running, String) {
    let cli = try CLIProcess.Running(["login"] + arguments + ["--device"], home: home)
    let marker = "enter the code: "
    let line: String
    do {
      line = try await cli.line(startingWith: Self.prefix)
    } catch {
      cli.process.terminate()  // it would poll until the code expires
      throw error
    }
    guard let range = line.range(of: marker) else {
      cli.process.terminate()
      throw CLIProcessError("no user code in: \(line)")
    }
    return (cli, String(line[range.upperBound...]))
  }

  static func decide(_ emulator: ProviderEmulator, _ action: String, _ code: String)
    async throws -> Int
  {
    try await RawHTTP.json(
      "POST", emulator.at("/_emulator/device/\(action)"), #"{"user_code":"\#(code)"}"#
    ).status
  }

  @Test(arguments: [
    ("oidc", "/oidc/device on another device", true),
    ("google", "/www.google.com/device on another device", false),
  ])
  func approvedDeviceLoginPrintsTheIdentityAndExitsZero(
    provider: String, verification: String, complete: Bool
  ) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, code) = try await start([provider, "--emulator", emulator.host.description])
      let stderr = cli.stderr
      #expect(stderr.contains(verification), "\(stderr)")
      #expect(stderr.contains("Or open http://") == complete)
      #expect(stderr.contains("The code expires at "))
      #expect(!stderr.contains("oidcdc-"), "the device code is never shown")
      #expect(try await Self.decide(emulator, "approve", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["provider"]?.stringValue?.hasPrefix(provider) == true)
      #expect(identity["subject"]?.stringValue != nil)
      // The session is stored like a browser login's.
      let status = try await CLIProcess.run(["status", "--json"], home: home)
      #expect(status.stdout.contains(provider), "\(status.stderr)")
    }
  }

  @Test func deniedDeviceLoginExitsOneNamingAccessDenied() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, code) = try await start(["oidc", "--emulator", emulator.host.description])
      #expect(try await Self.decide(emulator, "deny", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("access_denied"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func expiredDeviceCodeExitsOneNamingExpiredToken() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, _) = try await start(["oidc", "--emulator", emulator.host.description])
      let moved = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":601}"#)
      #expect(moved.status == 200)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("expired_token"), "\(result.stderr)")
    }
  }

  @Test func aProviderWithoutADeviceLoginExitsTwo() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let result = try await CLIProcess.run(
        ["login", "twitter", "--emulator", emulator.host.description, "--device"], home: home)
      #expect(result.status == 2)
      #expect(result.stderr.contains("no device login"), "\(result.stderr)")
      #expect(emulator.requests.isEmpty)
    }
  }

  @Test func loginHelpShowsDevice() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    for arguments in [["login", "--help"], ["login", "oidc", "--help"]] {
      let help = try await CLIProcess.run(arguments, home: home)
      #expect(help.status == 0)
      #expect((help.stdout + help.stderr).contains("--device"), "\(arguments)")
    }
  }
}
