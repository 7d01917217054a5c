import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// A provider the SDK does not ship, written once as a JSON description: the emulator serves
/// it from that file and the CLI signs in with it, with no code for it anywhere.
@Suite(.oneCLIAtATime, .needsCLIBinary, .timeLimit(.minutes(3)))
struct CLICustomProviderTests {
  static let issuer = "https://id.acme.example"

  /// OpenID Connect with JWKS-signed ID tokens, a userinfo endpoint, rotating refresh tokens
  /// and RFC 7009 revocation.
  static let acme = ProviderDescription(
    id: "acme", displayName: "Acme",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: issuer + "/authorize"),
      ProviderEndpoint(name: "token", production: issuer + "/token", method: .post),
      ProviderEndpoint(name: "keys", production: issuer + "/jwks"),
      ProviderEndpoint(name: "userinfo", production: issuer + "/userinfo"),
      ProviderEndpoint(name: "revoke", production: issuer + "/revoke", method: .post),
    ],
    client: ClientRules(authentication: .clientSecretBasic, secret: .required),
    authorization: AuthorizationRules(defaultScopes: ["openid", "email"]),
    idToken: IDTokenRules(issuers: [issuer]),
    identity: IdentityRules(endpoint: "userinfo"),
    refresh: RefreshRules(rotation: .always),
    revocation: .rfc7009)

  @Test func theEmulatorServesADescriptionFileAndTheCLISignsInWithIt() async throws {
    let home = try CLIProcess.makeHome("cli-custom")
    defer { try? FileManager.default.removeItem(at: home) }
    let file = home.appendingPathComponent("acme.json")
    try JSONEncoder().encode(Self.acme).write(to: file)
    try await ProviderEmulator.run(describing: [Self.acme]) { emulator in
      let host = emulator.host.description
      let login = try await CLIProcess.login(
        ["custom", "--provider-file", file.path, "--emulator", host], home: home)
      #expect(login.result.status == 0, "\(login.result.stderr)")
      let identity = try JSONValue(parsing: Array(login.result.stdout.utf8))
      #expect(identity["provider"]?.stringValue == "acme")
      #expect(identity["subject"]?.stringValue == EmulatedUser.alice.subject(at: "acme"))
      // The derived default app, its secret sent by HTTP Basic as the file says (not in the
      // form), which the emulator accepted.
      let exchange = try #require(emulator.requests(to: "acme", endpoint: "token").last)
      #expect(exchange.status == 200)
      #expect(exchange.form["client_secret"] == nil)
      let authorize = try #require(emulator.requests(to: "acme", endpoint: "authorize").last)
      #expect(authorize.query["client_id"] == "emulator-acme-client")

      let run = { (arguments: [String]) in
        try await CLIProcess.run(arguments, home: home)
      }
      let token = try await run(["token", "--provider", "acme"])
      #expect(token.status == 0, "\(token.stderr)")
      let fresh = try await run(["token", "--provider", "acme", "--force-refresh"])
      #expect(fresh.status == 0, "\(fresh.stderr)")
      #expect(fresh.stdout != token.stdout, "a refreshed token")
      let logout = try await run(["logout", "--provider", "acme", "--revoke"])
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(emulator.requests(to: "acme", endpoint: "revoke").isEmpty == false)
    }
  }

  @Test func anEmulatorWithoutTheDescriptionDoesNotServeIt() async throws {
    try await ProviderEmulator.run { emulator in
      let url = try #require(
        URL(string: emulator.baseURL.absoluteString + "/id.acme.example/jwks"))
      #expect(try await RawHTTP.send("GET", url).status == 404)
    }
  }
}
