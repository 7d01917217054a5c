import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// The built `sociallogin` binary with the providers written as descriptions (Kakao, NAVER,
/// Yahoo! JAPAN, GitHub, Microsoft) against the emulator, which serves them from the same
/// descriptions: `login` with nothing but `--emulator`, then `token`, a forced refresh,
/// `verify` and `logout --revoke` from the remembered profile, and device logins.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIDescribedTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-described")
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CLIProcess.Result
  {
    try await CLIProcess.run(arguments, home: home, environment: environment)
  }

  /// Whether a forced refresh gets a new access token: GitHub's OAuth app issues no refresh
  /// token.
  static func refreshes(_ id: ProviderID) -> Bool { id != .github }

  @Test(arguments: ProviderDescription.builtIn.map(\.id))
  func loginTokenRefreshAndLogoutNeedOnlyTheEmulator(provider: ProviderID) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run(accessTokenTTL: 120) { emulator in
      let host = emulator.host.description
      let name = provider.rawValue
      let login = try await CLIProcess.login([name, "--emulator", host], home: home)
      #expect(login.pageStatus == 200, "callback page")
      #expect(login.result.status == 0, "\(login.result.stderr)")
      #expect(login.result.stderr.contains("Open this URL to sign in: "))
      let identity = try JSONValue(parsing: Array(login.result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == name)
      let subject = try #require(identity["subject"]?.stringValue)
      #expect(!subject.isEmpty)
      if provider == .kakao {
        // Kakao's ids are 64-bit numbers; the emulator's default user's exceeds 2^53.
        #expect(UInt64(subject).map { $0 > 1 << 53 } == true, "\(subject)")
      }
      let authorize = try #require(emulator.requests(to: provider, endpoint: "authorize").last)
      #expect(authorize.query["code_challenge_method"] == "S256")
      #expect(authorize.query["state"]?.isEmpty == false)

      let token = try await run(["token", "--provider", name])
      #expect(token.status == 0, "\(token.stderr)")
      let accessToken = token.stdout.trimmingCharacters(in: .newlines)
      #expect(!accessToken.isEmpty)

      if Self.refreshes(provider) {
        emulator.clearRequests()
        let fresh = try await run(["token", "--provider", name, "--force-refresh"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout != token.stdout, "a refreshed token")
        #expect(
          emulator.requests(to: provider, endpoint: "token", grantType: "refresh_token").count
            == 1)
        let again = try await run(["token", "--provider", name, "--force-refresh"])
        #expect(again.status == 0, "the kept refresh token still works: \(again.stderr)")
      }

      let logout = try await run(["logout", "--provider", name, "--revoke"])
      #expect(logout.status == 0, "\(logout.stderr)")
      let after = try await run(["status", "--json"])
      #expect(try JSONValue(parsing: Array(after.stdout.utf8)) == [])
    }
  }

  @Test func naverAndKakaoAccessTokensAreVerifiedThroughTheProvider() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      for provider in ["naver", "kakao"] {
        let login = try await CLIProcess.login([provider, "--emulator", host], home: home)
        #expect(login.result.status == 0, "\(login.result.stderr)")
        let subject = try JSONValue(parsing: Array(login.result.stdout.utf8))["subject"]
        let token = try await run(["token", "--provider", provider])
        let verified = try await run([
          "verify", provider, "--emulator", host, "--access-token",
          token.stdout.trimmingCharacters(in: .newlines),
        ])
        #expect(verified.status == 0, "\(provider): \(verified.stderr)")
        let document = try JSONValue(parsing: Array(verified.stdout.utf8))
        #expect(document["subject"] == subject)
        // Kakao's access_token_info names the app (its app id is the emulator app's, which
        // the profile remembered); NAVER's profile does not.
        #expect(document["audience"]?["proven"] == .bool(provider == "kakao"), "\(document)")
        if provider == "kakao" {
          // With its own client id, Kakao needs the app id to prove the token is this app's.
          let accessToken = token.stdout.trimmingCharacters(in: .newlines)
          let own = ["--client-id", EmulatorApps.kakaoClientID, "--access-token", accessToken]
          let unproven = try await run(["verify", "kakao", "--emulator", host] + own)
          #expect(unproven.status != 0, "\(unproven.stdout)")
          #expect(unproven.stderr.contains("app id"), "\(unproven.stderr)")
          let proven = try await run(
            ["verify", "kakao", "--emulator", host, "--app-id", EmulatorApps.kakaoAppID] + own)
          #expect(proven.status == 0, "\(proven.stderr)")
          let other = try await run(
            ["verify", "kakao", "--emulator", host, "--app-id", "42"] + own)
          #expect(other.status == 1, "another app's token: \(other.stderr)")
        }
        let bogus = try await run(["verify", provider, "--emulator", host, "--access-token", "x"])
        #expect(bogus.status == 1, "\(provider): \(bogus.stderr)")
        #expect(bogus.stdout.isEmpty)
      }
    }
  }

  @Test(arguments: ["github", "microsoft"])
  func deviceLoginPrintsTheIdentity(provider: String) async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let cli = try CLIProcess.Running(
        ["login", provider, "--emulator", emulator.host.description, "--device"], home: home)
      let line: String
      do {
        line = try await cli.line(startingWith: CLIDeviceTests.prefix)
      } catch {
        cli.process.terminate()
        throw error
      }
      let marker = "enter the code: "
      guard let range = line.range(of: marker) else {
        cli.process.terminate()
        throw CLIProcessError("no user code in: \(line)")
      }
      let code = String(line[range.upperBound...])
      #expect(try await CLIDeviceTests.decide(emulator, "approve", code) == 200)
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == provider)
    }
  }
}
