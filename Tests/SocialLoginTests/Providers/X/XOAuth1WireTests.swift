import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// X OAuth 1.0a on the wire: each signed request re-verified from its own nonce and timestamp,
/// and v1.1 errors 32 and 89 typed.
@Suite(.timeLimit(.minutes(2)))
struct XOAuth1WireTests {
  let stub = StubTransport()
  let clock = ManualClock()

  func scriptRequestToken(confirmed: String = "true") {
    stub.on(
      "POST", "/oauth/request_token",
      reply: .form([
        ("oauth_token", "req-token-1"), ("oauth_token_secret", "req-SECRET-1"),
        ("oauth_callback_confirmed", confirmed),
      ]))
  }

  func scriptAccessToken() {
    stub.on(
      "POST", "/oauth/access_token",
      reply: .form([
        ("oauth_token", "6253282-acc-token"), ("oauth_token_secret", "acc-SECRET-1"),
        ("user_id", XFixture.userID), ("screen_name", "XDevelopers"),
      ]))
  }

  func callback(
    _ pending: PendingLogin, token: String = "req-token-1", state: String? = nil,
    verifier: String? = "verifier-1", denied: Bool = false
  ) -> AuthorizationCallback {
    var items = [URLQueryItem(name: "state", value: state ?? pending.state.revealed)]
    if denied {
      items.append(URLQueryItem(name: "denied", value: token))
    } else {
      items.append(URLQueryItem(name: "oauth_token", value: token))
      if let verifier { items.append(URLQueryItem(name: "oauth_verifier", value: verifier)) }
    }
    return AuthorizationCallback(parameters: items)
  }

  var oauth1Credential: Credential {
    Credential(accessToken: "6253282-acc-token", tokenSecret: "acc-SECRET-1", tokenType: "oauth1")
  }

  // MARK: Login

