import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// Issue 18: a stored session's profile decides where its tokens go. An emulator named by
/// `--emulator`, `SOCIALLOGIN_EMULATOR_HOST` or `FIREBASE_AUTH_EMULATOR_HOST` never redirects
/// a session made without it, and the CLI's profiles live inside the store's private directory.
@Suite(
  .enabled(if: CLIProcess.executable != nil, "sociallogin binary not built; run swift build"),
  .timeLimit(.minutes(5)))
struct CLITrustTests {
  let home: URL

  init() throws {
    home = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-cli-trust-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  /// The CLI's default store.
  var store: URL { home.appendingPathComponent("sociallogin/sessions", isDirectory: true) }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CLIProcess.Result
  {
    try await CLIProcess.Running(arguments, home: home, environment: environment).finish()
  }

  /// Stores a session made with the real provider (no emulator) whose access token has
  /// expired, so `token` must refresh it, and its profile as the CLI wrote it beside the store.
  func storeRealSession(_ key: SessionKey, profile: JSONValue) async throws {
    let sessions = try FileSessionStore(directory: store)
    let credential = Credential(
      accessToken: "real-access-token", refreshToken: "real-refresh-token",
      expiresAt: Date().addingTimeInterval(-60))
    let identity = Identity(provider: key.provider, subject: key.subject)
    _ = try await sessions.save(
      StoredSession(key: key, credential: credential, identity: identity), expectedVersion: nil)
    let file = home.appendingPathComponent("sociallogin/sessions.profiles.json")
    try Data(
      JSONValue.object(["format": 1, "profiles": [key.description: profile]]).jsonText.utf8
    ).write(to: file)
  }

  @Test func anEmulatorNeverRedirectsASessionMadeWithoutIt() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      let x = SessionKey(provider: .twitter, subject: "real-1")
      try await storeRealSession(
        x,
        profile: [
          "kind": "twitter", "clientID": "real-x-client", "usesEmulatorApp": false,
          "scopes": [], "oauth1": false, "endpoints": [:], "updatedAt": "2026-12-01T00:00:00Z",
        ])
      let cases: [([String], [String: String], String)] = [
        (
          ["token", "--provider", "twitter"], ["SOCIALLOGIN_EMULATOR_HOST": host],
          "SOCIALLOGIN_EMULATOR_HOST"
        ),
        (["token", "--provider", "twitter", "--emulator", host], [:], "--emulator"),
        (
          ["logout", "--provider", "twitter", "--revoke"], ["SOCIALLOGIN_EMULATOR_HOST": host],
          "SOCIALLOGIN_EMULATOR_HOST"
        ),
      ]
      for (arguments, environment, named) in cases {
        let result = try await run(arguments, environment: environment)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("without the emulator"), "\(result.stderr)")
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(result.stderr.contains(x.description), "\(result.stderr)")
      }
      #expect(emulator.requests.isEmpty, "\(emulator.requests.map(\.endpoint))")
      // The real session and its profile are untouched.
      let stored = try await FileSessionStore(directory: store).load(x)
      #expect(stored?.credential.refreshToken?.revealed == "real-refresh-token")
      let status = try await run(["status", "--json"])
      let rows = try #require(try JSONValue(parsing: Array(status.stdout.utf8)).arrayValue)
      #expect(rows.first?["profile"] == true, "\(status.stdout)")
    }
  }

  @Test func theFirebaseEmulatorVariableNeverRedirectsARealFirebaseSession() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let key = SessionKey(provider: .firebase, subject: "uid-real")
      try await storeRealSession(
        key,
        profile: [
          "kind": "firebase", "clientID": "real-api-key",
          "issuer": "https://securetoken.google.com/real-project", "usesEmulatorApp": false,
          "scopes": [], "oauth1": false, "endpoints": [:], "updatedAt": "2026-12-01T00:00:00Z",
        ])
      let result = try await run(
        ["token", "--provider", "firebase"],
        environment: ["FIREBASE_AUTH_EMULATOR_HOST": emulator.host.description])
      #expect(result.status == 2, "\(result.stderr)")
      #expect(result.stderr.contains("FIREBASE_AUTH_EMULATOR_HOST"), "\(result.stderr)")
      #expect(emulator.requests.isEmpty, "\(emulator.requests.map(\.endpoint))")
      let stored = try await FileSessionStore(directory: store).load(key)
      #expect(stored?.credential.refreshToken?.revealed == "real-refresh-token")
    }
  }
}
