import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite(
  "Emulator: signed ID tokens (OIDC, LINE ES256, Facebook Limited Login)", .timeLimit(.minutes(5)))
struct EmulatorSigningTests {
  static func oidc(_ emulator: ProviderEmulator, clock: any AuthClock) -> OIDCProvider {
    OIDCProvider(
      id: "oidc",
      configuration: .init(
        issuer: emulator.oidcIssuer, clientID: EmulatorApps.oidcClientID,
        clientSecret: Secret(EmulatorApps.oidcClientSecret), scopes: ["openid", "profile", "email"]),
      clock: clock)
  }

  @Test(arguments: [false, true])
  func oidcLoginRefreshUserinfoVerifyAndRevoke(rs256: Bool) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.oidcSignsWithRS256 = rs256
      let provider = Self.oidc(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login("oidc", using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.subject == "alice")
      #expect(identity.email == "alice@example.test")
      let credential = try #require(await session.credential)
      let idToken = try #require(credential.idToken)
      let header = try CompactJWS(parsing: idToken.revealed).header
      #expect(header.algorithm == (rs256 ? "RS256" : "ES256"))
      let verified = try await provider.verify(.idTokenAcceptingAnyNonce(idToken))
      #expect(verified.identity.subject == "alice")
      clock.advance(by: .seconds(3700))
      let refreshed = try await session.freshAccessToken()
      #expect(refreshed != credential.accessToken.revealed)
      #expect(
        emulator.requests(
          to: ProviderEmulator.oidcProviderID, endpoint: "token", grantType: "refresh_token"
        ).count == 1)
      _ = try await session.signOut(revoke: true)
      #expect(
        emulator.requests(to: ProviderEmulator.oidcProviderID, endpoint: "revocation").allSatisfy {
          $0.status == 200
        })
    }
  }

  @Test func lineES256IDTokenVerifiesAgainstTheServedJWKS() async throws {
    try await ProviderEmulator.run { emulator in
      emulator.lineSignsWithES256 = true
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.line, using: emulator.headlessAgent())
      let idToken = try #require(await session.credential?.idToken)
      let header = try CompactJWS(parsing: idToken.revealed).header
      #expect(header.algorithm == "ES256")
      #expect(header.keyID != nil)
      let verified = try await provider.verify(.idTokenAcceptingAnyNonce(idToken))
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .line))
    }
  }

  @Test func facebookLimitedLoginTokenVerifiesWithNonceAndRejectsAnotherNonce() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.facebook(emulator, clock: SystemAuthClock())
      let token = try await emulator.facebookLimitedLoginToken(nonce: "n-123")
      let verified = try await provider.verify(.idToken(Secret(token), nonce: "n-123"))
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .facebook))
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.idToken(Secret(token), nonce: "other"))
      }
      let foreign = try await emulator.facebookLimitedLoginToken(
        nonce: "n-123", appID: EmulatorApps.facebookOtherAppID)
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.idToken(Secret(foreign), nonce: "n-123"))
      }
    }
  }

  @Test func oidcIntrospectionSaysActiveThenInactiveAfterRevocation() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = Self.oidc(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login("oidc", using: emulator.headlessAgent())
      let token = try await session.freshAccessToken()
      let basic =
        "Basic "
        + Data("\(EmulatorApps.oidcClientID):\(EmulatorApps.oidcClientSecret)".utf8)
        .base64EncodedString()
      let url = emulator.at("/oidc/introspect")
      let active = try await RawHTTP.form(
        url, [("token", token)], headers: ["Authorization": basic])
      #expect(active.json?["active"]?.boolValue == true)
      #expect(active.json?["sub"]?.stringValue == "alice")
      _ = try await session.signOut(revoke: true)
      let inactive = try await RawHTTP.form(
        url, [("token", token)], headers: ["Authorization": basic])
      #expect(inactive.json?["active"]?.boolValue == false)
      // A raw socket: URLSession on Linux stalls on a 401 with `WWW-Authenticate: Basic`.
      let form = "token=\(token)"
      let unauthenticated = await RawSocket.exchange(
        port: emulator.port,
        Array(
          ("POST /oidc/introspect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            + "application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n"
            + form).utf8))
      #expect(RawSocket.status(unauthenticated) == 401)
    }
  }
}
