import Foundation
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

@Suite("Apple errors", .heavy, .timeLimit(.minutes(10)))
struct AppleErrorTests {
  func refreshFailure(_ reply: StubTransport.Reply) async throws -> (AuthError?, RefreshFailure?) {
    let fixture = try AppleFixture()
    fixture.stub.on("POST", AppleFixture.tokenPath, reply: reply)
    let credential = AppleFixture.credential(idToken: try AppleFixture.idToken(nonce: "n"))
    let error = await authError { _ = try await fixture.provider.refresh(credential) }
    if let error {
      let secret = try await fixture.provider.clientSecret(for: AppleFixture.webClientID)
      expectNoSecrets(error, [AppleFixture.refreshToken, secret.revealed])
    }
    return (error, error.map { fixture.provider.classifyRefreshFailure($0) })
  }

  @Test func invalidGrantOnRefreshSignsOut() async throws {
    let (error, failure) = try await refreshFailure(
      .json(#"{"error":"invalid_grant"}"#, status: 400))
    #expect(error?.oauth?.error == "invalid_grant")
    #expect(error?.provider == .apple)
    #expect(failure == .refreshTokenInvalid(.refreshTokenRevoked))
  }

  @Test func invalidClientIsTheAppsFaultAndKeepsTheSession() async throws {
    let (error, failure) = try await refreshFailure(
      .json(#"{"error":"invalid_client"}"#, status: 400))
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("AppleConfiguration.clientIDs") == true)
    #expect(error?.message.contains(".p8") == true)
    #expect(failure == .transient(retryAfter: nil))
  }

  @Test(arguments: [
    "invalid_request", "unauthorized_client", "unsupported_grant_type", "invalid_scope",
  ])
  func otherDocumentedErrorsAreApplicationErrorsThatKeepTheSession(code: String) async throws {
    let (error, failure) = try await refreshFailure(
      .json(#"{"error":"\#(code)"}"#, status: 400))
    #expect(error?.code == .configuration)
    #expect(error?.oauth?.error == code)
    #expect(failure == .transient(retryAfter: nil))
  }

  @Test(
    "Bodies that are not an answer keep the session",
    arguments: [
      StubTransport.Reply.status(500, body: "<html><h1>500</h1></html>"),
      .status(503),
      .status(400),
      .status(400, body: "<html>Bad Request</html>", headers: ["Content-Type": "text/html"]),
      .json(#"{"access_token":"abc","expires_in":36"#),
      .status(200, body: ""),
      .status(200, body: "<html>captive portal</html>"),
      .json(#"{"error":"server_error"}"#, status: 400),
      .failure(AuthError(.network, "connection reset by peer")),
      .failure(AuthError(.timedOut, "timed out")),
    ])
  func nonAnswersDegrade(reply: StubTransport.Reply) async throws {
    let (error, failure) = try await refreshFailure(reply)
    #expect(error != nil)
    if case .transient = failure {
    } else {
      Issue.record("Expected transient, got \(String(describing: failure))")
    }
  }

  @Test func rateLimitKeepsRetryAfter() async throws {
    let (_, failure) = try await refreshFailure(
      .status(429, body: "", headers: ["Retry-After": "120"]))
    #expect(failure == .transient(retryAfter: ManualClock().wallTime.addingTimeInterval(120)))
  }

  @Test func anExpiredOrUsedCodeFailsTheLoginWithItsCode() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await authError {
      _ = try await fixture.provider.exchange(authorizationCode: "used-code")
    }
    #expect(error?.code == .providerError)
    #expect(error?.oauth?.error == "invalid_grant")
    expectNoSecrets(error, ["used-code"])
  }

  @Test func aFailedRevocationIsReported() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.revokePath, reply: .json(#"{"error":"invalid_client"}"#, status: 400))
    let error = await authError {
      try await fixture.provider.revoke(
        AppleFixture.credential(idToken: try AppleFixture.idToken(nonce: "n")))
    }
    #expect(error?.code == .configuration)
  }
}

@Suite("Apple configuration check", .heavy, .timeLimit(.minutes(10)))
struct AppleConfigurationCheckTests {
  @Test func aMadeUpCodeTellsWhetherTheClientIsAccepted() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.tokenPath, repeating: true,
      reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    guard case .ok = try await fixture.provider.validateConfiguration() else {
      Issue.record("Apple accepted the client, but the check did not say ok.")
      return
    }
    // Both client ids were asked, each with its own secret.
    #expect(fixture.form(AppleFixture.tokenPath, index: 0)["client_id"] == AppleFixture.webClientID)
    #expect(fixture.form(AppleFixture.tokenPath, index: 1)["client_id"] == AppleFixture.appClientID)
  }

  @Test func aRejectedClientIsAConfigurationError() async throws {
    let fixture = try AppleFixture()
    fixture.stub.on(
      "POST", AppleFixture.tokenPath, reply: .json(#"{"error":"invalid_client"}"#, status: 400))
    let error = await authError { _ = try await fixture.provider.validateConfiguration() }
    #expect(error?.code == .configuration)
  }

  @Test func withoutAKeyThereIsNothingToCheck() async throws {
    let provider = AppleProvider(
      configuration: try AppleConfiguration(
        clientIDs: ["com.example.app"], teamID: "", keyID: "", privateKeyPEM: nil,
        environment: [:]),
      transport: StubTransport())
    guard case .notCheckable = try await provider.validateConfiguration() else {
      Issue.record("A configuration without a key was checked.")
      return
    }
  }
}
