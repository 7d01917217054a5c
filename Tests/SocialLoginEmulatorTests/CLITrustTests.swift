import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 18: a stored session's profile decides where its tokens go. An emulator named by
/// `--emulator`, `SOCIALLOGIN_EMULATOR_HOST` or `FIREBASE_AUTH_EMULATOR_HOST` never redirects
/// a session made without it, and the CLI's profiles live inside the store's private directory.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLITrustTests {
  let home: URL

  init() throws {
    home = try CLIProcess.makeHome("cli-trust")
  }

  /// The CLI's default store.
  var store: URL { home.appendingPathComponent("sociallogin/sessions", isDirectory: true) }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> CLIProcess.Result
  {
    try await CLIProcess.run(arguments, home: home, environment: environment)
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

  // MARK: Profiles inside the store

  /// `<store>/cli.profiles`, where the CLI keeps its profiles.
  var profiles: URL { store.appendingPathComponent("cli.profiles") }
  /// `<store>.profiles.json`, beside the store, where earlier versions kept them.
  var legacyProfiles: URL { home.appendingPathComponent("sociallogin/sessions.profiles.json") }

  static let xProfile: JSONValue = [
    "kind": "twitter", "clientID": "real-x-client", "usesEmulatorApp": false, "scopes": [],
    "oauth1": false, "endpoints": [:], "updatedAt": "2026-12-01T00:00:00Z",
  ]

  func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  @Test func profilesBesideTheStoreAreMovedIntoItsPrivateDirectory() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let key = SessionKey(provider: .twitter, subject: "real-1")
    try await storeRealSession(key, profile: Self.xProfile)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: legacyProfiles.path)

    let status = try await run(["status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let rows = try #require(try JSONValue(parsing: Array(status.stdout.utf8)).arrayValue)
    #expect(rows.first?["profile"] == true, "the moved profile is found")
    #expect(!FileManager.default.fileExists(atPath: legacyProfiles.path), "moved, not copied")
    let moved = try JSONValue(parsing: Array(try Data(contentsOf: profiles)))
    #expect(moved["profiles"]?[key.description]?["clientID"] == "real-x-client")
    #expect(try mode(profiles) == 0o600)
    #expect(try mode(store) == 0o700)
  }

  @Test func aSymbolicLinkInPlaceOfTheProfilesIsRefusedNotFollowed() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let key = SessionKey(provider: .twitter, subject: "real-1")
    try await storeRealSession(key, profile: Self.xProfile)
    let decoy = home.appendingPathComponent("decoy.json")
    try FileManager.default.moveItem(at: legacyProfiles, to: decoy)
    let before = try Data(contentsOf: decoy)

    // Planted inside the store: `token` refuses to read the profiles through it.
    try FileManager.default.createSymbolicLink(at: profiles, withDestinationURL: decoy)
    let token = try await run(["token", "--provider", "twitter"])
    #expect(token.status == 1, "\(token.stderr)")
    #expect(token.stderr.contains("symbolic link"), "\(token.stderr)")
    #expect(token.stdout.isEmpty)

    // Planted beside the store: it is not moved in (nor followed).
    try FileManager.default.removeItem(at: profiles)
    try FileManager.default.createSymbolicLink(at: legacyProfiles, withDestinationURL: decoy)
    let status = try await run(["status", "--json"])
    #expect(status.status == 1, "\(status.stderr)")
    #expect(status.stderr.contains("symbolic link"), "\(status.stderr)")
    #expect(!FileManager.default.fileExists(atPath: profiles.path))
    #expect(try Data(contentsOf: decoy) == before)
  }

  /// Runs `login` and plays the browser (the emulator approves and redirects to the CLI).
  func login(_ arguments: [String], environment: [String: String]) async throws
    -> CLIProcess.Result
  {
    try await CLIProcess.login(arguments, home: home, environment: environment).result
  }

  @Test func aLoginWithExplicitClientFlagsDoesNotInheritRememberedEndpoints() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      // An earlier login of another client pointed the token endpoint elsewhere.
      try FileManager.default.createDirectory(
        at: legacyProfiles.deletingLastPathComponent(), withIntermediateDirectories: true)
      let earlier: JSONValue = [
        "kind": "twitter", "clientID": "another-client", "clientSecretVariable": "OTHER_SECRET",
        "usesEmulatorApp": false, "emulator": .string(host), "scopes": [], "oauth1": false,
        "endpoints": ["token": "http://127.0.0.1:9/elsewhere/token"],
        "updatedAt": "2026-12-01T00:00:00Z",
      ]
      try Data(
        JSONValue.object(["format": 1, "profiles": ["twitter:someone-else": earlier]]).jsonText
          .utf8
      ).write(to: legacyProfiles)

      let result = try await login(
        [
          "twitter", "--emulator", host, "--client-id", EmulatorApps.twitterClientID,
          "--client-secret-env", "MY_X_SECRET",
        ], environment: ["MY_X_SECRET": EmulatorApps.twitterClientSecret])
      #expect(result.status == 0, "\(result.stderr)")
      let identity = try JSONValue(parsing: Array(result.stdout.utf8))
      let subject = try #require(identity["subject"]?.stringValue)
      #expect(
        emulator.requests(to: "twitter", endpoint: "token", grantType: "authorization_code")
          .count == 1, "the code went to the emulator's own token endpoint")
      let saved = try JSONValue(parsing: Array(try Data(contentsOf: profiles)))
      #expect(saved["profiles"]?["twitter:\(subject)"]?["endpoints"] == [:])
    }
  }

  @Test func jwtVerifyFetchesKeysFromTheEmulatorOnlyWithTheFlag() async throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try await ProviderEmulator.run { emulator in
      let host = emulator.host.description
      func part(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }
      let token =
        part(#"{"alg":"RS256","kid":"k1"}"#) + "." + part(#"{"exp":4102444800}"#) + ".AAAA"
      // A closed loopback port: without the emulator nothing answers, and nothing leaves.
      let arguments = ["jwt", "verify", "--jwks-url", "http://localhost:9/keys", token]
      let variable = try await run(
        arguments, environment: ["SOCIALLOGIN_EMULATOR_HOST": host])
      #expect(variable.status == 1, "\(variable.stderr)")
      #expect(emulator.requests.isEmpty, "the variable alone moved the keys")
      let flag = try await run(arguments + ["--emulator", host])
      #expect(flag.status == 1, "\(flag.stderr)")
      #expect(emulator.requests.count == 1, "the flag maps the URL onto the emulator")
    }
  }
}
