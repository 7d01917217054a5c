import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// The provider rotates its ID-token signing keys (routine at Google, Okta, Azure, Keycloak,
/// Auth0): sessions signed in before keep refreshing, keep every rotated refresh token, and
/// never send a spent one again.
@Suite("Emulator: signing-key rotation", .timeLimit(.minutes(5)))
struct EmulatorKeyRotationTests {
  /// A transport that remembers every refresh token sent to a token endpoint.
  final class RefreshTokenRecorder: HTTPTransport {
    let base = URLSessionTransport()
    private let sent = Locked<[String]>([])

    var refreshTokens: [String] { sent.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
      let form = FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self))
      if form.contains(where: { $0 == ("grant_type", "refresh_token") }),
        let token = form.first(where: { $0.0 == "refresh_token" })?.1
      {
        sent.withLock { $0.append(token) }
      }
      return try await base.send(request)
    }
  }

  static func keyID(of idToken: Secret?) throws -> String? {
    try CompactJWS(parsing: try #require(idToken).revealed).header.keyID
  }

  @Test(arguments: [false, true])
  func aSessionSignedInBeforeAKeyRotationRefreshesAndNeverReplaysASpentToken(rs256: Bool)
    async throws
  {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.oidcSignsWithRS256 = rs256
      let transport = RefreshTokenRecorder()
      let provider = OIDCProvider(
        id: "oidc",
        configuration: .init(
          issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
          clientSecret: Secret(EmulatorApps.oidcClientSecret),
          scopes: ["openid", "profile", "email"]),
        transport: transport, clock: clock)
      let store = InMemorySessionStore()
      let client = try LoginClient(providers: [provider], store: store, clock: clock)
      let session = try await client.login("oidc", using: emulator.headlessAgent())
      let login = try #require(await session.credential)
      let oldKeyID = try #require(try Self.keyID(of: login.idToken))

      let rotated = emulator.rotateSigningKeys()
      let newKeyID = try #require(rotated[rs256 ? .rs256 : .es256])
      #expect(newKeyID != oldKeyID)
      let jwks = try await RawHTTP.send("GET", emulator.at("/oidc/jwks"))
      #expect(!jwks.text.contains(oldKeyID), "the old key left the JWKS")
      #expect(jwks.text.contains(newKeyID))

      // The stored ID token's key is gone; who the session is does not depend on it.
      let identity = try await provider.fetchIdentity(for: login)
      #expect(identity.subject == "alice")

      clock.advance(by: .seconds(3700))
      let first = try await session.freshAccessToken()
      #expect(first != login.accessToken.revealed)
      #expect(session.currentState == .signedIn)
      let afterFirst = try #require(await session.credential)
      #expect(try Self.keyID(of: afterFirst.idToken) == newKeyID)
      #expect(afterFirst.refreshToken != login.refreshToken)
      #expect(try await store.load(session.key)?.credential.refreshToken == afterFirst.refreshToken)

      clock.advance(by: .seconds(3700))
      _ = try await session.freshAccessToken()
      #expect(session.currentState == .signedIn)
      let refreshTokens = [login.refreshToken, afterFirst.refreshToken].compactMap(\.?.revealed)
      #expect(transport.refreshTokens == refreshTokens, "the spent token is never sent again")
      let refreshes = emulator.requests(
        to: ProviderEmulator.oidcProviderID, endpoint: "token", grantType: "refresh_token")
      #expect(refreshes.map(\.status) == [200, 200])
    }
  }

  /// The `kid` of the first key of a JWKS answer.
  static func firstKeyID(_ answer: RawHTTP.Answer) -> String? {
    answer.json?["keys"]?.arrayValue?.first?["kid"]?.stringValue
  }

  @Test func theHTTPControlRotatesTheKeysOutOfTheJWKS() async throws {
    try await ProviderEmulator.run { emulator in
      let before = try await RawHTTP.send("GET", emulator.at("/oidc/jwks"))
      let oldKeyID = try #require(Self.firstKeyID(before))
      let answer = try await RawHTTP.json("POST", emulator.at("/_emulator/keys/rotate"), "")
      #expect(answer.status == 200)
      let newKeyID = try #require(answer.json?["es256_kid"]?.stringValue)
      #expect(answer.json?["rs256_kid"]?.stringValue != nil)
      #expect(newKeyID != oldKeyID)
      let after = try await RawHTTP.send("GET", emulator.at("/oidc/jwks"))
      #expect(Self.firstKeyID(after) == newKeyID)
      #expect(!after.text.contains(oldKeyID))
      let lineCerts = try await RawHTTP.send("GET", emulator.at("/api.line.me/oauth2/v2.1/certs"))
      #expect(Self.firstKeyID(lineCerts) == newKeyID)
    }
  }
}
