import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

extension OAuth1Tests {
  @Suite(.timeLimit(.minutes(5))) struct FlowTests {
    static let confirmed: [(String, String)] = [
      ("oauth_token", "req-token"), ("oauth_token_secret", "req secret!"),
      ("oauth_callback_confirmed", "true"),
    ]

    // MARK: Request token

    @Test func requestTokenHappyPath() async throws {
      let stub = StubTransport()
      stub.on("POST", "/oauth/request_token", reply: .form(Self.confirmed))
      let client = FlowFixture.client(stub)

      let token = try await client.requestToken(callback: "https://app.example/x/cb?a=1")

      #expect(token.token == "req-token")
      #expect(token.secret.revealed == "req secret!")
      let request = try #require(stub.requests.first)
      #expect(request.method == "POST")
      #expect(request.url.absoluteString == "https://api.x.com/oauth/request_token")
      let items = FlowFixture.headerItems(request.headers["Authorization"])
      #expect(items["oauth_callback"] == "https%3A%2F%2Fapp.example%2Fx%2Fcb%3Fa%3D1")
      #expect(items["oauth_consumer_key"] == "ck-123")
      #expect(items["oauth_nonce"] == FlowFixture.nonce)
      #expect(items["oauth_timestamp"] == "1700000000")
      #expect(items["oauth_token"] == nil)
      // Computed independently (Python hmac/sha1) with key "cs%2F%2Bsecret&".
      #expect(items["oauth_signature"] == "HMY1CazB7nLhCjLdQ71PsQpTRA8%3D")
    }

    @Test func requestTokenSendsAccessTypeInSignedQuery() async throws {
      let stub = StubTransport()
      stub.on("POST", "/oauth/request_token", reply: .form(Self.confirmed))
      _ = try await FlowFixture.client(stub).requestToken(callback: "oob", accessType: .read)
      let request = try #require(stub.requests.first)
      #expect(request.url.query == "x_auth_access_type=read")
      let items = FlowFixture.headerItems(request.headers["Authorization"])
      #expect(items["oauth_callback"] == "oob")
      #expect(items["oauth_signature"] == "Nx8mbiXlE9BRMqWfMf%2Fus%2F05gzI%3D")
    }

    @Test(
      "oauth_callback_confirmed must be 'true'",
      arguments: [nil, "false", "TRUE", ""] as [String?])
    func requestTokenNeedsCallbackConfirmed(value: String?) async throws {
      let stub = StubTransport()
      var fields: [(String, String)] = [("oauth_token", "t"), ("oauth_token_secret", "s")]
      if let value { fields.append(("oauth_callback_confirmed", value)) }
      stub.on("POST", "/oauth/request_token", reply: .form(fields))
      await #expect {
        try await FlowFixture.client(stub).requestToken(callback: "oob")
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .invalidResponse && error.message.contains("oauth_callback_confirmed")
          && error.provider == .twitter
      }
    }

