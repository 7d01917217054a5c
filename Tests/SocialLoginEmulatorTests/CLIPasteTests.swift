import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// `sociallogin login PROVIDER --no-browser --paste` (the built binary) against the emulator:
/// the test plays a browser on another machine, which follows the sign-in URL to an address
/// it cannot load, and pastes that address into the CLI.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIPasteTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-paste")
  }

  /// Starts the login, GETs its URL (the emulator approves and redirects), and returns the
  /// running CLI, its stdin and the callback address the browser landed on.
  func start(_ provider: String, _ emulator: ProviderEmulator) async throws
    -> (CLIProcess.Running, Pipe, String)
  {
    let input = Pipe()
    let cli = try CLIProcess.Running(
      ["login", provider, "--emulator", emulator.host.description, "--no-browser", "--paste"],
      home: home, input: input)
    let prefix = "Open this URL to sign in: "
    let line: String
    do {
      line = try await cli.line(startingWith: prefix)
    } catch {
      cli.process.terminate()
      throw error
    }
    let url = try #require(URL(string: String(line.dropFirst(prefix.count))))
    let page = try await RawHTTP.send("GET", url)
    let location = try #require(page.headers["location"], "\(page.status) \(page.text)")
    #expect(location.hasPrefix("http://127.0.0.1:"))
    return (cli, input, location)
  }

  func paste(_ text: String, into input: Pipe) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    try input.fileHandleForWriting.close()
  }

  @Test(arguments: ["twitter", "line"])
  func thePastedCallbackCompletesTheLogin(provider: String) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, input, location) = try await start(provider, emulator)
      try paste("  " + location + "  ", into: input)
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == provider)
    }
  }

  @Test func aCallbackWithAnotherStateIsRefusedAndNothingIsExchanged() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, input, location) = try await start("twitter", emulator)
      var components = try #require(URLComponents(string: location))
      components.queryItems = components.queryItems?.map {
        $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0
      }
      try paste(try #require(components.string), into: input)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("state_mismatch"), "\(result.stderr)")
      #expect(emulator.requests(to: .twitter, endpoint: "token").isEmpty)
    }
  }

  @Test(arguments: [
    "", "not a url", "http://evil.example/callback?code=x&state=y",
    String(repeating: "A", count: 100_000),
  ])
  func hostilePastesAreRefused(text: String) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let (cli, input, _) = try await start("twitter", emulator)
      try paste(text, into: input)
      let result = try await cli.finish()
      #expect(result.status == 1)
      #expect(result.stderr.contains("invalid_callback"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(emulator.requests(to: .twitter, endpoint: "token").isEmpty)
    }
  }
}
