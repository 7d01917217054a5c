import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// X OAuth 2.0 on the wire: every request the provider sends, checked field by field, and every
/// documented answer, success or error, mapped to a typed result.
@Suite(.timeLimit(.minutes(2)))
struct XOAuth2WireTests {
  let stub = StubTransport()
  let clock = ManualClock()

  // MARK: Authorization request

  @Test func authorizationURLCarriesPKCES256StateAndDefaultScopes() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let url = request.url
    #expect(url.scheme == "https")
    #expect(url.host == "x.com")
    #expect(url.path == "/i/oauth2/authorize")
    let query = XFixture.query(url)
    #expect(query["response_type"] == "code")
    #expect(query["client_id"] == XFixture.clientID)
    #expect(query["redirect_uri"] == XFixture.redirectURI)
    #expect(query["scope"] == "users.read tweet.read offline.access")
    #expect(query["code_challenge_method"] == "S256")
    let state = try #require(query["state"])
    #expect(state == request.pending.state.revealed)
    #expect((43...500).contains(state.count))
    let verifier = try #require(request.pending.codeVerifier?.revealed)
    #expect(query["code_challenge"] == XFixture.challenge(for: verifier))
    #expect(request.pending.provider == .twitter)
    #expect(stub.requests.isEmpty)
  }

  // MARK: Code exchange

  @Test func confidentialClientExchangesTheCodeWithBasicAuthAndTheVerifier() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.token("at-1", refresh: "rt-1")))
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let callback = AuthorizationCallback(parameters: [
      URLQueryItem(name: "state", value: request.pending.state.revealed),
      URLQueryItem(name: "code", value: "code-1"),
    ])
    let credential = try await provider.completeAuthorization(request.pending, callback: callback)

    let sent = try #require(stub.requests.first)
    #expect(sent.method == "POST")
    #expect(sent.url.absoluteString == "https://api.x.com/2/oauth2/token")
    #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(sent.headers["Authorization"] == XFixture.basic)
    let form = XFixture.form(sent)
    #expect(form["grant_type"] == "authorization_code")
    #expect(form["code"] == "code-1")
    #expect(form["redirect_uri"] == XFixture.redirectURI)
    #expect(form["code_verifier"] == request.pending.codeVerifier?.revealed)
    #expect(form["client_secret"] == nil)

    #expect(credential.accessToken == "at-1")
    #expect(credential.refreshToken == "rt-1")
    #expect(credential.tokenType == "bearer")
    #expect(credential.scopes == ["users.read", "tweet.read", "offline.access"])
    #expect(credential.expiresAt == clock.wallTime.addingTimeInterval(7200))
  }

  @Test func publicClientSendsClientIDInTheBodyAndNoAuthorizationHeader() async throws {
    let provider = try XFixture.provider(stub, clock: clock, secret: nil)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.token("at-1", refresh: "rt-1")))
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    _ = try await provider.completeAuthorization(
      request.pending,
      callback: AuthorizationCallback(parameters: [
        URLQueryItem(name: "code", value: "code-1"),
        URLQueryItem(name: "state", value: request.pending.state.revealed),
      ]))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["Authorization"] == nil)
    #expect(XFixture.form(sent)["client_id"] == XFixture.clientID)
    #expect(XFixture.form(sent)["code_verifier"] == request.pending.codeVerifier?.revealed)
  }

  @Test func aReusedOrLateCodeIsATypedProviderErrorWithXsExplanation() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.invalidCode, status: 400))
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let error = await authError {
      _ = try await provider.completeAuthorization(
        request.pending,
        callback: AuthorizationCallback(parameters: [
          URLQueryItem(name: "code", value: "stale"),
          URLQueryItem(name: "state", value: request.pending.state.revealed),
        ]))
    }
    #expect(error?.code == .providerError)
    #expect(error?.httpStatus == 400)
    #expect(error?.oauth?.error == "invalid_request")
    #expect(error?.oauth?.errorDescription?.contains("authorization code") == true)
    #expect(error?.message.contains("30 seconds") == true)
  }

  @Test func aCallbackWithAnotherStateNeverReachesTheTokenEndpoint() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let error = await authError {
      _ = try await provider.completeAuthorization(
        request.pending,
        callback: AuthorizationCallback(parameters: [
          URLQueryItem(name: "code", value: "c"), URLQueryItem(name: "state", value: "forged"),
        ]))
    }
    #expect(error?.code == .stateMismatch)
    #expect(stub.requests.isEmpty)
  }

  // MARK: Refresh

  @Test func refreshSpendsTheRefreshTokenWithBasicAndReturnsTheRotatedOne() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.token("at-2", refresh: "rt-2")))
    let refreshed = try await provider.refresh(
      XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    let sent = try #require(stub.requests.first)
    #expect(sent.url.absoluteString == "https://api.x.com/2/oauth2/token")
    #expect(sent.headers["Authorization"] == XFixture.basic)
    let form = XFixture.form(sent)
    #expect(form["grant_type"] == "refresh_token")
    #expect(form["refresh_token"] == "rt-1")
    #expect(refreshed.accessToken == "at-2")
    #expect(refreshed.refreshToken == "rt-2")
    #expect(refreshed.expiresAt == clock.wallTime.addingTimeInterval(7200))
  }

  @Test func publicClientRefreshSendsClientIDInTheBody() async throws {
    let provider = try XFixture.provider(stub, clock: clock, secret: "")
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.token("at-2", refresh: "rt-2")))
    _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["Authorization"] == nil)
    #expect(XFixture.form(sent)["client_id"] == XFixture.clientID)
    #expect(XFixture.form(sent)["refresh_token"] == "rt-1")
  }

  @Test func aSpentRefreshTokenIsRefreshTokenInvalidNotGarbage() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.spentRefreshToken, status: 400))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    #expect(error?.code == .refreshTokenInvalid)
    #expect(error?.oauth?.error == "invalid_request")
    #expect(error?.signOutReason == .refreshTokenExpired)
    #expect(error?.message.contains("rt-1") == false)
    #expect(
      provider.classifyRefreshFailure(try #require(error))
        == .refreshTokenInvalid(.refreshTokenExpired))
  }

  @Test func invalidGrantIsAlsoRefreshTokenInvalid() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.invalidGrant, status: 400))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    #expect(error?.code == .refreshTokenInvalid)
    #expect(
      provider.classifyRefreshFailure(try #require(error))
        == .refreshTokenInvalid(.refreshTokenExpired))
  }

  @Test func missingBasicAuthIsTheAppsFaultAndDegrades() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.missingAuthorization, status: 401))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    #expect(error?.code == .configuration)  // the app's credentials, not the user's grant
    #expect(error?.oauth?.error == "unauthorized_client")
    #expect(error?.message.contains("HTTP Basic") == true)
    #expect(error?.message.contains("XProvider.Configuration.clientSecret") == true)
    #expect(provider.classifyRefreshFailure(try #require(error)) == .transient(retryAfter: nil))
  }

  @Test func rateLimitedRefreshIsTransientUntilTheResetTime() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    let reset = Int(clock.wallTime.timeIntervalSince1970) + 900
    stub.on(
      "POST", "/2/oauth2/token",
      reply: .json(
        XFixture.tooManyRequestsProblem, status: 429,
        headers: [
          "x-rate-limit-limit": "300", "x-rate-limit-remaining": "0",
          "x-rate-limit-reset": String(reset),
        ]))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    let resetDate = Date(timeIntervalSince1970: TimeInterval(reset))
    #expect(error?.code == .serverUnavailable)
    #expect(error?.retryAfter == resetDate)
    #expect(
      provider.classifyRefreshFailure(try #require(error)) == .transient(retryAfter: resetDate))
  }

  @Test func theRateLimitResetIsReadOnXsClockWhenItSendsADate() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    // X's clock runs 100 s ahead; the window reopens 300 s after X's now.
    let serverNow = clock.wallTime.addingTimeInterval(100)
    let reset = Int(serverNow.timeIntervalSince1970) + 300
    stub.on(
      "POST", "/2/oauth2/token",
      reply: .json(
        XFixture.tooManyRequestsProblem, status: 429,
        headers: ["x-rate-limit-reset": String(reset), "Date": XFixture.httpDate(serverNow)]))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    #expect(error?.retryAfter == clock.wallTime.addingTimeInterval(300))
  }

  @Test(arguments: [
    (500, #"{"title":"Internal Server Error","type":"about:blank","status":500}"#),
    (503, "<html><body>Over capacity</body></html>"),
    (400, "<!DOCTYPE html><html><body>Bad gateway page</body></html>"),
    (200, #"{"token_type":"bearer","access_token":"at-9","refre"#),
    (400, ""),
    (401, "Unauthorized"),
  ])
  func serverErrorsAndBodiesThatAreNotXsAnswerDegrade(status: Int, body: String) async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/token", reply: .status(status, body: body))
    let error = await authError {
      _ = try await provider.refresh(XFixture.expiredCredential(refresh: "rt-1", clock: clock))
    }
    let failure = provider.classifyRefreshFailure(try #require(error))
    guard case .transient = failure else {
      Issue.record("HTTP \(status) '\(body)' was classified \(failure), not transient")
      return
    }
    #expect(error?.message.contains("at-9") == false)
  }

  @Test func networkFailuresAndForeignErrorsAreTransient() throws {
    #expect(XProvider.classify(URLError(.timedOut)) == .transient(retryAfter: nil))
    #expect(
      XProvider.classify(AuthError(.network, "offline", provider: .twitter))
        == .transient(retryAfter: nil))
    #expect(
      XProvider.classify(AuthError(.configuration, "no secret", provider: .twitter))
        == .transient(retryAfter: nil))
    let scope = AuthError(
      .providerError, "bad scope", provider: .twitter, httpStatus: 400,
      oauth: .init(error: "invalid_scope"))
    #expect(XProvider.classify(scope) == .terminal(.providerRejected(code: "invalid_scope")))
  }

  // MARK: Identity

  @Test func usersMeAsksForTheProfileImageWithTheBearerToken() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.usersMe))
    let identity = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    let sent = try #require(stub.requests.first)
    #expect(sent.method == "GET")
    #expect(sent.url.host == "api.x.com")
    #expect(sent.url.path == "/2/users/me")
    #expect(XFixture.query(sent.url) == ["user.fields": "profile_image_url"])
    #expect(sent.headers["Authorization"] == "Bearer at-1")
    #expect(identity.provider == .twitter)
    #expect(identity.subject == XFixture.userID)
    #expect(identity.name == "Developers")
    #expect(
      identity.pictureURL?.absoluteString
        == "https://pbs.twimg.com/profile_images/1/dev_normal.jpg")
    #expect(identity.rawClaims.objectValue?["username"]?.stringValue == "XDevelopers")
  }

  @Test func configuredUserFieldsAreJoinedWithCommas() async throws {
    let provider = try XFixture.provider(stub, clock: clock) {
      $0.userFields = ["profile_image_url", "confirmed_email"]
    }
    stub.on(
      "GET", "/2/users/me",
      reply: .json(#"{"data":{"id":"7","name":"A","username":"a","confirmed_email":"a@x.test"}}"#))
    let identity = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    #expect(
      XFixture.query(stub.requests.first?.url)["user.fields"]
        == "profile_image_url,confirmed_email")
    #expect(identity.email == "a@x.test")
  }

  @Test func aRejectedAccessTokenIsInvalidTokenWithASignOutReason() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.unauthorizedProblem, status: 401))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.providerCode == "about:blank")
    #expect(error?.signOutReason == .accessRevoked)
    #expect(provider.classifyIdentityFailure(try #require(error)) == .terminal(.accessRevoked))
  }

  @Test func clientForbiddenIsAProviderErrorAboutTheAppThatDegrades() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.clientForbiddenProblem, status: 403))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.code == .providerError)
    #expect(error?.providerCode == "client-forbidden")
    #expect(error?.message.contains("Client Forbidden") == true)
    #expect(provider.classifyIdentityFailure(try #require(error)) == .transient(retryAfter: nil))
  }

  @Test func aRateLimitedLookupRetriesAtTheReset() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    let reset = Int(clock.wallTime.timeIntervalSince1970) + 600
    stub.on(
      "GET", "/2/users/me",
      reply: .json(
        XFixture.tooManyRequestsProblem, status: 429,
        headers: ["x-rate-limit-reset": String(reset)]))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.code == .serverUnavailable)
    #expect(error?.retryAfter == Date(timeIntervalSince1970: TimeInterval(reset)))
  }

  @Test func aRetryAfterHeaderWinsOverTheReset() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on(
      "GET", "/2/users/me",
      reply: .json(
        XFixture.tooManyRequestsProblem, status: 429,
        headers: [
          "Retry-After": "30",
          "x-rate-limit-reset": String(Int(clock.wallTime.timeIntervalSince1970) + 600),
        ]))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.retryAfter == clock.wallTime.addingTimeInterval(30))
  }

  @Test func anErrorsOnlyAnswerIsATypedProviderError() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.errorsOnly))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.code == .providerError)
    #expect(error?.providerCode == "resource-not-found")
  }

  @Test(arguments: [
    (200, #"{"data":{"id":"#), (200, #"{"data":{"name":"no id"}}"#), (200, "<html></html>"),
    (401, "<html>proxy login</html>"), (401, ""), (502, "Bad Gateway"),
  ])
  func malformedOrForeignLookupAnswersDegrade(status: Int, body: String) async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .status(status, body: body))
    let error = await authError {
      _ = try await provider.fetchIdentity(for: Credential(accessToken: "at-1"))
    }
    #expect(error?.code == .invalidResponse || error?.code == .serverUnavailable)
    #expect(provider.classifyIdentityFailure(try #require(error)).isTransient)
  }

  // MARK: Verify

  @Test func verifyingAnAccessTokenNamesTheUserButCannotProveTheAudience() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.usersMe))
    let verified = try await provider.verify(.accessToken("mobile-at"))
    #expect(verified.identity.subject == XFixture.userID)
    #expect(!verified.audience.isProven)
    guard case .unprovable(let reason) = verified.audience else { return }
    #expect(reason.contains("introspection"))
    #expect(stub.requests.first?.headers["Authorization"] == "Bearer mobile-at")
  }

  @Test func verifyingARevokedAccessTokenIsInvalidToken() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("GET", "/2/users/me", reply: .json(XFixture.unauthorizedProblem, status: 401))
    let error = await authError { _ = try await provider.verify(.accessToken("dead")) }
    #expect(error?.code == .invalidToken)
  }

  @Test func idTokensAndOAuth1PairsAreUnsupportedOnTheOAuth2Flow() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    let idToken = await authError { _ = try await provider.verify(.idToken("a.b.c", nonce: nil)) }
    #expect(idToken?.code == .unsupported)
    let pair = await authError { _ = try await provider.verify(.oauth1(token: "t", secret: "s")) }
    #expect(pair?.code == .unsupported)
    #expect(stub.requests.isEmpty)
  }

  // MARK: Revoke

  @Test func revokeSendsTheRefreshTokenThenTheAccessTokenWithHints() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/revoke", repeating: true, reply: .json(XFixture.revoked))
    try await provider.revoke(Credential(accessToken: "at-1", refreshToken: "rt-1"))
    let sent = stub.requests
    #expect(sent.count == 2)
    #expect(sent.allSatisfy { $0.url.absoluteString == "https://api.x.com/2/oauth2/revoke" })
    #expect(sent.allSatisfy { $0.headers["Authorization"] == XFixture.basic })
    #expect(XFixture.form(sent.first) == ["token": "rt-1", "token_type_hint": "refresh_token"])
    #expect(XFixture.form(sent.last) == ["token": "at-1", "token_type_hint": "access_token"])
  }

  @Test func publicClientRevokesWithClientIDInTheBody() async throws {
    let provider = try XFixture.provider(stub, clock: clock, secret: nil)
    stub.on("POST", "/2/oauth2/revoke", reply: .json(XFixture.revoked))
    try await provider.revoke(Credential(accessToken: "at-1"))
    let sent = try #require(stub.requests.first)
    #expect(sent.headers["Authorization"] == nil)
    #expect(
      XFixture.form(sent)
        == ["token": "at-1", "token_type_hint": "access_token", "client_id": XFixture.clientID])
  }

  @Test func aFailedRevocationIsTypedAndTransientOn5xx() async throws {
    let provider = try XFixture.provider(stub, clock: clock)
    stub.on("POST", "/2/oauth2/revoke", reply: .status(503, body: "down"))
    let error = await authError { try await provider.revoke(Credential(accessToken: "at-1")) }
    #expect(error?.code == .serverUnavailable)
    #expect(error?.isTransient == true)
  }
}

extension RefreshFailure {
  /// Whether the failure keeps the session (degraded).
  var isTransient: Bool {
    if case .transient = self { return true }
    return false
  }
}
