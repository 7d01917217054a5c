import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// `sociallogin login google`, `token`, `logout --revoke` and `verify google` against the
/// emulator's Google, as a user runs them.
@Suite(.oneCLIAtATime, .needsCLIBinary, .timeLimit(.minutes(5)))
struct CLIGoogleTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-google")
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CLIProcess.Result
  {
    try await CLIProcess.run(arguments, home: home, environment: environment)
  }

  @Test func loginTokenRefreshAndLogoutWithRevocation() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run(accessTokenTTL: 120) { emulator in
      let login = try await CLIProcess.login(
        ["google", "--emulator", emulator.host.description], home: home)
      #expect(login.pageStatus == 200)
      #expect(login.result.status == 0, "\(login.result.stderr)")
      let identity = try JSONValue(parsing: Array(login.result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == "google")
      #expect(identity["subject"]?.stringValue == EmulatedUser.alice.subject(at: .google))
      #expect(identity["email"]?.stringValue == "alice@example.test")
      let authorize = try #require(emulator.requests(to: .google, endpoint: "authorize").first)
      #expect(authorize.query["access_type"] == "offline")

      let token = try await run(["token", "--provider", "google"])
      #expect(token.status == 0, "\(token.stderr)")
      emulator.clearRequests()
      let fresh = try await run(["token", "--provider", "google", "--force-refresh"])
      #expect(fresh.status == 0, "\(fresh.stderr)")
      #expect(fresh.stdout != token.stdout)
      #expect(
        emulator.requests(to: .google, endpoint: "token", grantType: "refresh_token").count == 1)

      let logout = try await run(["logout", "--provider", "google", "--revoke"])
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(emulator.requests(to: .google, endpoint: "revoke").map(\.status) == [200])
      let after = try await run(["status", "--json"])
      #expect(try JSONValue(parsing: Array(after.stdout.utf8)) == [])
    }
  }

  @Test func verifyPrintsTheIdentityOrARejectionWithItsReason() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let keys = emulator.url(for: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!)
      let web = EmulatorApps.googleClientID
      func verify(_ token: String, _ extra: [String] = []) async throws -> CLIProcess.Result {
        try await run(
          [
            "verify", "google", "--client-id", web, "--id-token", token, "--endpoint",
            "keys=\(keys.absoluteString)",
          ] + extra)
      }
      // A web page's token (aud and azp the web client), with its nonce.
      let webToken = try await emulator.googleIDToken(nonce: "n-42", authorizedParty: web)
      let verified = try await verify(webToken, ["--nonce", "n-42"])
      #expect(verified.status == 0, "\(verified.stderr)")
      let document = try JSONValue(parsing: Array(verified.stdout.utf8))
      #expect(document["subject"]?.stringValue == EmulatedUser.alice.subject(at: .google))
      #expect(document["email_verified"]?.boolValue == true)

      // The Android app's token for this server: accepted only for a listed app client id.
      let android = try await emulator.googleIDToken()
      let unlisted = try await verify(android)
      #expect(unlisted.status == 1)
      #expect(unlisted.stdout.isEmpty)
      #expect(unlisted.stderr.contains("azp"), "\(unlisted.stderr)")
      let listed = try await verify(
        android, ["--app-client-id", EmulatorApps.googleAndroidClientID])
      #expect(listed.status == 0, "\(listed.stderr)")

      // A hosted domain the account is not in.
      let domain = try await verify(
        android,
        ["--app-client-id", EmulatorApps.googleAndroidClientID, "--hosted-domain", "corp.test"])
      #expect(domain.status == 1)
      #expect(domain.stderr.contains("hosted_domain_mismatch"), "\(domain.stderr)")

      // A wrong nonce.
      let nonce = try await verify(webToken, ["--nonce", "n-43"])
      #expect(nonce.status == 1)
      #expect(nonce.stderr.hasPrefix("error: nonce_mismatch: "), "\(nonce.stderr)")
    }
  }

  @Test func aRefreshRefusingTheClientNamesItsSettingsAndKeepsTheSession() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let login = try await CLIProcess.login(
        [
          "google", "--emulator", emulator.host.description, "--client-id",
          EmulatorApps.googleClientID, "--client-secret-env", "MY_GOOGLE_SECRET",
        ], home: home, environment: ["MY_GOOGLE_SECRET": EmulatorApps.googleClientSecret])
      #expect(login.result.status == 0, "\(login.result.stderr)")

      // The operator rotated the secret in the console but not in the environment: Google
      // answers the refresh with 401 invalid_client.
      let refused = try await run(
        ["token", "--provider", "google", "--force-refresh"],
        environment: ["MY_GOOGLE_SECRET": "an-old-secret"])
      #expect(refused.status != 0)
      #expect(refused.stdout.isEmpty)
      #expect(refused.stderr.contains("GoogleConfiguration.clientSecret"), "\(refused.stderr)")
      #expect(!refused.stderr.contains("provider_error"), "\(refused.stderr)")
      #expect(
        emulator.requests(to: .google, endpoint: "token", grantType: "refresh_token").map(
          \.status) == [401])

      let status = try await run(["status", "--json"])
      let sessions = try JSONValue(parsing: Array(status.stdout.utf8))
      #expect(sessions.arrayValue?.count == 1, "\(status.stdout)")
      let again = try await run(
        ["token", "--provider", "google", "--force-refresh"],
        environment: ["MY_GOOGLE_SECRET": EmulatorApps.googleClientSecret])
      #expect(again.status == 0, "\(again.stderr)")
    }
  }
}
