import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sociallogin events --listen`: the emulator's providers push their events to the CLI, which
/// ends the stored sessions the CLI's own `login` made.
@Suite(.oneCLIAtATime, .needsCLIBinary, .timeLimit(.minutes(5)))
struct CLIEventsTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-events")
  }

  @Test func eventsFromTheEmulatorEndTheStoredSessionsUntilSIGTERM() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      var subjects: [String: String] = [:]
      for provider in ["oidc", "facebook"] {
        let login = try await CLIProcess.login([provider, "--emulator", host], home: home)
        #expect(login.result.status == 0, "\(login.result.stderr)")
        let identity = try JSONValue(parsing: Array(login.result.stdout.utf8))
        subjects[provider] = try #require(identity["subject"]?.stringValue)
      }
      let events = try CLIProcess.Running(
        ["events", "--listen", "127.0.0.1:0", "--emulator", host], home: home)
      let line = try await events.line(startingWith: "Receiving provider events")
      let base = try #require(
        line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
      for (provider, kind, route) in [
        ("oidc", "backchannel-logout", "/oidc/backchannel-logout"),
        ("facebook", "deauthorize", "/facebook/deauthorize"),
      ] {
        let answer = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/events/send"),
          #"{"provider":"\#(provider)","kind":"\#(kind)","url":"\#(base + route)"}"#)
        #expect(answer.json?["status"]?.doubleValue == 200, "\(answer.text) \(events.stderr)")
      }
      kill(events.process.processIdentifier, SIGTERM)
      let ended = try await events.finish()
      #expect(ended.status == 0, "\(ended.stderr)")
      #expect(ended.stdout == base + "\n")
      let status = try await CLIProcess.run(["status", "--json"], home: home)
      for subject in subjects.values {
        #expect(!status.stdout.contains(subject), "\(status.stdout)")
      }
    }
  }
}