    @Test func requestTokenWithoutTokenIsInvalidResponse() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/oauth/request_token",
        reply: .form([("oauth_callback_confirmed", "true"), ("oauth_token_secret", "s")]))
      await #expect {
        try await FlowFixture.client(stub).requestToken(callback: "oob")
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .invalidResponse
          && error.message.contains("oauth_callback_confirmed, oauth_token_secret")
          && !error.description.contains("=s")
      }
    }

    @Test func emptyCallbackIsAConfigurationError() async {
      await #expect {
        try await FlowFixture.client(StubTransport()).requestToken(callback: "")
      } throws: { ($0 as? AuthError)?.code == .configuration }
    }

    // MARK: Authorization URL

    @Test func authorizationURLs() throws {
      let client = FlowFixture.client(StubTransport())
      #expect(
        try client.authorizationURL(requestToken: "tok").absoluteString
          == "https://api.x.com/oauth/authenticate?oauth_token=tok")
      #expect(
        try client.authorizationURL(
          requestToken: "t/k", mode: .authorize, forceLogin: true, screenName: "a+b"
        ).absoluteString
          == "https://api.x.com/oauth/authorize?oauth_token=t%2Fk&force_login=true&screen_name=a%2Bb"
      )
    }

    @Test func endpointsCanBeOverridden() throws {
      let base = try #require(URL(string: "http://127.0.0.1:8089"))
      let endpoints = OAuth1Endpoints.x(baseURL: base)
      #expect(endpoints.requestToken.absoluteString == "http://127.0.0.1:8089/oauth/request_token")
      #expect(endpoints.authenticate.absoluteString == "http://127.0.0.1:8089/oauth/authenticate")
      #expect(endpoints.authorize.absoluteString == "http://127.0.0.1:8089/oauth/authorize")
      #expect(endpoints.accessToken.absoluteString == "http://127.0.0.1:8089/oauth/access_token")
      #expect(
        endpoints.invalidateToken.absoluteString
          == "http://127.0.0.1:8089/1.1/oauth/invalidate_token")
      #expect(
        OAuth1Endpoints.x.requestToken.absoluteString == "https://api.x.com/oauth/request_token")
      #expect(
        OAuth1Endpoints.x.authenticate.absoluteString == "https://api.x.com/oauth/authenticate")
      #expect(OAuth1Endpoints.x.authorize.absoluteString == "https://api.x.com/oauth/authorize")
      #expect(
        OAuth1Endpoints.x.accessToken.absoluteString == "https://api.x.com/oauth/access_token")
      #expect(
        OAuth1Endpoints.x.invalidateToken.absoluteString
          == "https://api.x.com/1.1/oauth/invalidate_token")

      let stub = StubTransport()
      stub.on("POST", "/oauth/request_token", reply: .form(Self.confirmed))
      let client = FlowFixture.client(stub, endpoints: endpoints)
      #expect(
        try client.authorizationURL(requestToken: "x").absoluteString
          == "http://127.0.0.1:8089/oauth/authenticate?oauth_token=x")
    }

    // MARK: Callback

    static func callback(_ items: [(String, String)]) -> AuthorizationCallback {
      AuthorizationCallback(parameters: items.map { URLQueryItem(name: $0.0, value: $0.1) })
    }

    @Test func callbackReturnsVerifier() throws {
      let client = FlowFixture.client(StubTransport())
      let verifier = try client.verifier(
        from: Self.callback([("oauth_token", "req-token"), ("oauth_verifier", "v-1")]),
        requestToken: "req-token")
      #expect(verifier.revealed == "v-1")
    }

    @Test func callbackFromURL() throws {
      let url = try #require(
        URL(string: "https://app.example/x/cb?oauth_token=req-token&oauth_verifier=v%2B1"))
      let verifier = try FlowFixture.client(StubTransport()).verifier(
        from: try AuthorizationCallback(url: url), requestToken: "req-token")
      #expect(verifier.revealed == "v+1")
    }

    @Test(
      "callback token must match the request token",
      arguments: [
        [("oauth_token", "other-token"), ("oauth_verifier", "v-secret")],
        [("oauth_token", "req-toke"), ("oauth_verifier", "v-secret")],
        [("oauth_verifier", "v-secret")],
        [("oauth_token", ""), ("oauth_verifier", "v-secret")],
      ])
    func callbackTokenMismatch(items: [(String, String)]) throws {
      let client = FlowFixture.client(StubTransport())
      #expect {
        try client.verifier(from: Self.callback(items), requestToken: "req-token")
      } throws: { error in
        guard let error = error as? AuthError else { return false }
        return error.code == .stateMismatch && !error.description.contains("v-secret")
      }
    }

    @Test func deniedIsAccessDenied() throws {
      let client = FlowFixture.client(StubTransport())
      #expect {
        try client.verifier(
          from: Self.callback([("denied", "req-token")]), requestToken: "req-token")
      } throws: { ($0 as? AuthError)?.code == .accessDenied }
    }

    @Test(
      "duplicates and a missing verifier are invalid callbacks",
      arguments: [
        [("oauth_token", "req-token"), ("oauth_verifier", "a"), ("oauth_verifier", "b")],
        [("oauth_token", "req-token"), ("oauth_token", "req-token"), ("oauth_verifier", "a")],
        [("oauth_token", "req-token"), ("denied", "x"), ("denied", "y")],
        [("oauth_token", "req-token")],
        [("oauth_token", "req-token"), ("oauth_verifier", "")],
      ])
    func invalidCallbacks(items: [(String, String)]) throws {
      let client = FlowFixture.client(StubTransport())
      #expect {
        try client.verifier(from: Self.callback(items), requestToken: "req-token")
      } throws: { ($0 as? AuthError)?.code == .invalidCallback }
    }

    // MARK: Access token

    static let accessFields: [(String, String)] = [
      ("oauth_token", "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY"),
      ("oauth_token_secret", "2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU"),
      ("user_id", "6253282"), ("screen_name", "xapi"),
    ]

    @Test func accessTokenParsesCredentialAndIDs() async throws {
      let stub = StubTransport()
      stub.on("POST", "/oauth/access_token", reply: .form(Self.accessFields))
      let clock = ManualClock()
      let client = FlowFixture.client(stub, clock: clock)

      let result = try await client.accessToken(
        requestToken: "req-token", secret: "req secret!", verifier: "verifier-XYZ")

      #expect(result.credential.accessToken.revealed == Self.accessFields[0].1)
      #expect(result.credential.tokenSecret?.revealed == Self.accessFields[1].1)
      #expect(result.credential.tokenType == "oauth1")
      #expect(result.credential.expiresAt == nil)
      #expect(result.credential.refreshToken == nil)
      #expect(result.credential.issuedAt == clock.wallTime)
      #expect(result.userID == "6253282")
      #expect(result.screenName == "xapi")
      let items = FlowFixture.headerItems(stub.requests.first?.headers["Authorization"])
      #expect(items["oauth_token"] == "req-token")
      #expect(items["oauth_verifier"] == "verifier-XYZ")
      // Computed independently (Python) with key "cs%2F%2Bsecret&req%20secret%21".
      #expect(items["oauth_signature"] == "zfM7XHAqf2p8b4F6YUcpYZdBMIE%3D")
      #expect(!result.description.contains(Self.accessFields[0].1))
      #expect(!result.description.contains(Self.accessFields[1].1))
    }

    @Test func accessTokenRecordsServerClockOffset() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/oauth/access_token",
        reply: .form(Self.accessFields, headers: ["Date": "Tue, 14 Nov 2023 22:15:00 GMT"]))
      let result = try await FlowFixture.client(stub).accessToken(
        requestToken: "req-token", secret: "s", verifier: "v")
      #expect(result.credential.serverTimeOffset == 100)
      #expect(result.credential.issuedAt == Date(timeIntervalSince1970: 1_700_000_100))
    }

    @Test func accessTokenWithoutSecretIsInvalidResponse() async throws {
      let stub = StubTransport()
      stub.on(
        "POST", "/oauth/access_token", reply: .form([("oauth_token", "t"), ("user_id", "1")]))
      await #expect {
        try await FlowFixture.client(stub).accessToken(
          requestToken: "req-token", secret: "s", verifier: "v")
      } throws: { ($0 as? AuthError)?.code == .invalidResponse }
    }

    // MARK: Pending-login helpers

    @Test func fullFlowThroughPendingLogin() async throws {
      let stub = StubTransport()
      stub.on("POST", "/oauth/request_token", reply: .form(Self.confirmed))
      stub.on("POST", "/oauth/access_token", reply: .form(Self.accessFields))
      let clock = ManualClock()
      let client = FlowFixture.client(stub, clock: clock)

      let login = try await client.makeAuthorizationRequest(
        callback: "https://app.example/x/cb", forceLogin: true)
      #expect(
        login.url.absoluteString
          == "https://api.x.com/oauth/authenticate?oauth_token=req-token&force_login=true")
      #expect(login.pending.provider == .twitter)
      #expect(login.pending.state.revealed == "req-token")
      #expect(login.pending.requestTokenSecret?.revealed == "req secret!")
      #expect(login.pending.redirectURI == "https://app.example/x/cb")
      #expect(login.pending.expiresAt == clock.wallTime.addingTimeInterval(15 * 60))

      clock.advance(by: .seconds(60))
      let result = try await client.completeAuthorization(
        login.pending,
        callback: Self.callback([("oauth_token", "req-token"), ("oauth_verifier", "verifier-XYZ")]))
      #expect(result.screenName == "xapi")
      #expect(stub.unusedReplyCount == 0)
    }

    @Test func expiredPendingLoginIsRejectedBeforeAnyRequest() async throws {
      let clock = ManualClock()
      let stub = StubTransport()
      let client = FlowFixture.client(stub, clock: clock)
      let pending = PendingLogin(
        provider: .twitter, state: "req-token", redirectURI: "oob", requestTokenSecret: "s",
        createdAt: clock.wallTime, expiresAt: clock.wallTime.addingTimeInterval(10))
      clock.advance(by: .seconds(11))
      await #expect {
        try await client.completeAuthorization(
          pending, callback: Self.callback([("oauth_token", "req-token"), ("oauth_verifier", "v")]))
      } throws: { ($0 as? AuthError)?.code == .invalidCallback }
      #expect(stub.requests.isEmpty)
    }

    // MARK: Signing API calls and revocation

    @Test func signsAPIRequestsWithCredential() throws {
      let client = FlowFixture.client(StubTransport())
      let credential = Credential(accessToken: "at", tokenSecret: "ts", tokenType: "oauth1")
      let request = TransportRequest.form(
        url: try #require(URL(string: "https://api.x.com/1.1/statuses/update.json")),
        fields: [("status", "hi")])
      let signed = try client.sign(request, credential: credential)
      let expected = try client.signer.signature(
        for: request, token: "at", tokenSecret: "ts", nonce: FlowFixture.nonce,
        timestamp: "1700000000")
      #expect(signed.headers["Authorization"] == expected.authorizationHeader)
      #expect(expected.parameterString.contains("status=hi"))

      #expect {
        try client.sign(request, credential: Credential(accessToken: "bearer-token"))
      } throws: { ($0 as? AuthError)?.code == .configuration }
    }

    @Test func invalidateTokenSignsWithTheToken() async throws {
      let stub = StubTransport()
      stub.on("POST", "/1.1/oauth/invalidate_token", reply: .json(#"{"access_token":"at"}"#))
      try await FlowFixture.client(stub).invalidateToken(
        Credential(accessToken: "at", tokenSecret: "ts", tokenType: "oauth1"))
      let request = try #require(stub.requests.first)
      #expect(request.url.absoluteString == "https://api.x.com/1.1/oauth/invalidate_token")
      #expect(FlowFixture.headerItems(request.headers["Authorization"])["oauth_token"] == "at")
    }
  }
}
