import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// `sociallogin login facebook --app-id ID --client-token T --device` (the built binary)
/// against the emulator: the client token signs the device requests, the test approves or
/// denies through the control API.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIFacebookDeviceTests {
  let device: CLIDeviceTests

  init() throws { device = try CLIDeviceTests() }

  func arguments(_ emulator: ProviderEmulator) -> [String] {
    [
      "facebook", "--emulator", emulator.host.description, "--app-id",
      EmulatorApps.facebookAppID, "--client-token", EmulatorApps.facebookClientToken,
    ]
  }

  @Test func approvedPrintsTheIdentityAndExitsZero() async throws {
    defer { try? FileManager.default.removeItem(at: device.home) }
    try await ProviderEmulator.run { emulator in
      // An app without "Require App Secret": the client token is all the CLI has.
      emulator.facebookRequiresAppSecretProof = false
      let (cli, code) = try await device.start(arguments(emulator))
      #expect(cli.stderr.contains("/www.facebook.com/device on another device"), "\(cli.stderr)")
      #expect(!cli.stderr.contains("fbdc-"), "the device code is never shown")
      #expect(!cli.stderr.contains("█"), "no QR code when stderr is not a terminal")
      #expect(try await CLIDeviceTests.decide(emulator, "approve", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == "facebook")
      #expect(identity["subject"]?.stringValue != nil)
      let polls = emulator.requests(to: .facebook, endpoint: "device_login_status")
      #expect(!polls.isEmpty)
      // The client token is sent (redacted in the record); the app secret never is.
      #expect(polls.allSatisfy { $0.form["access_token"] != nil && $0.form["code"] != nil })
      #expect(
        emulator.requests.allSatisfy {
          $0.form["client_secret"] == nil && $0.query["appsecret_proof"] == nil
        })
      #expect(emulator.requests(to: .facebook, endpoint: "access_token").isEmpty)

      // The session made with the client token alone is used and ended without a secret.
      let token = try await CLIProcess.run(["token", "--provider", "facebook"], home: device.home)
      #expect(token.status == 0, "\(token.stderr)")
      let logout = try await CLIProcess.run(
        ["logout", "--provider", "facebook", "--revoke"], home: device.home)
      #expect(logout.status == 0, "\(logout.stderr)")
      let status = try await CLIProcess.run(["status", "--json"], home: device.home)
      #expect(try JSONValue(parsing: Array(status.stdout.utf8)) == [])
    }
  }

  /// With "Require App Secret" on, the profile needs the secret: the CLI says so.
  @Test func requireAppSecretWithoutTheSecretExitsOneSayingSo() async throws {
    defer { try? FileManager.default.removeItem(at: device.home) }
    try await ProviderEmulator.run { emulator in
      let (cli, code) = try await device.start(arguments(emulator))
      #expect(try await CLIDeviceTests.decide(emulator, "approve", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("Require App Secret"), "\(result.stderr)")
    }
  }

  @Test func deniedExitsOneNamingAccessDenied() async throws {
    defer { try? FileManager.default.removeItem(at: device.home) }
    try await ProviderEmulator.run { emulator in
      let (cli, code) = try await device.start(arguments(emulator))
      #expect(try await CLIDeviceTests.decide(emulator, "deny", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("access_denied"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func expiredExitsOneNamingExpiredToken() async throws {
    defer { try? FileManager.default.removeItem(at: device.home) }
    try await ProviderEmulator.run { emulator in
      let (cli, _) = try await device.start(arguments(emulator))
      let moved = try await RawHTTP.json(
        "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":421}"#)
      #expect(moved.status == 200)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("expired_token"), "\(result.stderr)")
    }
  }

  @Test func aRealAppWithoutAClientTokenIsAUsageError() async throws {
    defer { try? FileManager.default.removeItem(at: device.home) }
    let result = try await CLIProcess.run(
      ["login", "facebook", "--app-id", "1234567890", "--device"], home: device.home)
    #expect(result.status != 0)
    #expect(result.stderr.contains("--client-token"), "\(result.stderr)")
  }
}
