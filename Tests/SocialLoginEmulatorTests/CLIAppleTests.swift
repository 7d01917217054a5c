import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator
import Testing

/// `sociallogin login apple --authorization-code`, `verify apple`, `token --provider apple`
/// and `logout --provider apple --revoke`, the built binary against the emulator, in exactly
/// the forms issue 21 names.
@Suite(.oneCLIAtATime, .needsCLIBinary, .timeLimit(.minutes(5)))
struct CLIAppleTests {
  let home: URL

  init() throws { home = try CLIProcess.makeHome("cli-apple") }

  func run(_ arguments: [String]) async throws -> CLIProcess.Result {
    try await CLIProcess.run(arguments, home: home)
  }

  @Test func anAppsCodeBecomesASessionThatRefreshesAndRevokes() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let key = emulator.appleKey
      let keyFile = home.appendingPathComponent("AuthKey.p8")
      try Data(key.privateKeyPEM.utf8).write(to: keyFile)
      let base = emulator.baseURL.absoluteString + "/appleid.apple.com/auth/"
      let app = try emulator.appleAuthorization(nonce: "n-123")
      let login = try await run([
        "login", "apple", "--client-id", EmulatorApps.appleBundleID, "--team-id", key.teamID,
        "--key-id", key.keyID, "--private-key-file", keyFile.path,
        "--authorization-code", app.authorizationCode, "--store", home.path + "/store",
        "--endpoint", "token=\(base)token", "--endpoint", "keys=\(base)keys",
        "--endpoint", "revoke=\(base)revoke",
      ])
      #expect(login.status == 0, "\(login.stderr)")
      let identity = try JSONValue(parsing: Array(login.stdout.utf8))
      #expect(identity["provider"]?.stringValue == "apple")
      #expect(identity["subject"]?.stringValue == EmulatedUser.alice.subject(at: .apple))
      #expect(identity["email_verified"] == .bool(true))
      #expect(emulator.requests(to: .apple, endpoint: "token").map(\.status) == [200])

      let token = try await run([
        "token", "--provider", "apple", "--store", home.path + "/store", "--min-ttl", "3000",
      ])
      // The hour-long token lasts: served without asking Apple.
      #expect(token.status == 0, "\(token.stderr)")
      #expect(emulator.requests(to: .apple, endpoint: "token").count == 1)
      let forced = try await run([
        "token", "--provider", "apple", "--store", home.path + "/store", "--force-refresh",
      ])
      #expect(forced.status == 0, "\(forced.stderr)")
      #expect(emulator.requests(to: .apple, endpoint: "token").map(\.status) == [200, 200])
      #expect(
        forced.stdout.trimmingCharacters(in: .newlines)
          != token.stdout.trimmingCharacters(in: .newlines))

      let logout = try await run([
        "logout", "--provider", "apple", "--revoke", "--store", home.path + "/store",
      ])
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(emulator.requests(to: .apple, endpoint: "revoke").map(\.status) == [200])
    }
  }

  @Test func theBrowserLoginTakesTheFormPostedCallback() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let cli = try CLIProcess.Running(
        [
          "login", "apple", "--emulator", emulator.host.description, "--no-browser",
          "--timeout", "60",
        ], home: home)
      let prefix = "Open this URL to sign in: "
      let line = try await cli.line(startingWith: prefix)
      let url = try #require(URL(string: String(line.dropFirst(prefix.count))))
      #expect(url.query?.contains("response_mode=form_post") == true)
      // The emulator's page POSTs its fields to the loopback callback, as a browser does.
      let posted = try #require(
        URLComponents(url: try await emulator.approve(url), resolvingAgainstBaseURL: false))
      let form = posted.percentEncodedQuery ?? ""
      #expect(form.contains("user="))
      var target = posted
      target.percentEncodedQuery = nil
      let page = try await RawHTTP.send(
        "POST", try #require(target.url), body: Data(form.utf8),
        contentType: "application/x-www-form-urlencoded")
      #expect(page.status == 200)
      let result = try await cli.finish()
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      #expect(identity["name"]?.stringValue == "Alice Example")
      #expect(identity["subject"]?.stringValue == EmulatedUser.alice.subject(at: .apple))
    }
  }

  @Test func verifyPrintsTheIdentityOrARejection() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let keys = emulator.baseURL.absoluteString + "/appleid.apple.com/auth/keys"
      let raw = "raw-nonce-42"
      let hashed = SHA256Hex.of(raw)
      let app = try emulator.appleAuthorization(nonce: hashed)
      let verified = try await run([
        "verify", "apple", "--client-id", EmulatorApps.appleBundleID, "--id-token",
        app.identityToken, "--nonce", raw, "--endpoint", "keys=\(keys)",
      ])
      #expect(verified.status == 0, "\(verified.stderr)")
      let identity = try JSONValue(parsing: Array(verified.stdout.utf8))
      #expect(identity["subject"]?.stringValue == EmulatedUser.alice.subject(at: .apple))
      #expect(identity["email_verified"] == .bool(true))
      let rejected = try await run([
        "verify", "apple", "--client-id", EmulatorApps.appleBundleID, "--id-token",
        app.identityToken, "--nonce", "another", "--endpoint", "keys=\(keys)",
      ])
      #expect(rejected.status == 1)
      #expect(rejected.stdout.isEmpty)
      #expect(rejected.stderr.contains("nonce"))
    }
  }
}

enum SHA256Hex {
  static func of(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).map {
      let digits = String($0, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }.joined()
  }
}
