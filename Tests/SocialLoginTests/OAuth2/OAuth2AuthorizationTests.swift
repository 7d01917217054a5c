import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct OAuth2AuthorizationTests {
  @Test func rfc7636AppendixBVector() {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    #expect(PKCE.s256Challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(PKCE.challenge(for: verifier, method: .s256) == PKCE.s256Challenge(for: verifier))
    #expect(PKCE.challenge(for: verifier, method: .plain) == verifier)
    #expect(PKCE.challenge(for: verifier, method: .disabled) == nil)
    #expect(PKCE.isValidVerifier(verifier))
  }

  @Test func verifierValidation() {
    #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
    #expect(PKCE.isValidVerifier(String(repeating: "a", count: 43)))
    #expect(PKCE.isValidVerifier(String(repeating: "~", count: 128)))
    #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
    #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "+"))
    for _ in 0..<50 { #expect(PKCE.isValidVerifier(PKCE.makeVerifier())) }
  }

  @Test func urlCarriesEveryParameterInOrderWithTheExactRedirectURI() throws {
    let fixture = try OAuth2Fixture { configuration in
      configuration.usesNonce = true
      configuration.additionalAuthorizationParameters = [
        URLQueryItem(name: "prompt", value: "consent")
      ]
    }
    let request = try fixture.client.makeAuthorizationRequest(
      redirectURI: OAuth2Fixture.redirectURI,
      additionalParameters: [URLQueryItem(name: "bot_prompt", value: "normal")])
    let url = request.url
    #expect(url.scheme == "https")
    #expect(url.host == "auth.test")
    #expect(url.path == "/authorize")
    let query = OAuth2Fixture.query(of: url)
    #expect(
      query.map(\.0) == [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
        "code_challenge_method", "nonce", "prompt", "bot_prompt",
      ])
    let values = Dictionary(query, uniquingKeysWith: { first, _ in first })
    #expect(values["response_type"] == "code")
    #expect(values["client_id"] == "client-1")
    #expect(values["redirect_uri"] == OAuth2Fixture.redirectURI)
    #expect(values["scope"] == "openid profile")
    #expect(values["code_challenge_method"] == "S256")
    #expect(values["prompt"] == "consent")
    #expect(values["bot_prompt"] == "normal")

    let pending = request.pending
    #expect(pending.provider == "test-idp")
    #expect(pending.redirectURI == OAuth2Fixture.redirectURI)
    #expect(values["state"] == pending.state.revealed)
    #expect(values["nonce"] == pending.nonce?.revealed)
    let verifier = try #require(pending.codeVerifier?.revealed)
    #expect(PKCE.isValidVerifier(verifier))
    #expect(values["code_challenge"] == PKCE.s256Challenge(for: verifier))
    #expect(pending.createdAt == fixture.clock.wallTime)
    #expect(pending.expiresAt == fixture.clock.wallTime.addingTimeInterval(600))
    // The query is form-encoded: `:`/`/`/`?`/`=` of the redirect URI are escaped, spaces are `+`.
    let raw = try #require(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
    #expect(raw.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback%3Ffrom%3Dapp"))
    #expect(raw.contains("scope=openid+profile"))
  }

  @Test func stateAndVerifierAreLongRandomAndUnique() throws {
    let fixture = try OAuth2Fixture()
    var states = Set<String>()
    var verifiers = Set<String>()
    for _ in 0..<200 {
      let pending = try fixture.pending()
      let state = pending.state.revealed
      // 256 bits as unpadded base64url: 43 characters, decodable back to 32 bytes.
      #expect(state.count == 43)
      #expect(try Base64URL.decode(state).count == 32)
      states.insert(state)
      verifiers.insert(pending.codeVerifier?.revealed ?? "")
    }
    #expect(states.count == 200)
    #expect(verifiers.count == 200)
  }

  @Test func noNonceByDefaultPlainAndDisabledPKCE() throws {
    let plain = try OAuth2Fixture { $0.pkce = .plain }
    let plainRequest = try plain.client.makeAuthorizationRequest(redirectURI: "app:/cb")
    let plainQuery = Dictionary(
      OAuth2Fixture.query(of: plainRequest.url), uniquingKeysWith: { first, _ in first })
    #expect(plainQuery["code_challenge_method"] == "plain")
    #expect(plainQuery["code_challenge"] == plainRequest.pending.codeVerifier?.revealed)
    #expect(plainQuery["nonce"] == nil)
    #expect(plainRequest.pending.nonce == nil)

    let disabled = try OAuth2Fixture { $0.pkce = .disabled }
    let request = try disabled.client.makeAuthorizationRequest(redirectURI: "app:/cb")
    let names = OAuth2Fixture.query(of: request.url).map(\.0)
    #expect(!names.contains("code_challenge"))
    #expect(!names.contains("code_challenge_method"))
    #expect(request.pending.codeVerifier == nil)
  }

  @Test func facebookStyleCommaScopesAndEndpointQueryIsKept() throws {
    let fixture = try OAuth2Fixture(scopes: ["email", "public_profile"]) { configuration in
      configuration.scopeSeparator = ","
      configuration.authorizationEndpoint = URL(string: "https://auth.test/dialog?display=popup")!
    }
    let request = try fixture.client.makeAuthorizationRequest(redirectURI: "https://app.test/cb")
    let query = OAuth2Fixture.query(of: request.url)
    #expect(query.first?.0 == "display")
    #expect(query.first { $0.0 == "scope" }?.1 == "email,public_profile")
    #expect(request.pending.extra[PendingLogin.requestedScopeKey] == "email,public_profile")

    let explicit = try fixture.client.makeAuthorizationRequest(
      redirectURI: "https://app.test/cb", scopes: [])
    #expect(!OAuth2Fixture.query(of: explicit.url).map(\.0).contains("scope"))
  }

  @Test func rejectsExtraParametersThatOverrideTheClientsOwn() throws {
    let fixture = try OAuth2Fixture()
    for name in ["state", "redirect_uri", "code_challenge", "client_id", "response_type"] {
      #expect(throws: AuthError.self) {
        try fixture.client.makeAuthorizationRequest(
          redirectURI: "https://app.test/cb",
          additionalParameters: [URLQueryItem(name: name, value: "evil")])
      }
    }
  }

  @Test func rejectsRelativeOrFragmentRedirectURIs() throws {
    let fixture = try OAuth2Fixture()
    for uri in ["/callback", "https://app.test/cb#frag", ""] {
      do {
        _ = try fixture.client.makeAuthorizationRequest(redirectURI: uri)
        Issue.record("accepted \(uri)")
      } catch {
        #expect(error.code == .configuration)
      }
    }
  }

  @Test func pendingLoginLifetimeFollowsTheInjectedClock() throws {
    let fixture = try OAuth2Fixture { $0.pendingLoginLifetime = 90 }
    fixture.clock.advance(by: .seconds(1000))
    let pending = try fixture.pending()
    #expect(pending.createdAt == Date(timeIntervalSince1970: 1_700_001_000))
    #expect(pending.expiresAt == Date(timeIntervalSince1970: 1_700_001_090))
    #expect(!"\(pending)".contains(pending.state.revealed))
  }
}
