import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("Facebook wire format", .timeLimit(.minutes(2)))
struct FacebookWireTests {
  @Test func dialogIsVersionedWithCommaSeparatedScopesAndState() async throws {
    let fixture = try FacebookFixture { $0.scopes = ["public_profile", "email", "user_friends"] }
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: FacebookFixture.redirectURI)
    let url = request.url
    #expect(url.host == "www.facebook.com")
    #expect(url.path == "/v26.0/dialog/oauth")
    let query = Dictionary(OAuth2Fixture.query(of: url), uniquingKeysWith: { first, _ in first })
    #expect(query["client_id"] == FacebookFixture.appID)
    #expect(query["redirect_uri"] == FacebookFixture.redirectURI)
    #expect(query["scope"] == "public_profile,email,user_friends")
    #expect(query["response_type"] == "code")
    #expect(query["state"] == request.pending.state.revealed)
    #expect((query["state"] ?? "").count >= 43)
    #expect(query["code_challenge"] == nil)
    #expect(request.pending.provider == .facebook)
  }

  @Test func codeExchangeIsAGETWithClientSecretAndTheExactRedirectURI() async throws {
    let fixture = try FacebookFixture()
    fixture.scriptLogin()
    let (pending, callback) = try await fixture.pendingAndCallback()
    let credential = try await fixture.provider.completeAuthorization(pending, callback: callback)

    let exchange = try #require(fixture.stub.requests.first)
    #expect(exchange.method == "GET")
    #expect(exchange.url.host == "graph.facebook.com")
    #expect(exchange.url.path == FacebookFixture.tokenPath)
    #expect(exchange.body == nil)
    #expect(
      FacebookFixture.query(exchange) == [
        "client_id": FacebookFixture.appID, "redirect_uri": FacebookFixture.redirectURI,
        "client_secret": FacebookFixture.appSecret.revealed, "code": "fb-code-1",
      ])
    #expect(credential.accessToken.revealed == FacebookFixture.userToken)
    #expect(credential.refreshToken == nil)
    #expect(credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(5_183_944))
    #expect(credential.scopes == ["email", "public_profile"])
    #expect(credential.extra[FacebookProvider.dataAccessExpiresAtKey] == "1707776000")
  }

  @Test func inspectionUsesTheAppTokenWithItsProof() async throws {
    let fixture = try FacebookFixture()
    fixture.scriptLogin()
    let (pending, callback) = try await fixture.pendingAndCallback()
    _ = try await fixture.provider.completeAuthorization(pending, callback: callback)
    let debug = try #require(
      fixture.stub.requests.first { $0.url.path == FacebookFixture.debugPath })
    let query = FacebookFixture.query(debug)
    #expect(debug.method == "GET")
    #expect(query["input_token"] == FacebookFixture.userToken)
    #expect(query["access_token"] == "1234567890|fb-app-SECRET")
    #expect(query["appsecret_proof"] == FacebookFixture.proofs["1234567890|fb-app-SECRET"])
  }

  @Test func missingExpiresInTakesDebugTokenExpiryAndZeroMeansNever() async throws {
    let never = try FacebookFixture()
    never.scriptLogin(expiresIn: nil, expiresAt: 0)
    let (pending, callback) = try await never.pendingAndCallback()
    let forever = try await never.provider.completeAuthorization(pending, callback: callback)
    #expect(forever.expiresAt == nil)
    #expect(forever.isValid(at: .distantFuture, minimumTTL: 0))

    let dated = try FacebookFixture()
    dated.scriptLogin(expiresIn: nil, expiresAt: 1_705_000_000)
    let (pending2, callback2) = try await dated.pendingAndCallback()
    let credential = try await dated.provider.completeAuthorization(pending2, callback: callback2)
    #expect(credential.expiresAt == Date(timeIntervalSince1970: 1_705_000_000))
  }

  @Test func longLivedExchangeSendsFbExchangeToken() async throws {
    let fixture = try FacebookFixture { $0.exchangesForLongLivedToken = true }
    fixture.stub.on(
      "GET", FacebookFixture.tokenPath, reply: .json(FacebookFixture.tokenBody(expiresIn: 3600)))
    fixture.stub.on(
      "GET", FacebookFixture.tokenPath,
      reply: .json(FacebookFixture.tokenBody(FacebookFixture.longLivedToken)))
    fixture.stub.on("GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.debugBody()))
    let (pending, callback) = try await fixture.pendingAndCallback()
    let credential = try await fixture.provider.completeAuthorization(pending, callback: callback)

    let exchanges = fixture.stub.requests.filter { $0.url.path == FacebookFixture.tokenPath }
    #expect(exchanges.count == 2)
    #expect(
      FacebookFixture.query(exchanges.last) == [
        "grant_type": "fb_exchange_token", "client_id": FacebookFixture.appID,
        "client_secret": FacebookFixture.appSecret.revealed,
        "fb_exchange_token": FacebookFixture.userToken,
      ])
    #expect(credential.accessToken.revealed == FacebookFixture.longLivedToken)
    let debug = fixture.stub.requests.first { $0.url.path == FacebookFixture.debugPath }
    #expect(FacebookFixture.query(debug)["input_token"] == FacebookFixture.longLivedToken)
  }

  @Test func meAsksForExplicitFieldsWithAppSecretProof() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on("GET", FacebookFixture.mePath, reply: .json(FacebookFixture.meBody))
    let identity = try await fixture.provider.fetchIdentity(
      for: Credential(accessToken: Secret(FacebookFixture.userToken)))
    let me = try #require(fixture.stub.requests.first)
    #expect(
      FacebookFixture.query(me) == [
        "fields": "id,name,email,picture", "access_token": FacebookFixture.userToken,
        "appsecret_proof": FacebookFixture.proofs[FacebookFixture.userToken] ?? "?",
      ])
    #expect(identity.provider == .facebook)
    #expect(identity.subject == "10001")
    #expect(identity.name == "Ada Lovelace")
    #expect(identity.email == "ada@example.com")
    #expect(identity.pictureURL?.absoluteString == "https://platform-lookaside.fbsbx.com/p/10001")
  }

  @Test func appSecretProofMatchesAnIndependentHMAC() {
    for (token, proof) in FacebookFixture.proofs {
      #expect(
        FacebookProvider.appSecretProof(for: Secret(token), appSecret: FacebookFixture.appSecret)
          == proof)
    }
  }

  @Test func cancelledDialogIsATypedUserCancel() async throws {
    let fixture = try FacebookFixture()
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: FacebookFixture.redirectURI)
    let callback = AuthorizationCallback(parameters: [
      URLQueryItem(name: "error_reason", value: "user_denied"),
      URLQueryItem(name: "error", value: "access_denied"),
      URLQueryItem(name: "error_description", value: "Permissions error"),
      URLQueryItem(name: "state", value: request.pending.state.revealed),
    ])
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(request.pending, callback: callback)
    }
    #expect(error?.code == .accessDenied)
    #expect(error?.oauth?.error == "access_denied")
    #expect(error?.message.contains("user_denied") == true)
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func usedCodeIsAProviderErrorWithGraphCode() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.tokenPath,
      reply: .json(
        #"{"error":{"message":"This authorization code has been used.","type":"OAuthException","code":100,"error_subcode":36009,"fbtrace_id":"Ab1"}}"#,
        status: 400))
    let (pending, callback) = try await fixture.pendingAndCallback()
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(pending, callback: callback)
    }
    #expect(error?.code == .providerError)
    #expect(error?.providerCode == "100")
    #expect(error?.providerSubcode == "36009")
    expectNoSecrets(error, [FacebookFixture.appSecret.revealed, "fb-code-1"])
  }

  @Test func tokenOfAnotherAppIsRejectedAtLogin() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on("GET", FacebookFixture.tokenPath, reply: .json(FacebookFixture.tokenBody()))
    fixture.stub.on(
      "GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.debugBody(appID: "555")))
    let (pending, callback) = try await fixture.pendingAndCallback()
    let error = await authError {
      _ = try await fixture.provider.completeAuthorization(pending, callback: callback)
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("another app") == true)
  }

  @Test func revokeDeletesPermissionsWithProof() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on("DELETE", FacebookFixture.permissionsPath, reply: .json(#"{"success":true}"#))
    try await fixture.provider.revoke(Credential(accessToken: Secret(FacebookFixture.userToken)))
    let request = try #require(fixture.stub.requests.first)
    #expect(request.method == "DELETE")
    #expect(
      FacebookFixture.query(request)["appsecret_proof"]
        == FacebookFixture.proofs[FacebookFixture.userToken])

    fixture.stub.on("DELETE", FacebookFixture.permissionsPath, reply: .json(#"{"success":false}"#))
    let error = await authError {
      try await fixture.provider.revoke(Credential(accessToken: Secret(FacebookFixture.userToken)))
    }
    #expect(error?.code == .invalidResponse)
  }

  @Test func endpointsAreNamedOverridableAndMappedOntoTheEmulator() throws {
    #expect(
      FacebookConfiguration.endpointNames == [
        "dialog", "access_token", "debug_token", "me", "jwks", "device_login",
        "device_login_status",
      ])
    var configuration = try FacebookConfiguration(
      appID: "1", appSecret: "s", environment: ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"])
    #expect(configuration.graphAPIVersion == "v26.0")
    #expect(
      configuration.meEndpoint.absoluteString == "http://127.0.0.1:9199/graph.facebook.com/v26.0/me"
    )
    #expect(
      configuration.dialogEndpoint.absoluteString
        == "http://127.0.0.1:9199/www.facebook.com/v26.0/dialog/oauth")
    let override = try #require(URL(string: "http://127.0.0.1:7000/debug"))
    try configuration.setEndpoint("debug_token", to: override)
    #expect(configuration.debugTokenEndpoint == override)
    #expect(throws: AuthError.self) {
      try configuration.setEndpoint("userinfo", to: override)
    }
    #expect(throws: AuthError.self) {
      try configuration.setEndpoint("me", to: try #require(URL(string: "file:///etc/passwd")))
    }
    #expect(throws: AuthError.self) {
      _ = try FacebookConfiguration(
        appID: "1", appSecret: "s", graphAPIVersion: "25", environment: [:])
    }
    #expect(throws: AuthError.self) {
      _ = try FacebookConfiguration(
        appID: "1", appSecret: "s", environment: ["SOCIALLOGIN_EMULATOR_HOST": "nonsense"])
    }
  }
}
