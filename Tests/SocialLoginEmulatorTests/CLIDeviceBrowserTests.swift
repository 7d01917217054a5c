import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// A real browser (headless Chromium) on the emulator's verification page while the built
/// `sociallogin login ... --device` polls: the person types the code shown on the device and
/// approves or denies, and the CLI ends as it says it would.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .enabled(
    if: (HeadlessChromium.path != nil && HeadlessChromium.driverAvailable)
      || HeadlessChromium.required, "\(HeadlessChromium.missing)"),
  .timeLimit(.minutes(5)))
struct CLIDeviceBrowserTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-device-browser")
  }

  /// Starts the device login and returns the CLI, the verification address and the code.
  func start(_ arguments: [String]) async throws -> (CLIProcess.Running, URL, String) {
    let cli = try CLIProcess.Running(["login"] + arguments + ["--device"], home: home)
    do {
      let line = try await cli.line(startingWith: CLIDeviceTests.prefix)
      let rest = line.dropFirst(CLIDeviceTests.prefix.count)
      guard let space = rest.firstIndex(of: " "), let url = URL(string: String(rest[..<space])),
        let marker = line.range(of: "enter the code: ")
      else { throw CLIProcessError("no address or code in: \(line)") }
      return (cli, url, String(line[marker.upperBound...]))
    } catch {
      cli.process.terminate()
      throw error
    }
  }

  @Test(arguments: ["oidc", "github", "microsoft"])
  func approvingInTheBrowserSignsTheDeviceIn(provider: String) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, url, code) = try await start([provider, "--emulator", emulator.host.description])
      let page: String
      do {
        page = try await HeadlessChromium.decide(
          url: url, code: code, button: "approve", in: home)
      } catch {
        cli.process.terminate()
        throw error
      }
      #expect(page.contains("Device approved"), "\(page)")
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["provider"]?.stringValue?.hasPrefix(provider) == true)
      #expect(identity["subject"]?.stringValue != nil)
    }
  }

  @Test func denyingInTheBrowserEndsTheLoginWithAccessDenied() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, url, code) = try await start(["oidc", "--emulator", emulator.host.description])
      let page: String
      do {
        page = try await HeadlessChromium.decide(url: url, code: code, button: "deny", in: home)
      } catch {
        cli.process.terminate()
        throw error
      }
      #expect(page.contains("Device login denied"), "\(page)")
      let result = try await cli.finish()
      #expect(result.status == 1, "\(result.stderr)")
      #expect(result.stderr.contains("access_denied"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }
}
