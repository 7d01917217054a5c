import CLITestProcess
import Foundation
import SocialLogin
import Testing

/// `token`, `status` and `logout` against a store the test populates, with the session's
/// remembered profile pointing at a real OpenID provider on 127.0.0.1.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .timeLimit(.minutes(5)))
struct CLISessionTests {
  static let clientSecret = "cli-test-client-secret-\(UUID().uuidString)"
  static let secretVariable = "CLI_TEST_CLIENT_SECRET"
  var environment: [String: String] { [Self.secretVariable: Self.clientSecret] }

  /// Writes a session into `store` (the CLI's default store unless given).
  func store(
    _ cli: CLIHarness, subject: String = "user-1", provider: ProviderID = "oidc",
    accessToken: String = "at-0", refreshToken: String? = "rt-0", expiresIn: TimeInterval,
    directory: URL? = nil
  ) async throws {
    let store = try FileSessionStore(directory: directory ?? cli.defaultStore)
    let credential = Credential(
      accessToken: Secret(accessToken), refreshToken: refreshToken.map { Secret($0) },
      expiresAt: Date().addingTimeInterval(expiresIn))
    let identity = Identity(
      provider: provider, subject: subject, name: "Name of \(subject)",
      email: "\(subject)@example.com")
    _ = try await store.save(
      StoredSession(key: identity.sessionKey, credential: credential, identity: identity),
      expectedVersion: nil)
  }

  /// Writes the profile the CLI remembers after `login oidc` (the file format is part of the
  /// CLI's contract: no secret, only the variable's name).
  func remember(
    _ cli: CLIHarness, issuer: String, subjects: [String] = ["user-1"], directory: URL? = nil
  ) throws {
    let store = directory ?? cli.defaultStore
    var profiles: [String: JSONValue] = [:]
    for subject in subjects {
      profiles["oidc:\(subject)"] = [
        "kind": "oidc", "clientID": "cli-client",
        "clientSecretVariable": .string(Self.secretVariable), "usesEmulatorApp": false,
        "issuer": .string(issuer), "scopes": [], "oauth1": false, "endpoints": [:],
        "updatedAt": "2026-12-01T00:00:00Z",
      ]
    }
    let file = store.deletingLastPathComponent()
      .appendingPathComponent("\(store.lastPathComponent).profiles.json")
    try Data(JSONValue.object(["format": 1, "profiles": .object(profiles)]).jsonText.utf8)
      .write(to: file)
  }

  func storedCredential(_ cli: CLIHarness, subject: String = "user-1") async throws
    -> Credential?
  {
    let store = try FileSessionStore(directory: cli.defaultStore)
    return try await store.load(SessionKey(provider: "oidc", subject: subject))?.credential
  }

