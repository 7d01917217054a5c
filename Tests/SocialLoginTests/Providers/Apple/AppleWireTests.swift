import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@Suite("Apple on the wire", .heavy, .timeLimit(.minutes(10)))
struct AppleWireTests {
  static let userJSON = #"{"name":{"firstName":"Jane","lastName":"Appleseed"},"email":"j@x.test"}"#

  @Test func theWebLoginAsksForAFormPostAndSendsTheSecret() async throws {
    let fixture = try AppleFixture()
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: AppleFixture.redirectURI)
    let query = Dictionary(
      OAuth2Fixture.query(of: request.url), uniquingKeysWith: { first, _ in first })
    #expect(request.url.path == "/auth/authorize")
    #expect(query["response_mode"] == "form_post")
    #expect(query["response_type"] == "code")
    #expect(query["client_id"] == AppleFixture.webClientID)
    #expect(query["scope"] == "name email")
    #expect(query["nonce"] != nil)
    #expect(query["code_challenge_method"] == "S256")
    let pending = request.pending
    let nonce = try #require(pending.nonce?.revealed)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: nonce))))
    // The browser POSTs code, state, id_token and, the first time, user.
    let body = FormEncoding.encode([
      ("code", "c0de"), ("state", pending.state.revealed), ("id_token", "ignored"),
      ("user", Self.userJSON),
    ])
    let credential = try await fixture.provider.completeAuthorization(
      pending, callback: AuthorizationCallback(formBody: body))
    let form = fixture.form(AppleFixture.tokenPath)
    #expect(form["grant_type"] == "authorization_code")
    #expect(form["code"] == "c0de")
    #expect(form["redirect_uri"] == AppleFixture.redirectURI)
    #expect(form["client_id"] == AppleFixture.webClientID)
    #expect(form["code_verifier"] == pending.codeVerifier?.revealed)
    #expect(
      form["client_secret"]
        == (try await fixture.provider.clientSecret(for: AppleFixture.webClientID)).revealed)
    #expect(credential.refreshToken?.revealed == AppleFixture.refreshToken)
    #expect(credential.extra[AppleProvider.userKey] == Self.userJSON)
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.name == "Jane Appleseed")
    #expect(identity.subject == AppleFixture.subject)
    #expect(identity.emailVerified == true)
  }

  @Test func aLoginWhoseIDTokenCarriesAnotherNonceFails() async throws {
    let fixture = try AppleFixture()
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: AppleFixture.redirectURI)
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: try AppleFixture.idToken(nonce: "other"))))
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(
        request.pending,
        callback: AuthorizationCallback(
          formBody: "code=c&state=\(request.pending.state.revealed)"))
    }
    #expect(error?.joseError?.reason == .nonceMismatch)
  }

  @Test func aNativeCodeIsExchangedAsTheAppWithoutRedirectURI() async throws {
    let fixture = try AppleFixture()
    let appToken = try AppleFixture.idToken(audience: AppleFixture.appClientID, nonce: "raw")
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(
        AppleFixture.tokenBody(
          idToken: try AppleFixture.idToken(audience: AppleFixture.appClientID, nonce: "raw"))))
    let (credential, identity) = try await fixture.provider.exchange(
      authorizationCode: "native-code", identityToken: Secret(appToken), nonce: "raw",
      userName: "Jane")
    let form = fixture.form(AppleFixture.tokenPath)
    #expect(form["redirect_uri"] == nil)
    #expect(form["client_id"] == AppleFixture.appClientID)
    #expect(form["code"] == "native-code")
    #expect(credential.extra[AppleProvider.clientIDKey] == AppleFixture.appClientID)
    #expect(credential.refreshToken?.revealed == AppleFixture.refreshToken)
    #expect(identity.subject == AppleFixture.subject)
    #expect(identity.name == "Jane")
  }

  @Test func aNativeCodeOfAnotherUserIsRefused() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(
        AppleFixture.tokenBody(
          idToken: try AppleFixture.idToken(merging: ["sub": "someone.else"]))))
    let error = await authError {
      _ = try await fixture.provider.exchange(
        authorizationCode: "c", identityToken: Secret(try AppleFixture.idToken(nonce: "n")),
        nonce: "n")
    }
    #expect(error?.code == .invalidToken)
  }

  @Test func refreshKeepsTheRefreshTokenAndSendsTheSecret() async throws {
    let fixture = try AppleFixture()
    let old = try AppleFixture.idToken(nonce: "n")
    let new = try AppleFixture.idToken(merging: ["iat": 1_700_000_100, "exp": 1_700_000_700])
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: new, refreshToken: nil)))
    fixture.clock.advance(by: .seconds(100))
    let outcome = try await fixture.provider.spendRefreshToken(
      AppleFixture.credential(idToken: old))
    #expect(outcome.problem == nil)
    #expect(outcome.credential.refreshToken?.revealed == AppleFixture.refreshToken)
    #expect(outcome.credential.idToken?.revealed == new)
    #expect(outcome.credential.extra[AppleProvider.clientIDKey] == AppleFixture.webClientID)
    let form = fixture.form(AppleFixture.tokenPath)
    #expect(form["grant_type"] == "refresh_token")
    #expect(form["refresh_token"] == AppleFixture.refreshToken)
    #expect(form["client_secret"]?.split(separator: ".").count == 3)
  }

  @Test func aRefreshNamingAnotherUserIsAnIdentityMismatch() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(
        AppleFixture.tokenBody(
          idToken: try AppleFixture.idToken(merging: ["sub": "other"]), refreshToken: nil)))
    let outcome = try await fixture.provider.spendRefreshToken(
      AppleFixture.credential(idToken: try AppleFixture.idToken(nonce: "n")))
    guard case .identityMismatch? = outcome.problem else {
      Issue.record("Expected identityMismatch, got \(String(describing: outcome.problem))")
      return
    }
  }

  @Test func anUnverifiableNewIDTokenKeepsTheTokensAndTheOldIDToken() async throws {
    let fixture = try AppleFixture()
    let old = try AppleFixture.idToken(nonce: "n")
    let forged = TestTokens.hs256(.object(AppleFixture.claims()))
    fixture.stub.on(
      "POST", AppleFixture.tokenPath,
      reply: .json(AppleFixture.tokenBody(idToken: forged, refreshToken: nil)))
    let outcome = try await fixture.provider.spendRefreshToken(
      AppleFixture.credential(idToken: old))
    guard case .unverified? = outcome.problem else {
      Issue.record("Expected unverified, got \(String(describing: outcome.problem))")
      return
    }
    #expect(outcome.credential.idToken?.revealed == old)
    #expect(outcome.credential.accessToken.revealed == AppleFixture.accessToken)
  }

  @Test func revocationSendsTheRefreshTokenWithItsHint() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on("POST", AppleFixture.revokePath, reply: .status(200))
    try await fixture.provider.revoke(
      AppleFixture.credential(idToken: try AppleFixture.idToken(nonce: "n")))
    let form = fixture.form(AppleFixture.revokePath)
    #expect(form["token"] == AppleFixture.refreshToken)
    #expect(form["token_type_hint"] == "refresh_token")
    #expect(form["client_id"] == AppleFixture.webClientID)
    #expect(form["client_secret"] != nil)
  }

  @Test func automaticRefreshRunsAtMostDaily() throws {
    let fixture = try AppleFixture()
    #expect(fixture.provider.automaticRefreshInterval == .seconds(86_400))
    let off = try AppleFixture { $0.automaticRefreshInterval = nil }
    #expect(off.provider.automaticRefreshInterval == nil)
  }
}
