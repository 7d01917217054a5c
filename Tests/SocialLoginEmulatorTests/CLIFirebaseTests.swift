import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `sociallogin` binary: `login facebook` → `firebase sign-in` → `token --provider
/// firebase` (refreshing through Secure Token) → `verify firebase`, against the emulator.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLIFirebaseTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-firebase")
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CLIEmulatorTests.Result
  {
    try await CLIProcess.run(arguments, home: home, environment: environment)
  }

  @Test func facebookTokenSignsInToFirebaseAndTheSessionRefreshesAndVerifies() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      let login = try await CLIProcess.login(["facebook", "--emulator", host], home: home)
      #expect(login.result.status == 0)
      let facebookToken = try await run(["token", "--provider", "facebook"])
        .stdout.trimmingCharacters(in: .newlines)

      let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
      let signIn = try await run(
        ["firebase", "sign-in", "--provider", "facebook.com", "--access-token", facebookToken],
        environment: environment)
      #expect(signIn.status == 0, "\(signIn.stderr)")
      let user = try JSONValue(parsing: Array(signIn.stdout.utf8))
      let localID = try #require(user["localId"]?.stringValue)
      #expect(user["providerId"] == "facebook.com")
      #expect(user["isNewUser"] == true)
      #expect(!signIn.stdout.contains(facebookToken))

      let token = try await run(["token", "--provider", "firebase"])
      #expect(token.status == 0, "\(token.stderr)")
      emulator.clearRequests()
      let fresh = try await run(
        ["token", "--provider", "firebase", "--force-refresh"], environment: environment)
      #expect(fresh.status == 0, "\(fresh.stderr)")
      #expect(emulator.requests(to: .firebase, endpoint: "securetoken").count == 1)
      let idToken = fresh.stdout.trimmingCharacters(in: .newlines)

      let verified = try await run(
        ["verify", "firebase", "--id-token", idToken], environment: environment)
      #expect(verified.status == 0, "\(verified.stderr)")
      let claims = try JSONValue(parsing: Array(verified.stdout.utf8))
      #expect(claims["user_id"]?.stringValue == localID)
      #expect(claims["sign_in_provider"] == "facebook.com")

      // Outside emulator mode the unsigned emulator token is refused, with the reason.
      let refused = try await run(
        [
          "verify", "firebase", "--id-token", idToken, "--project-id",
          EmulatorApps.firebaseProjectID,
        ])
      #expect(refused.status == 1)
      #expect(refused.stderr.contains("alg none"))

      let bad = try await run(
        ["firebase", "sign-in", "--provider", "facebook.com", "--access-token", "forged"],
        environment: environment)
      #expect(bad.status == 1)
      #expect(bad.stderr.contains("INVALID_IDP_RESPONSE"))
    }
  }

  /// A multi-tenant project: the tenant is sent at sign-in, kept in the session's profile (the
  /// refreshed session belongs to it) and carried by every ID token, refreshed ones too.
  @Test func aTenantSignInKeepsItsTenantThroughTheProfileAndRefresh() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
      let facebook = try await emulatorFacebookToken(emulator)
      let signIn = try await run(
        [
          "firebase", "sign-in", "--provider", "facebook.com", "--access-token", facebook,
          "--tenant-id", "tenant-a",
        ], environment: environment)
      #expect(signIn.status == 0, "\(signIn.stderr)")
      let user = try JSONValue(parsing: Array(signIn.stdout.utf8))
      #expect(user["tenantId"] == "tenant-a")

      let profiles = home.appendingPathComponent("sociallogin/sessions/cli.profiles")
      let file = try JSONValue(parsing: Array(try Data(contentsOf: profiles)))
      let profile = try #require(file["profiles"]?.objectValue?.values.first)
      #expect(profile["tenantID"] == "tenant-a")

      emulator.clearRequests()
      let fresh = try await run(
        ["token", "--provider", "firebase", "--force-refresh"], environment: environment)
      #expect(fresh.status == 0, "\(fresh.stderr)")
      #expect(emulator.requests(to: .firebase, endpoint: "securetoken").count == 1)
      let parts = fresh.stdout.trimmingCharacters(in: .newlines).split(
        separator: ".", omittingEmptySubsequences: false)
      #expect(parts.count == 3)
      let payload = try Base64URL.decode(parts.count > 1 ? parts[1] : "")
      let claims = try JSONValue(parsing: payload)
      #expect(claims["firebase"]?["tenant"] == "tenant-a")
    }
  }

  /// A Facebook access token the emulator issued, got the way an app gets one: a login.
  func emulatorFacebookToken(_ emulator: ProviderEmulator) async throws -> String {
    let facebook = FacebookProvider(
      configuration: try .init(
        appID: EmulatorApps.facebookAppID, appSecret: Secret(EmulatorApps.facebookAppSecret),
        emulatorHost: emulator.host, environment: [:]))
    let login = try LoginClient(
      providers: [facebook], store: InMemorySessionStore(), userAgent: emulator.headlessAgent())
    return try await login(.facebook).freshAccessToken()
  }
}
