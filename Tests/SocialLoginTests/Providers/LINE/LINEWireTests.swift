import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("LINE wire format", .timeLimit(.minutes(2)))
struct LINEWireTests {
  @Test func authorizeCarriesStateNoncePKCEAndPrompts() async throws {
    let fixture = try LINEFixture {
      $0.prompt = "consent"
      $0.botPrompt = .aggressive
      $0.uiLocales = "ja-JP"
    }
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: LINEFixture.redirectURI)
    #expect(request.url.host == "access.line.me")
    #expect(request.url.path == "/oauth2/v2.1/authorize")
    let query = LINEFixture.query(request.url)
    let verifier = try #require(request.pending.codeVerifier?.revealed)
    #expect(query["response_type"] == "code")
    #expect(query["client_id"] == LINEFixture.channelID)
    #expect(query["redirect_uri"] == LINEFixture.redirectURI)
    #expect(query["scope"] == "profile openid email")
    #expect(query["state"] == request.pending.state.revealed)
    #expect(query["nonce"] == request.pending.nonce?.revealed)
    #expect(query["nonce"] != nil)
    #expect(query["code_challenge_method"] == "S256")
    #expect(query["code_challenge"] == PKCE.challenge(for: verifier, method: .s256))
    #expect(query["prompt"] == "consent")
    #expect(query["bot_prompt"] == "aggressive")
    #expect(query["ui_locales"] == "ja-JP")
  }

  @Test func codeExchangePostsTheVerifierAndVerifiesTheHS256IDToken() async throws {
    let fixture = try LINEFixture { $0.botPrompt = .normal }
    let (request, callback) = try await fixture.begin(extra: [
      URLQueryItem(name: "friendship_status_changed", value: "true")
    ])
    let nonce = try #require(request.pending.nonce?.revealed)
    fixture.stub.on(
      "POST", LINEFixture.tokenPath,
      reply: .json(LINEFixture.tokenBody(idToken: LINEFixture.hs256(nonce: nonce))))
    let credential = try await fixture.provider.completeAuthorization(
      request.pending, callback: callback)

    let exchange = try #require(fixture.stub.requests.first)
    #expect(exchange.method == "POST")
    #expect(exchange.url.absoluteString == "https://api.line.me/oauth2/v2.1/token")
    #expect(exchange.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(exchange.headers["Authorization"] == nil)
    #expect(
      OAuth2Fixture.form(exchange) == [
        "grant_type": "authorization_code", "code": "line-code-1",
        "redirect_uri": LINEFixture.redirectURI,
        "code_verifier": request.pending.codeVerifier?.revealed ?? "?",
        "client_id": LINEFixture.channelID,
        "client_secret": LINEFixture.channelSecret.revealed,
      ])
    #expect(credential.accessToken.revealed == LINEFixture.accessToken)
    #expect(credential.refreshToken?.revealed == LINEFixture.refreshToken)
    #expect(credential.tokenType == "bearer")
    #expect(credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(2_592_000))
    #expect(credential.extra[LINEProvider.friendshipStatusChangedKey] == "true")
    #expect(fixture.stub.requestCount(path: LINEFixture.certsPath) == 0)
  }

  @Test(
    "HS256 ID tokens at login that must be rejected",
    arguments: [
      ("wrong audience", ["aud": "1656999999"] as [String: JSONValue]),
      ("wrong issuer", ["iss": "https://access.line.me.evil.test"]),
      ("expired", ["iat": 1_699_990_000, "exp": 1_699_993_600]),
      ("wrong nonce", ["nonce": "forged-nonce"]),
    ])
  func loginRejectsBadIDTokens(name: String, claims: [String: JSONValue]) async throws {
    let fixture = try LINEFixture()
    let (request, callback) = try await fixture.begin()
    let nonce = try #require(request.pending.nonce?.revealed)
    fixture.stub.on(
      "POST", LINEFixture.tokenPath,
      reply: .json(LINEFixture.tokenBody(idToken: LINEFixture.hs256(nonce: nonce, merging: claims)))
    )
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: callback)
    }
    #expect(error?.code == .invalidToken, "\(name)")
  }

  @Test func idTokenSignedWithAnotherSecretIsRejected() async throws {
    let fixture = try LINEFixture()
    let (request, callback) = try await fixture.begin()
    let nonce = try #require(request.pending.nonce?.revealed)
    let forged = LINEFixture.hs256(nonce: nonce, secret: "another-channel-secret-value-xyz")
    fixture.stub.on(
      "POST", LINEFixture.tokenPath, reply: .json(LINEFixture.tokenBody(idToken: forged)))
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: callback)
    }
    #expect(error?.joseError?.reason == .signatureInvalid)
  }

  @Test func missingIDTokenWithOpenIDIsAnError() async throws {
    let fixture = try LINEFixture()
    let (request, callback) = try await fixture.begin()
    fixture.stub.on(
      "POST", LINEFixture.tokenPath, reply: .json(LINEFixture.tokenBody(idToken: nil)))
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: callback)
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test func callbackErrorsKeepLINEsUpperCaseCodes() async throws {
    let fixture = try LINEFixture()
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: LINEFixture.redirectURI)
    let state = URLQueryItem(name: "state", value: request.pending.state.revealed)
    let invalid = AuthorizationCallback(parameters: [
      URLQueryItem(name: "error", value: "INVALID_REQUEST"),
      URLQueryItem(name: "error_description", value: "'state' is not specified"), state,
    ])
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: invalid)
    }
    #expect(error?.code == .providerError)
    #expect(error?.oauth?.error == "INVALID_REQUEST")
    let denied = AuthorizationCallback(parameters: [
      URLQueryItem(name: "error", value: "access_denied"),
      URLQueryItem(name: "error_description", value: "The user has denied the approval"), state,
    ])
    let cancel = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: denied)
    }
    #expect(cancel?.code == .accessDenied)
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func refreshDoesNotRotateAndKeepsTheIDToken() async throws {
    let fixture = try LINEFixture()
    let old = Credential(
      accessToken: "old-access", refreshToken: Secret(LINEFixture.refreshToken),
      idToken: "old.id.token", scopes: ["profile", "openid"],
      extra: [LINEProvider.friendshipStatusChangedKey: "false"])
    fixture.stub.on(
      "POST", LINEFixture.tokenPath,
      reply: .json(
        #"{"token_type":"Bearer","scope":"profile openid","access_token":"new-access","expires_in":2592000,"refresh_token":"\#(LINEFixture.refreshToken)"}"#
      ))
    let refreshed = try await fixture.provider.refresh(old)
    #expect(
      OAuth2Fixture.form(fixture.stub.requests.first) == [
        "grant_type": "refresh_token", "refresh_token": LINEFixture.refreshToken,
        "client_id": LINEFixture.channelID, "client_secret": LINEFixture.channelSecret.revealed,
      ])
    #expect(refreshed.accessToken.revealed == "new-access")
    #expect(refreshed.refreshToken?.revealed == LINEFixture.refreshToken)
    #expect(refreshed.idToken?.revealed == "old.id.token")
    #expect(refreshed.extra == old.extra)
    #expect(!fixture.provider.capabilities.contains(.rotatesRefreshTokens))
  }

  @Test func mobileChannelsRefreshWithoutTheSecret() async throws {
    let fixture = try LINEFixture { $0.sendsClientSecretOnRefresh = false }
    fixture.stub.on(
      "POST", LINEFixture.tokenPath, reply: .json(LINEFixture.tokenBody(idToken: nil)))
    _ = try await fixture.provider.refresh(
      Credential(accessToken: "a", refreshToken: Secret(LINEFixture.refreshToken)))
    let form = OAuth2Fixture.form(fixture.stub.requests.first)
    #expect(form["client_id"] == LINEFixture.channelID)
    #expect(form["client_secret"] == nil)
  }

  @Test func profileUsesBearerAndTheIDTokenAddsEmail() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on("GET", LINEFixture.profilePath, reply: .json(LINEFixture.profileBody))
    let idToken = LINEFixture.hs256(nonce: "n")
    let identity = try await fixture.provider.fetchIdentity(
      for: Credential(
        accessToken: Secret(LINEFixture.accessToken), idToken: Secret(idToken),
        extra: [LINEProvider.friendshipStatusChangedKey: "true"]))
    let request = try #require(
      fixture.stub.requests.first { $0.url.path == LINEFixture.profilePath })
    #expect(request.method == "GET")
    #expect(request.url.absoluteString == "https://api.line.me/v2/profile")
    #expect(request.headers["Authorization"] == "Bearer \(LINEFixture.accessToken)")
    #expect(identity.provider == .line)
    #expect(identity.subject == LINEFixture.userID)
    #expect(identity.name == "Brown")
    #expect(identity.email == "taro@example.jp")
    #expect(identity.pictureURL?.absoluteString == "https://profile.line-scdn.net/abcdefghijklmn")
    #expect(identity.rawClaims["statusMessage"] == "Hello, LINE!")
    #expect(identity.rawClaims["friendship_status_changed"] == true)
  }

  /// LINE's refresh sends no new ID token, so the stored one outlives its `exp` (and maybe
  /// its key): it was verified when stored, and still names the user and their email.
  @Test func theStoredIDTokenStillAddsEmailAfterItExpired() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on("GET", LINEFixture.profilePath, reply: .json(LINEFixture.profileBody))
    let idToken = LINEFixture.hs256(nonce: "n")
    fixture.clock.advance(by: .seconds(7 * 86_400))
    let identity = try await fixture.provider.fetchIdentity(
      for: Credential(accessToken: Secret(LINEFixture.accessToken), idToken: Secret(idToken)))
    #expect(identity.subject == LINEFixture.userID)
    #expect(identity.email == "taro@example.jp")
  }

  @Test func profileOfAnotherUserThanTheIDTokenIsRejected() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on("GET", LINEFixture.profilePath, reply: .json(LINEFixture.profileBody))
    let idToken = LINEFixture.hs256(nonce: "n", merging: ["sub": "U000other"])
    let error = await authError {
      _ = try await fixture.provider.fetchIdentity(
        for: Credential(accessToken: "a", idToken: Secret(idToken)))
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test func revokeSendsAccessTokenAndAcceptsAnEmpty200() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on("POST", LINEFixture.revokePath, reply: .status(200))
    try await fixture.provider.revoke(Credential(accessToken: Secret(LINEFixture.accessToken)))
    let request = try #require(fixture.stub.requests.first)
    #expect(request.url.absoluteString == "https://api.line.me/oauth2/v2.1/revoke")
    #expect(
      OAuth2Fixture.form(request) == [
        "access_token": LINEFixture.accessToken, "client_id": LINEFixture.channelID,
        "client_secret": LINEFixture.channelSecret.revealed,
      ])
    fixture.stub.on(
      "POST", LINEFixture.revokePath,
      reply: .json(
        #"{"error":"invalid_client","error_description":"client authentication failed"}"#,
        status: 400))
    let error = await authError {
      try await fixture.provider.revoke(Credential(accessToken: Secret(LINEFixture.accessToken)))
    }
    #expect(error?.oauth?.error == "invalid_client")
    expectNoSecrets(error, [LINEFixture.accessToken, LINEFixture.channelSecret.revealed])
  }

  @Test func endpointsAreNamedOverridableAndMappedOntoTheEmulator() throws {
    #expect(
      LINEConfiguration.endpointNames == [
        "authorize", "token", "verify", "profile", "revoke", "jwks", "channel_token",
      ])
    var configuration = try LINEConfiguration(
      channelID: "1", channelSecret: "s",
      environment: ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"])
    #expect(
      configuration.tokenEndpoint.absoluteString
        == "http://127.0.0.1:9199/api.line.me/oauth2/v2.1/token")
    #expect(
      configuration.authorizeEndpoint.absoluteString
        == "http://127.0.0.1:9199/access.line.me/oauth2/v2.1/authorize")
    #expect(configuration.jwksEndpoint.path == "/api.line.me/oauth2/v2.1/certs")
    let override = try #require(URL(string: "http://127.0.0.1:7000/profile"))
    try configuration.setEndpoint("profile", to: override)
    #expect(configuration.profileEndpoint == override)
    #expect(throws: AuthError.self) { try configuration.setEndpoint("userinfo", to: override) }
    #expect(throws: AuthError.self) {
      _ = try LINEConfiguration(channelID: "", channelSecret: "s", environment: [:])
    }
  }
}
