import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("LINE errors", .timeLimit(.minutes(2)))
struct LINEErrorTests {
  func refreshFailure(_ reply: StubTransport.Reply) async throws -> (AuthError?, RefreshFailure?) {
    let fixture = try LINEFixture()
    fixture.stub.on("POST", LINEFixture.tokenPath, reply: reply)
    let error = await authError {
      _ = try await fixture.provider.refresh(
        Credential(accessToken: "a", refreshToken: Secret(LINEFixture.refreshToken)))
    }
    return (error, error.map { fixture.provider.classifyRefreshFailure($0) })
  }

  @Test(arguments: ["invalid_grant", "INVALID_GRANT"])
  func deadRefreshTokenSignsOut(code: String) async throws {
    let (error, failure) = try await refreshFailure(
      .json(#"{"error":"\#(code)","error_description":"invalid refresh token"}"#, status: 400))
    #expect(error?.oauth?.error == code)
    #expect(failure == .refreshTokenInvalid(.refreshTokenExpired))
    expectNoSecrets(error, [LINEFixture.refreshToken, LINEFixture.channelSecret.revealed])
  }

  @Test func otherOAuthErrorsAreTerminalWithTheirCode() async throws {
    let (_, failure) = try await refreshFailure(
      .json(#"{"error":"unauthorized_client","error_description":"not allowed"}"#, status: 400))
    #expect(failure == .terminal(.providerRejected(code: "unauthorized_client")))
  }

  @Test func aWrongChannelSecretIsAConfigurationErrorThatKeepsTheSession() async throws {
    let (error, failure) = try await refreshFailure(
      .json(#"{"error":"invalid_client","error_description":"invalid client"}"#, status: 401))
    #expect(error?.code == .configuration)
    #expect(error?.provider == .line)
    #expect(error?.message.contains("LINEConfiguration.channelSecret") == true)
    #expect(failure == .transient(retryAfter: nil))
    expectNoSecrets(error, [LINEFixture.refreshToken, LINEFixture.channelSecret.revealed])
  }

  @Test func rateLimitKeepsRetryAfter() async throws {
    let (error, failure) = try await refreshFailure(
      .json(
        #"{"message":"The API rate limit has been exceeded."}"#, status: 429,
        headers: ["Retry-After": "30"]))
    let expected = ManualClock().wallTime.addingTimeInterval(30)
    #expect(error?.isTransient == true)
    #expect(failure == .transient(retryAfter: expected))
  }

  @Test(
    "Bodies that are not an answer degrade",
    arguments: [
      StubTransport.Reply.status(500, body: "<html><h1>500 Internal Server Error</h1></html>"),
      .status(503),
      .status(400),
      .status(400, body: "<html>Bad Request</html>", headers: ["Content-Type": "text/html"]),
      .json(#"{"access_token":"abc","expires_in":25"#),
      .json(#"{"error":"server_error"}"#, status: 400),
      .status(200, body: "<html>captive portal</html>"),
      .failure(AuthError(.timedOut, "timed out")),
    ])
  func nonAnswersDegrade(reply: StubTransport.Reply) async throws {
    let (error, failure) = try await refreshFailure(reply)
    #expect(error != nil)
    if case .transient = failure {
    } else {
      Issue.record(
        "Expected transient, got \(String(describing: failure)) for \(String(describing: error))")
    }
  }

  @Test func profileErrorsUseTheMessageShape() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on(
      "GET", LINEFixture.profilePath,
      reply: .json(
        #"{"message":"Authentication failed. Confirm that the access token in the authorization header is valid."}"#,
        status: 401))
    let unauthorized = await authError {
      _ = try await fixture.provider.fetchIdentity(for: Credential(accessToken: "revoked-token"))
    }
    #expect(unauthorized?.code == .invalidToken)
    #expect(unauthorized?.message.contains("Authentication failed") == true)
    #expect(
      unauthorized.map { fixture.provider.classifyFailure($0) }
        == .refreshTokenInvalid(.accessRevoked))

    fixture.stub.on(
      "GET", LINEFixture.profilePath,
      reply: .json(#"{"message":"failed to parse","details":[]}"#, status: 400))
    let malformed = await authError {
      _ = try await fixture.provider.fetchIdentity(for: Credential(accessToken: "t-1"))
    }
    #expect(malformed?.code == .providerError)
    #expect(
      malformed.map { fixture.provider.classifyFailure($0) }
        == .terminal(.providerRejected(code: "http_400")))

    fixture.stub.on("GET", LINEFixture.profilePath, reply: .json(#"{"displayName":"Brown"}"#))
    let noUser = await authError {
      _ = try await fixture.provider.fetchIdentity(for: Credential(accessToken: "t-1"))
    }
    #expect(noUser?.code == .invalidResponse)
  }
}