  @Test func requestTokenCarriesTheStateInTheSignedCallback() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    scriptRequestToken()
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)

    let sent = try #require(stub.requests.first)
    #expect(sent.method == "POST")
    #expect(sent.url.absoluteString == "https://api.x.com/oauth/request_token")
    let parameters = try XFixture.oauthParameters(sent)
    #expect(parameters["oauth_token"] == nil)
    let callbackURL = try #require(parameters["oauth_callback"].flatMap(URL.init(string:)))
    #expect(callbackURL.absoluteString.hasPrefix(XFixture.redirectURI + "?state="))
    #expect(XFixture.query(callbackURL)["state"] == request.pending.state.revealed)
    try XFixture.expectValidSignature(sent, tokenSecret: nil, extra: ["oauth_callback"])

    #expect(
      request.url.absoluteString == "https://api.x.com/oauth/authenticate?oauth_token=req-token-1")
    #expect(request.pending.provider == .twitter)
    #expect(request.pending.requestTokenSecret == "req-SECRET-1")
    #expect(request.pending.extra[XProvider.requestTokenKey] == "req-token-1")
    #expect(request.pending.redirectURI == XFixture.redirectURI)
  }

  @Test func forceLoginAndTheAuthorizeEndpointAreHonoured() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock) {
      $0.forceLogin = true
      $0.accessType = .read
      try $0.setEndpoint(
        "authorize", to: try #require(URL(string: "https://api.x.com/oauth/authorize")))
    }
    scriptRequestToken()
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    #expect(request.url.path == "/oauth/authorize")
    #expect(XFixture.query(request.url) == ["oauth_token": "req-token-1", "force_login": "true"])
    #expect(XFixture.query(stub.requests.first?.url) == ["x_auth_access_type": "read"])
    try XFixture.expectValidSignature(
      stub.requests.first, tokenSecret: nil, extra: ["oauth_callback"])
  }

  @Test func anUnconfirmedCallbackStopsTheLogin() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    scriptRequestToken(confirmed: "false")
    let error = await authError {
      _ = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    }
    #expect(error?.code == .invalidResponse)
    #expect(error?.message.contains("oauth_callback_confirmed") == true)
  }

  @Test func accessTokenExchangeIsSignedWithTheRequestTokenAndVerifier() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    scriptRequestToken()
    scriptAccessToken()
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let credential = try await provider.completeAuthorization(
      request.pending, callback: callback(request.pending))

    let sent = try #require(stub.requests.last)
    #expect(sent.method == "POST")
    #expect(sent.url.absoluteString == "https://api.x.com/oauth/access_token")
    let parameters = try XFixture.oauthParameters(sent)
    #expect(parameters["oauth_token"] == "req-token-1")
    #expect(parameters["oauth_verifier"] == "verifier-1")
    try XFixture.expectValidSignature(sent, tokenSecret: "req-SECRET-1", extra: ["oauth_verifier"])
    #expect(credential.accessToken == "6253282-acc-token")
    #expect(credential.tokenSecret == "acc-SECRET-1")
    #expect(credential.tokenType == "oauth1")
    #expect(credential.expiresAt == nil)
    #expect(credential.refreshToken == nil)
  }

  @Test func aDeniedCallbackIsAccessDeniedAndExchangesNothing() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    scriptRequestToken()
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let error = await authError {
      _ = try await provider.completeAuthorization(
        request.pending, callback: callback(request.pending, denied: true))
    }
    #expect(error?.code == .accessDenied)
    #expect(stub.requestCount(path: "/oauth/access_token") == 0)
  }

  @Test func aForeignRequestTokenOrStateIsAStateMismatch() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    scriptRequestToken()
    let request = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    let token = await authError {
      _ = try await provider.completeAuthorization(
        request.pending, callback: callback(request.pending, token: "someone-elses"))
    }
    #expect(token?.code == .stateMismatch)
    let state = await authError {
      _ = try await provider.completeAuthorization(
        request.pending, callback: callback(request.pending, state: "forged"))
    }
    #expect(state?.code == .stateMismatch)
    let expired = await authError {
      clock.advance(by: .seconds(3600))
      _ = try await provider.completeAuthorization(
        request.pending, callback: callback(request.pending))
    }
    #expect(expired?.code == .invalidCallback)
    #expect(stub.requestCount(path: "/oauth/access_token") == 0)
  }

  // MARK: Identity and verify

  @Test func verifyCredentialsIsASignedGetWithEmailAndNoStatus() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on("GET", "/1.1/account/verify_credentials.json", reply: .json(XFixture.verifyCredentials))
    let identity = try await provider.fetchIdentity(for: oauth1Credential)
    let sent = try #require(stub.requests.first)
    #expect(sent.method == "GET")
    #expect(sent.url.host == "api.x.com")
    #expect(XFixture.query(sent.url) == ["include_email": "true", "skip_status": "true"])
    #expect(try XFixture.oauthParameters(sent)["oauth_token"] == "6253282-acc-token")
    try XFixture.expectValidSignature(sent, tokenSecret: "acc-SECRET-1")
    #expect(identity.subject == XFixture.userID)
    #expect(identity.name == "Developers")
    #expect(identity.email == "dev@example.com")
    #expect(identity.pictureURL?.host == "pbs.twimg.com")
    #expect(identity.rawClaims.objectValue?["username"]?.stringValue == "XDevelopers")
  }

  @Test func error89IsAnInvalidTokenThatSignsOut() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on(
      "GET", "/1.1/account/verify_credentials.json", reply: .json(XFixture.error89, status: 401))
    let error = await authError { _ = try await provider.fetchIdentity(for: oauth1Credential) }
    #expect(error?.code == .invalidToken)
    #expect(error?.providerCode == "89")
    #expect(error?.signOutReason == .accessRevoked)
    #expect(error?.message.contains("acc-SECRET-1") == false)
    #expect(provider.classifyIdentityFailure(try #require(error)) == .terminal(.accessRevoked))
  }

  @Test func error32OnASessionIsTheAppsSignatureProblemAndDegrades() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on(
      "GET", "/1.1/account/verify_credentials.json", reply: .json(XFixture.error32, status: 401))
    let error = await authError { _ = try await provider.fetchIdentity(for: oauth1Credential) }
    #expect(error?.code == .providerError)
    #expect(error?.providerCode == "32")
    #expect(error?.message.contains("signature") == true)
    #expect(provider.classifyIdentityFailure(try #require(error)) == .transient(retryAfter: nil))
  }

  @Test func verifyingAPairProvesTheConsumerKeyAsAudience() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on("GET", "/1.1/account/verify_credentials.json", reply: .json(XFixture.verifyCredentials))
    let verified = try await provider.verify(
      .oauth1(token: "mobile-token", secret: "mobile-SECRET"))
    #expect(verified.audience == .proven(audience: XFixture.consumerKey))
    #expect(verified.identity.subject == XFixture.userID)
    try XFixture.expectValidSignature(stub.requests.first, tokenSecret: "mobile-SECRET")
  }

  @Test(arguments: [XFixture.error32, XFixture.error89])
  func verifyingAPairOfAnotherAppOrARevokedPairIsInvalidToken(body: String) async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on("GET", "/1.1/account/verify_credentials.json", reply: .json(body, status: 401))
    let error = await authError {
      _ = try await provider.verify(.oauth1(token: "t", secret: "s-SECRET"))
    }
    #expect(error?.code == .invalidToken)
  }

  @Test func accessTokensAndIDTokensAreUnsupportedOnTheOAuth1Flow() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    let access = await authError { _ = try await provider.verify(.accessToken("at")) }
    #expect(access?.code == .unsupported)
    let refresh = await authError { _ = try await provider.refresh(oauth1Credential) }
    #expect(refresh?.code == .unsupported)
    #expect(stub.requests.isEmpty)
  }

  // MARK: Revoke and transient failures

  @Test func revokeIsASignedInvalidateTokenPost() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on(
      "POST", "/1.1/oauth/invalidate_token",
      reply: .json(#"{"access_token":"6253282-acc-token"}"#))
    try await provider.revoke(oauth1Credential)
    let sent = try #require(stub.requests.first)
    #expect(sent.url.absoluteString == "https://api.x.com/1.1/oauth/invalidate_token")
    #expect(try XFixture.oauthParameters(sent)["oauth_token"] == "6253282-acc-token")
    try XFixture.expectValidSignature(sent, tokenSecret: "acc-SECRET-1")
  }

  @Test func revokingATokenXAlreadyCallsInvalidSucceeds() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    stub.on("POST", "/1.1/oauth/invalidate_token", reply: .json(XFixture.error89, status: 401))
    try await provider.revoke(oauth1Credential)
    stub.on("POST", "/1.1/oauth/invalidate_token", reply: .status(503))
    let error = await authError { try await provider.revoke(oauth1Credential) }
    #expect(error?.code == .serverUnavailable)
  }

  @Test func aRateLimitedRequestTokenRetriesAtTheReset() async throws {
    let provider = try XFixture.oauth1Provider(stub, clock: clock)
    let reset = Int(clock.wallTime.timeIntervalSince1970) + 120
    stub.on(
      "POST", "/oauth/request_token",
      reply: .json(
        #"{"errors":[{"code":88,"message":"Rate limit exceeded"}]}"#, status: 429,
        headers: ["x-rate-limit-reset": String(reset)]))
    let error = await authError {
      _ = try await provider.makeAuthorizationRequest(redirectURI: XFixture.redirectURI)
    }
    #expect(error?.code == .serverUnavailable)
    #expect(error?.retryAfter == Date(timeIntervalSince1970: TimeInterval(reset)))
  }
}
