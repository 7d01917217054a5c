import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// A browser login where no browser can open (no `$BROWSER`, no desktop or no `xdg-open`):
/// the built binary says so at once and suggests `--device` for providers that have one.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLINoBrowserTests {
  static let notice = "No browser can be opened here"

  /// Starts `login PROVIDER` with `environment`, waits for the notice (or the URL line when
  /// `expectNotice` is false), then stops the CLI (it would wait for a browser).
  func stderr(_ provider: String, environment: [String: String], expectNotice: Bool = true)
    async throws -> String
  {
    let home = try CLIProcess.makeHome("cli-no-browser")
    defer { try? FileManager.default.removeItem(at: home) }
    return try await ProviderEmulator.run { emulator in
      let cli = try CLIProcess.Running(
        ["login", provider, "--emulator", emulator.host.description], home: home,
        environment: environment)
      defer { cli.process.terminate() }
      _ = try await cli.line(startingWith: expectNotice ? Self.notice : "Open this URL to sign in")
      return cli.stderr
    }
  }

  /// `PATH` with nothing in it: no `xdg-open`.
  static let emptyPath = FileManager.default.temporaryDirectory.appendingPathComponent(
    "no-xdg-open-\(UUID().uuidString)"
  ).path

  @Test func noDisplaySuggestsDeviceForAProviderWithADeviceLogin() async throws {
    let text = try await stderr("google", environment: ["BROWSER": ""])
    #expect(text.contains("--device"), "\(text)")
    #expect(text.contains("Open this URL to sign in: http://"))
  }

  @Test func aDisplayWithoutXdgOpenSuggestsDeviceToo() async throws {
    let text = try await stderr(
      "oidc", environment: ["BROWSER": "", "DISPLAY": ":0", "PATH": Self.emptyPath])
    #expect(text.contains("--device (when the issuer offers a device login)"), "\(text)")
  }

  @Test func facebookAlsoNamesTheClientToken() async throws {
    let text = try await stderr("facebook", environment: ["BROWSER": ""])
    #expect(text.contains("--device --client-token T"), "\(text)")
  }

  @Test func aProviderWithoutADeviceLoginSuggestsPaste() async throws {
    let text = try await stderr("line", environment: ["BROWSER": ""])
    #expect(text.contains("--no-browser --paste"), "\(text)")
    #expect(!text.contains("--device"), "\(text)")
  }

  @Test func aBrowserCommandMeansNoNotice() async throws {
    let text = try await stderr(
      "google", environment: ["BROWSER": "true"], expectNotice: false)
    #expect(!text.contains(Self.notice), "\(text)")
  }
}