  @Test func tokenPrintsAValidStoredTokenWithoutContactingTheProvider() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: 3600)
    let result = try await cli.run(["token"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "at-0\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func tokenRefreshesAnExpiredSessionAndPersistsTheRotatedTokens() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: -10)
    try remember(cli, issuer: server.issuer)

    let first = try await cli.run(["token", "--provider", "oidc"], environment: environment)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "at-1\n")
    let refreshes = server.recorded(path: "/token")
    #expect(refreshes.count == 1)
    #expect(refreshes.first?.form["grant_type"] == "refresh_token")
    #expect(refreshes.first?.form["refresh_token"] == "rt-0")
    let basic = Data("cli-client:\(Self.clientSecret)".utf8).base64EncodedString()
    #expect(refreshes.first?.authorization == "Basic \(basic)", "the secret came from the env")
    let stored = try await storedCredential(cli)
    #expect(stored?.accessToken.revealed == "at-1")
    #expect(stored?.refreshToken?.revealed == "rt-1")

    // The refreshed token is served from the store next time: no second refresh.
    let second = try await cli.run(["token"], environment: environment)
    #expect(second.stdout == "at-1\n")
    #expect(server.recorded(path: "/token").count == 1)

    #expect(try cli.files(containing: Self.clientSecret).isEmpty, "the secret reached a file")
    for output in [first.stdout, first.stderr, second.stdout, second.stderr] {
      #expect(!output.contains(Self.clientSecret))
    }
  }

  @Test func minTTLRefreshesATokenThatExpiresTooSoon() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: 600)
    try remember(cli, issuer: server.issuer)
    let relaxed = try await cli.run(["token", "--min-ttl", "60"], environment: environment)
    #expect(relaxed.stdout == "at-0\n")
    let strict = try await cli.run(["token", "--min-ttl=3600"], environment: environment)
    #expect(strict.status == 0, "\(strict.stderr)")
    #expect(strict.stdout == "at-1\n")
    #expect(server.recorded(path: "/token").count == 1)
  }

  @Test func aSignedOutSessionExitsOneWithTheProvidersReasonAndIsForgotten() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    server.setMode(.invalidGrant)
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: -10)
    try remember(cli, issuer: server.issuer)
    let result = try await cli.run(["token"], environment: environment)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrIsOneLine, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("error: signed_out: "), "\(result.stderr)")
    #expect(result.stderr.contains("invalid_grant"), "names the provider's code")
    #expect(try await storedCredential(cli) == nil)
    let status = try await cli.run(["status", "--json"])
    #expect(try JSONValue(parsing: Array(status.stdout.utf8)) == [])
    let profiles = try String(
      contentsOf: cli.home.appendingPathComponent("sociallogin/sessions/cli.profiles"),
      encoding: .utf8)
    #expect(!profiles.contains("oidc:user-1"), "the profile of the ended session is removed")
    // Issue 34: the next command that names the session says why it ended.
    let again = try await cli.run(
      ["token", "--provider", "oidc", "--subject", "user-1"], environment: environment)
    #expect(again.status == 1)
    #expect(again.stderr.contains("was signed out (refresh token"), "\(again.stderr)")
  }

  @Test func severalSessionsForAProviderNeedASubject() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, subject: "user-1", accessToken: "at-u1", expiresIn: 3600)
    try await store(cli, subject: "user-2", accessToken: "at-u2", expiresIn: 3600)
    try await store(
      cli, subject: "42", provider: .twitter, accessToken: "at-x", expiresIn: 3600)

    let ambiguous = try await cli.run(["token", "--provider", "oidc"])
    #expect(ambiguous.status == 2)
    #expect(ambiguous.stderr.contains("oidc:user-1, oidc:user-2"), "\(ambiguous.stderr)")
    #expect(ambiguous.stderr.contains("--subject"))
    let all = try await cli.run(["token"])
    #expect(all.status == 2)
    #expect(all.stderr.contains("--provider and --subject"))

    let chosen = try await cli.run(["token", "--provider", "oidc", "--subject", "user-2"])
    #expect(chosen.stdout == "at-u2\n")
    // One session for the provider: no --subject needed; `x` names the same provider.
    let x = try await cli.run(["token", "--provider", "x"])
    #expect(x.status == 0, "\(x.stderr)")
    #expect(x.stdout == "at-x\n")

    let none = try await cli.run(["token", "--provider", "line"])
    #expect(none.status == 1)
    #expect(none.stderr.contains("no stored session for provider line"), "\(none.stderr)")
    #expect(!none.stderr.contains("did you mean"), "\(none.stderr)")
    #expect(none.stdout.isEmpty)

    // Issue 33: a provider that does not exist is not offered as a login to run.
    let typo = try await cli.run(["token", "--provider", "fb"])
    #expect(typo.status == 1)
    #expect(
      typo.stderr.contains("for provider fb (did you mean 'facebook'?)"), "\(typo.stderr)")
    #expect(typo.stderr.contains("'sociallogin login facebook'"), "\(typo.stderr)")
  }

  @Test func statusListsEverySessionAsATableAndAsJSON() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let directory = cli.home.appendingPathComponent("elsewhere/store", isDirectory: true)
    try await store(cli, subject: "user-1", expiresIn: 3600, directory: directory)
    try await store(cli, subject: "user-2", expiresIn: -100, directory: directory)
    try await store(
      cli, subject: "user-3", refreshToken: nil, expiresIn: -100, directory: directory)
    try remember(cli, issuer: "http://127.0.0.1:9", subjects: ["user-1"], directory: directory)

    let json = try await cli.run(["status", "--json", "--store", directory.path])
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).arrayValue)
    #expect(rows.count == 3)
    #expect(rows.map { $0["subject"] } == ["user-1", "user-2", "user-3"])
    #expect(rows.map { $0["state"] } == ["valid", "refreshable", "expired"])
    #expect(rows.map { $0["profile"] } == [true, false, false])
    #expect(rows[0]["provider"] == "oidc")
    #expect(rows[0]["name"] == "Name of user-1")
    let expiry = try #require(rows[0]["expires_at"]?.stringValue)
    let parsed = try #require(try? Date(expiry, strategy: .iso8601))
    #expect(abs(parsed.timeIntervalSinceNow - 3600) < 120)

    let table = try await cli.run(["status", "--store", directory.path])
    let lines = table.stdout.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.first?.hasPrefix("PROVIDER") == true)
    #expect(lines[1].contains("user-1") && lines[1].contains("valid"))
    #expect(lines[3].contains("expired (login settings not remembered)"))
    #expect(!table.stdout.contains("no profile"))

    // The default store is still empty: --store chose the directory.
    let empty = try await cli.run(["status"])
    #expect(empty.stdout.isEmpty)
    #expect(empty.stderr.contains("No sessions"))
  }

  @Test func logoutForgetsTheSessionWithoutContactingTheProvider() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: 3600)
    try remember(cli, issuer: server.issuer)
    let result = try await cli.run(["logout", "--provider", "oidc"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("Signed out of oidc:user-1"))
    #expect(try await storedCredential(cli) == nil)
    #expect(server.recorded.isEmpty)
    let again = try await cli.run(["logout"])
    #expect(again.status == 1)
  }

  @Test func logoutRevokeRevokesBothTokensAtTheProviderFirst() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: 3600)
    try remember(cli, issuer: server.issuer)
    let result = try await cli.run(["logout", "--revoke"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("Revoked"))
    let revoked = server.recorded(path: "/revoke").map { $0.form["token"] }
    #expect(revoked == ["rt-0", "at-0"])
    #expect(try await storedCredential(cli) == nil)
    #expect(try cli.files(containing: Self.clientSecret).isEmpty)
    #expect(!result.stderr.contains(Self.clientSecret))
  }

  @Test func commandsThatNeedTheProviderSayWhenNoProfileIsRemembered() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: -10)
    let token = try await cli.run(["token"])
    #expect(token.status == 1)
    #expect(token.stderr.contains("does not remember how session oidc:user-1 was made"))
    let logout = try await cli.run(["logout", "--revoke"])
    #expect(logout.status == 1)
    #expect(try await storedCredential(cli) != nil, "nothing was deleted")
  }

  @Test func aRememberedSecretVariableThatIsUnsetIsAUsageError() async throws {
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    try await store(cli, expiresIn: -10)
    try remember(cli, issuer: "http://127.0.0.1:9")
    let result = try await cli.run(["token"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("'\(Self.secretVariable)'"), "\(result.stderr)")
    #expect(try await storedCredential(cli) != nil)
  }

  @Test func providerOIDCSelectsASessionOfAnyIssuer() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let id = ProviderID.oidc(issuer: try #require(URL(string: server.issuer)))
    try await store(cli, provider: id, expiresIn: -10)
    let file = cli.defaultStore.deletingLastPathComponent()
      .appendingPathComponent("sessions.profiles.json")
    let profile: JSONValue = [
      "kind": "oidc", "clientID": "cli-client",
      "clientSecretVariable": .string(Self.secretVariable), "usesEmulatorApp": false,
      "issuer": .string(server.issuer), "scopes": [], "oauth1": false, "endpoints": [:],
      "updatedAt": "2026-12-01T00:00:00Z",
    ]
    try Data(
      JSONValue.object(["format": 1, "profiles": ["\(id.rawValue):user-1": profile]]).jsonText
        .utf8
    ).write(to: file)
    let result = try await cli.run(["token", "--provider", "oidc"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "at-1\n")
    let stored = try await FileSessionStore(directory: cli.defaultStore)
      .load(SessionKey(provider: id, subject: "user-1"))
    #expect(stored?.credential.accessToken.revealed == "at-1")
  }
}

extension CLISessionTests {
  @Test func aDeviceLoginWithAnIssuerWithoutADeviceEndpointExitsTwo() async throws {
    let server = try CLITestOIDCServer()
    defer { server.close() }
    let cli = try CLIHarness()
    defer { cli.cleanUp() }
    let result = try await cli.run(
      ["login", "oidc", "--issuer", server.issuer, "--client-id", "cli", "--device"],
      environment: environment)
    #expect(result.status == 2)
    #expect(result.stderr.contains("device_authorization_endpoint"), "\(result.stderr)")
    #expect(result.stderr.contains(server.issuer))
    #expect(server.recorded(path: "/token").isEmpty)
  }
}
