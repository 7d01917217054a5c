import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite struct OAuth2ErrorTests {
  /// Secrets that the requests carry; no error text may contain them.
  static let secrets = [
    "client-SECRET-value", "rt-SECRET", "at-SECRET", "code-SECRET", "idt-SECRET",
  ]

  static func refreshError(_ reply: StubTransport.Reply) async throws -> AuthError? {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/token", reply: reply)
    let error = await authError {
      _ = try await fixture.client.refresh(
        Credential(accessToken: "at-SECRET", refreshToken: "rt-SECRET"))
    }
    expectNoSecrets(error, secrets)
    #expect(error?.provider == "test-idp")
    return error
  }

  static func exchangeError(_ reply: StubTransport.Reply) async throws -> AuthError? {
    let fixture = try OAuth2Fixture()
    fixture.stub.on("POST", "/token", reply: reply)
    let pending = try fixture.pending()
    let error = await authError {
      _ = try await fixture.client.exchangeCode("code-SECRET", pending: pending)
    }
    expectNoSecrets(
      error, secrets + [pending.codeVerifier?.revealed ?? "-", pending.state.revealed])
    return error
  }

  @Test func rfc6749JSONError() async throws {
    let error = try #require(
      await Self.refreshError(
        .json(
          #"{"error":"invalid_grant","error_description":"Refresh token expired","error_uri":"https://auth.test/e"}"#,
          status: 400)))
    #expect(error.code == .providerError)
    #expect(error.httpStatus == 400)
    #expect(
      error.oauth
        == AuthError.OAuthErrorFields(
          error: "invalid_grant", errorDescription: "Refresh token expired",
          errorURI: "https://auth.test/e"))
    #expect(!error.isTransient)
    #expect(RefreshFailure.oauth2(error) == .refreshTokenInvalid(.refreshTokenExpired))
  }

  @Test func emptyBody400IsTransientUnlessTheProviderDocumentsIt() async throws {
    let error = try #require(await Self.refreshError(.status(400)))
    #expect(error.code == .invalidResponse)
    #expect(error.httpStatus == 400)
    #expect(error.responseBodySize == 0)
    #expect(error.oauth == nil)
    #expect(error.isTransient)
    #expect(error.message.contains("empty body"))
    #expect(RefreshFailure.oauth2(error) == .transient(retryAfter: nil))
    #expect(RefreshFailure.rfc6749(error) == .transient(retryAfter: nil))
    // Glewlwyd's documented answer to a dead refresh token, configured on its provider only.
    #expect(
      RefreshFailure.oauth2(
        error, refreshTokenInvalidWhen: RefreshTokenRejection.emptyBadRequest.matches)
        == .refreshTokenInvalid(.refreshTokenExpired))
    let html = try #require(
      await Self.refreshError(
        .status(400, body: "<p>no</p>", headers: ["Content-Type": "text/html"])))
    #expect(html.responseBodySize == 9)
    #expect(!RefreshTokenRejection.emptyBadRequest.matches(html))
  }

  @Test func glewlwyd403InvalidCode() async throws {
    let error = try #require(
      await Self.exchangeError(.json(#"{"error":"invalid_code"}"#, status: 403)))
    #expect(error.code == .providerError)
    #expect(error.httpStatus == 403)
    #expect(error.oauth?.error == "invalid_code")
    #expect(!error.isTransient)
  }

  @Test func html502IsTransientWithAScrubbedExcerpt() async throws {
    let html =
      "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
      + "<p>upstream said Authorization: Bearer at-SECRET</p></body></html>"
    let error = try #require(
      await Self.refreshError(.status(502, body: html, headers: ["Content-Type": "text/html"])))
    #expect(error.code == .serverUnavailable)
    #expect(error.httpStatus == 502)
    #expect(error.isTransient)
    #expect(RefreshFailure.oauth2(error) == .transient(retryAfter: nil))
  }

  @Test func html400IsAnInvalidResponseWithABoundedScrubbedExcerpt() async throws {
    let html =
      "<html><body><h1>Bad Request</h1><p>refresh_token=rt-SECRET rejected</p>"
      + String(repeating: "<p>filler text</p>", count: 500) + "</body></html>"
    let error = try #require(
      await Self.refreshError(.status(400, body: html, headers: ["Content-Type": "text/html"])))
    #expect(error.code == .invalidResponse)
    #expect(error.message.contains("Bad Request"))
    #expect(error.message.contains("text/html"))
    #expect(error.message.count < 400)
  }

  @Test func truncatedJSONNeverQuotesTheBody() async throws {
    let truncated = #"{"access_token":"at-SECRET","refresh_token":"rt-SECR"#
    let onSuccess = try #require(await Self.exchangeError(.json(truncated)))
    #expect(onSuccess.code == .invalidResponse)
    #expect(onSuccess.httpStatus == 200)
    #expect(onSuccess.message.contains("not valid JSON"))
    #expect(!onSuccess.message.contains("SECR"))
    let onFailure = try #require(await Self.refreshError(.json(truncated, status: 400)))
    #expect(onFailure.code == .invalidResponse)
    #expect(!onFailure.message.contains("SECR"))
  }

  @Test func successWithoutAccessTokenIsAnInvalidResponse() async throws {
    let error = try #require(
      await Self.exchangeError(.json(#"{"refresh_token":"rt-SECRET","token_type":"bearer"}"#)))
    #expect(error.code == .invalidResponse)
    #expect(error.httpStatus == 200)
    #expect(error.message.contains("access_token"))
    #expect(error.message.contains("refresh_token"))  // the key name, not its value
  }

  @Test func successStatusCarryingAnOAuthErrorIsAProviderError() async throws {
    let error = try #require(
      await Self.exchangeError(.json(#"{"error":"invalid_request","error_description":"bad"}"#)))
    #expect(error.code == .providerError)
    #expect(error.oauth?.error == "invalid_request")
  }

  @Test func status429WithRetryAfterIsTransient() async throws {
    let error = try #require(
      await Self.refreshError(
        .json(#"{"error":"slow"}"#, status: 429, headers: ["Retry-After": "30"])))
    #expect(error.code == .serverUnavailable)
    #expect(error.isTransient)
    let expected = Date(timeIntervalSince1970: 1_700_000_030)
    #expect(error.retryAfter == expected)
    #expect(RefreshFailure.oauth2(error) == .transient(retryAfter: expected))
  }

  @Test func status503WithHTTPDateRetryAfter() async throws {
    let error = try #require(
      await Self.refreshError(
        .status(503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:14:20 GMT"])))
    #expect(error.code == .serverUnavailable)
    #expect(error.retryAfter == Date(timeIntervalSince1970: 1_700_000_060))
  }

  @Test func jsonWithoutErrorMemberQuotesOnlyScrubbedMessages() async throws {
    let error = try #require(
      await Self.refreshError(
        .json(#"{"message":"failed to parse","access_token":"at-SECRET"}"#, status: 400)))
    #expect(error.code == .invalidResponse)
    #expect(error.message.contains("failed to parse"))
    #expect(error.message.contains("access_token"))
  }

  @Test func graphStyleErrorKeepsProviderCodes() async throws {
    let error = try #require(
      await Self.exchangeError(
        .json(
          #"{"error":{"message":"Invalid verification code format.","type":"OAuthException","code":100,"error_subcode":36007}}"#,
          status: 400)))
    #expect(error.code == .providerError)
    #expect(error.providerCode == "100")
    #expect(error.providerSubcode == "36007")
    #expect(error.message.contains("Invalid verification code format."))
  }

  @Test func transportFailuresKeepTheirCodeAndGainTheProvider() async throws {
    let error = try #require(
      await Self.refreshError(.failure(AuthError(.timedOut, "The request timed out."))))
    #expect(error.code == .timedOut)
    let other = try #require(await Self.refreshError(.failure(URLError(.notConnectedToInternet))))
    #expect(other.code == .network)
    #expect(other.isTransient)
  }

  @Test func sentSecretsEchoedInFreeTextAreMasked() async throws {
    let error = try #require(
      await Self.refreshError(
        .json(
          #"{"error":"invalid_grant","error_description":"unknown token rt-SECRET for client-SECRET-value"}"#,
          status: 400)))
    #expect(error.oauth?.errorDescription == "unknown token <redacted> for <redacted>")
    let text = try #require(
      await Self.refreshError(.status(400, body: "no such token: rt-SECRET")))
    #expect(text.message.contains("no such token: <redacted>"))
    let exchange = try #require(
      await Self.exchangeError(.status(403, body: "code code-SECRET was already used")))
    #expect(exchange.message.contains("code <redacted> was already used"))
  }

  @Test func xSpentRefreshTokenIsInvalidOnlyWithTheXRule() async throws {
    let body =
      #"{"error":"invalid_request","error_description":"Value passed for the token was invalid."}"#
    let error = try #require(await Self.refreshError(.json(body, status: 400)))
    #expect(RefreshFailure.xRefreshTokenRejected(error))
    #expect(
      RefreshFailure.oauth2(error, refreshTokenInvalidWhen: RefreshFailure.xRefreshTokenRejected)
        == .refreshTokenInvalid(.refreshTokenExpired))
    // Without the X rule, invalid_request is a terminal provider rejection (RFC default).
    #expect(RefreshFailure.oauth2(error) == .terminal(.providerRejected(code: "invalid_request")))
    // X's bad-authorization-code message is not a refresh-token verdict.
    let code = AuthError(
      .providerError, "x",
      oauth: .init(
        error: "invalid_request",
        errorDescription: "Value passed for the authorization code was invalid."))
    #expect(!RefreshFailure.xRefreshTokenRejected(code))
  }

  @Test func classificationOfOtherFailures() {
    #expect(RefreshFailure.oauth2(CancellationError()) == .transient(retryAfter: nil))
    let unauthorized = AuthError(
      .providerError, "x", httpStatus: 401, oauth: .init(error: "unauthorized_client"))
    #expect(
      RefreshFailure.oauth2(unauthorized)
        == .terminal(.providerRejected(code: "unauthorized_client")))
    // A transient failure is never turned into a sign-out by the provider rule.
    let busy = AuthError(.serverUnavailable, "x", httpStatus: 503)
    #expect(
      RefreshFailure.oauth2(busy, refreshTokenInvalidWhen: { _ in true })
        == .transient(retryAfter: nil))
  }
}
