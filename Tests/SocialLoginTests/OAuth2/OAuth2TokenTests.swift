import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct OAuth2TokenTests {
  static let tokenJSON =
    #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","#
    + #""scope":"openid profile","id_token":"idt-1","user_id":"u-42"}"#

  @Test func clientSecretBasicEncodesIDAndSecretBeforeBase64() async throws {
    let fixture = try OAuth2Fixture(clientID: "my:client id", clientSecret: "s3:cr et/+%")
    fixture.stub.on("POST", "/token", reply: .json(Self.tokenJSON))
    let pending = try fixture.pending()
    _ = try await fixture.client.exchangeCode("code-1", pending: pending)

    let request = try #require(fixture.stub.requests.last)
    #expect(request.method == "POST")
    #expect(request.url.absoluteString == "https://auth.test/token")
    // base64("my%3Aclient+id:s3%3Acr+et%2F%2B%25"), computed independently with Python.
    #expect(
      request.headers["Authorization"] == "Basic bXklM0FjbGllbnQraWQ6czMlM0FjcitldCUyRiUyQiUyNQ==")
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(request.headers["Accept"] == "application/json")
    let fields = OAuth2Fixture.fields(of: request)
    #expect(fields.map(\.0) == ["grant_type", "code", "redirect_uri", "code_verifier"])
    let form = OAuth2Fixture.form(request)
    #expect(form["grant_type"] == "authorization_code")
    #expect(form["code"] == "code-1")
    #expect(form["redirect_uri"] == OAuth2Fixture.redirectURI)
    #expect(form["code_verifier"] == pending.codeVerifier?.revealed)
  }

  @Test func clientSecretPostPutsIDAndSecretInTheBody() async throws {
    let fixture = try OAuth2Fixture(
      clientID: "my:client id", clientSecret: "s3:cr et/+%", authentication: .clientSecretPost)
    fixture.stub.on("POST", "/token", reply: .json(Self.tokenJSON))
    _ = try await fixture.client.exchangeCode("code-1", pending: try fixture.pending())
    let request = try #require(fixture.stub.requests.last)
    #expect(request.headers["Authorization"] == nil)
    let form = OAuth2Fixture.form(request)
    #expect(form["client_id"] == "my:client id")
    #expect(form["client_secret"] == "s3:cr et/+%")
    #expect(form["code"] == "code-1")
  }

  @Test func publicClientSendsOnlyClientID() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .none)
    fixture.stub.on("POST", "/token", reply: .json(Self.tokenJSON))
    _ = try await fixture.client.exchangeCode("code-1", pending: try fixture.pending())
    let request = try #require(fixture.stub.requests.last)
    #expect(request.headers["Authorization"] == nil)
    let form = OAuth2Fixture.form(request)
    #expect(form["client_id"] == "client-1")
    #expect(form["client_secret"] == nil)
  }

  @Test func missingSecretForConfidentialAuthenticationIsAConfigurationError() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .clientSecretBasic)
    let error = await authError {
      _ = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
    }
    #expect(error?.code == .configuration)
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func parsesTheCredentialAndKeepsRawFields() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/token", reply: .json(Self.tokenJSON))
    let tokens = try await fixture.client.exchangeCode("code-1", pending: try fixture.pending())
    let credential = tokens.credential
    #expect(credential.accessToken == "at-1")
    #expect(credential.refreshToken == "rt-1")
    #expect(credential.idToken == "idt-1")
    #expect(credential.tokenType == "bearer")
    #expect(credential.scopes == ["openid", "profile"])
    #expect(credential.issuedAt == fixture.clock.wallTime)
    #expect(credential.expiresAt == fixture.clock.wallTime.addingTimeInterval(3600))
    #expect(credential.serverTimeOffset == 0)
    #expect(tokens.expiresIn == 3600)
    #expect(tokens.raw["user_id"]?.stringValue == "u-42")
    for text in ["\(tokens)", String(reflecting: tokens)] {
      #expect(!text.contains("at-1") && !text.contains("rt-1") && !text.contains("idt-1"))
    }
    var dumped = ""
    dump(tokens, to: &dumped)
    #expect(!dumped.contains("at-1") && !dumped.contains("rt-1"))
  }

  @Test(
    arguments: [
      (#""expires_in":3600"#, 3600.0),
      (#""expires_in":"3600""#, 3600.0),
      (#""expires_in":" 120 ""#, 120.0),
      (#""expires_in":59.5"#, 59.5),
      (#""expires_in":null"#, nil),
      (#""expires_in":"soon""#, nil),
      (#""expires_in":-5"#, nil),
      (#""expires_in":0"#, nil),
      (#""expires_in":1e300"#, 3_153_600_000),
      (#""no_expiry":true"#, nil),
    ] as [(String, Double?)])
  func expiresInIsANumberANumericStringOrAbsent(member: String, seconds: Double?) async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/token", reply: .json(#"{"access_token":"a","# + member + "}"))
    let tokens = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
    #expect(tokens.expiresIn == seconds)
    #expect(
      tokens.credential.expiresAt == seconds.map { fixture.clock.wallTime.addingTimeInterval($0) })
  }

  @Test(arguments: ["Bearer", "bearer", "BEARER", "DPoP"])
  func tokenTypeIsLowerCased(type: String) async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on(
      "POST", "/token", reply: .json(#"{"access_token":"a","token_type":"\#(type)"}"#))
    let tokens = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
    #expect(tokens.credential.tokenType == type.lowercased())
  }

  @Test func missingTokenTypeAndScopeFallBackToBearerAndTheRequestedScopes() async throws {
    let fixture = try OAuth2Fixture(scopes: ["users.read", "offline.access"])
    fixture.stub.on("POST", "/token", reply: .json(#"{"access_token":"a"}"#))
    let tokens = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
    #expect(tokens.credential.tokenType == "bearer")
    #expect(tokens.credential.scopes == ["users.read", "offline.access"])
    #expect(tokens.credential.expiresAt == nil)
    #expect(tokens.credential.refreshToken == nil)
  }

  @Test func serverDateSetsExpiryOnTheServerClockAndTheOffset() async throws {
    let fixture = try OAuth2Fixture()
    // The local clock reads 2023-11-14T22:13:20Z; the server is 2 minutes ahead.
    fixture.stub.on(
      "POST", "/token",
      reply: .json(
        #"{"access_token":"a","expires_in":3600}"#,
        headers: ["Date": "Tue, 14 Nov 2023 22:15:20 GMT"]))
    let credential = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
      .credential
    #expect(credential.serverTimeOffset == 120)
    #expect(credential.issuedAt == Date(timeIntervalSince1970: 1_700_000_120))
    #expect(credential.expiresAt == Date(timeIntervalSince1970: 1_700_003_720))
    #expect(credential.localExpiresAt == Date(timeIntervalSince1970: 1_700_003_600))
    #expect(credential.isValid(at: fixture.clock.wallTime.addingTimeInterval(3599), minimumTTL: 0))
    #expect(!credential.isValid(at: fixture.clock.wallTime.addingTimeInterval(3601), minimumTTL: 0))
  }

  @Test func serverBehindTheLocalClockGivesANegativeOffset() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on(
      "POST", "/token",
      reply: .json(
        #"{"access_token":"a","expires_in":"60"}"#,
        headers: ["Date": "Tue, 14 Nov 2023 21:13:20 GMT"]))
    let credential = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
      .credential
    #expect(credential.serverTimeOffset == -3600)
    #expect(credential.localExpiresAt == fixture.clock.wallTime.addingTimeInterval(60))
  }

  @Test func formEncodedTokenResponsesAreAccepted() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on(
      "POST", "/token", reply: .form([("access_token", "a"), ("expires", "5183944")]))
    let tokens = try await fixture.client.exchangeCode("c", pending: try fixture.pending())
    #expect(tokens.credential.accessToken == "a")
    #expect(tokens.raw["expires"]?.stringValue == "5183944")
  }

  @Test func refreshSendsClientAuthAndScopeAndKeepsUnrotatedTokens() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on(
      "POST", "/token",
      reply: .json(#"{"access_token":"at-2","token_type":"bearer","expires_in":7200}"#))
    let old = Credential(
      accessToken: "at-1", refreshToken: "rt-1", idToken: "idt-1", scopes: ["openid", "profile"])
    let tokens = try await fixture.client.refresh(old, scopes: ["openid"])
    let request = try #require(fixture.stub.requests.last)
    #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)
    #expect(
      OAuth2Fixture.fields(of: request).map { "\($0.0)=\($0.1)" } == [
        "grant_type=refresh_token", "refresh_token=rt-1", "scope=openid",
      ])
    #expect(tokens.credential.accessToken == "at-2")
    #expect(tokens.credential.refreshToken == "rt-1")  // LINE and Glewlwyd-style: kept
    #expect(tokens.credential.idToken == "idt-1")
    #expect(tokens.credential.scopes == ["openid"])
  }

  @Test func refreshAdoptsARotatedRefreshToken() async throws {
    let fixture = try OAuth2Fixture(clientSecret: nil, authentication: .none)
    fixture.stub.on(
      "POST", "/token", reply: .json(#"{"access_token":"at-2","refresh_token":"rt-2"}"#))
    let old = Credential(accessToken: "at-1", refreshToken: "rt-1", scopes: ["tweet.read"])
    let tokens = try await fixture.client.refresh(old)
    let form = OAuth2Fixture.form(fixture.stub.requests.last)
    #expect(form["client_id"] == "client-1")
    #expect(form["scope"] == nil)
    #expect(tokens.credential.refreshToken == "rt-2")
    #expect(tokens.credential.scopes == ["tweet.read"])
  }

  @Test func refreshWithoutARefreshTokenFailsWithoutARequest() async throws {
    let fixture = try OAuth2Fixture()
    let error = await authError {
      _ = try await fixture.client.refresh(Credential(accessToken: "at"))
    }
    #expect(error?.code == .refreshTokenInvalid)
    #expect(
      RefreshFailure.oauth2(try #require(error)) == .refreshTokenInvalid(.accessTokenExpired))
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func completeAuthorizationValidatesBeforeExchanging() async throws {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/token", reply: .json(Self.tokenJSON))
    let pending = try fixture.pending()
    let forged = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: "c"), URLQueryItem(name: "state", value: "forged"),
    ])
    let error = await authError {
      _ = try await fixture.client.completeAuthorization(forged, pending: pending)
    }
    #expect(error?.code == .stateMismatch)
    #expect(fixture.stub.requests.isEmpty)
    let real = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: "c"),
      URLQueryItem(name: "state", value: pending.state.revealed),
    ])
    let tokens = try await fixture.client.completeAuthorization(real, pending: pending)
    #expect(tokens.credential.accessToken == "at-1")
  }

  @Test func customGrantAndRequestTimeout() async throws {
    let fixture = try OAuth2Fixture { $0.requestTimeout = .seconds(7) }
    fixture.stub.on("POST", "/token", reply: .json(#"{"access_token":"app"}"#))
    let tokens = try await fixture.client.requestToken(
      grantType: "client_credentials", fields: [("audience", "api")])
    let request = try #require(fixture.stub.requests.last)
    #expect(request.timeout == .seconds(7))
    #expect(OAuth2Fixture.fields(of: request).map(\.0) == ["grant_type", "audience"])
    #expect(tokens.credential.accessToken == "app")
  }
}
