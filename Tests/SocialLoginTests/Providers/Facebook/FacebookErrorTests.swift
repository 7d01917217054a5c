import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("Facebook errors and renewal", .timeLimit(.minutes(2)))
struct FacebookErrorTests {
  /// The failure of a `/me` call answered with `reply`.
  func meFailure(_ reply: StubTransport.Reply) async throws -> (AuthError?, RefreshFailure?) {
    let fixture = try FacebookFixture()
    fixture.stub.on("GET", FacebookFixture.mePath, reply: reply)
    let error = await authError {
      _ = try await fixture.provider.fetchIdentity(
        for: Credential(accessToken: Secret(FacebookFixture.userToken)))
    }
    return (error, error.map { fixture.provider.classifyFailure($0) })
  }

  @Test(
    "Code 190 subcodes sign out with distinct reasons",
    arguments: [
      (458, SignOutReason.appRemoved), (460, .passwordChanged), (463, .accessTokenExpired),
      (467, .loggedOutAtProvider), (493, .sessionInvalidated),
      (459, .providerRejected(code: "190/459")),
    ])
  func invalidTokenSubcodes(subcode: Int, reason: SignOutReason) async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: 190, subcode: subcode), status: 400))
    #expect(error?.code == .invalidToken)
    #expect(error?.providerCode == "190")
    #expect(error?.providerSubcode == String(subcode))
    #expect(error?.signOutReason == reason)
    #expect(failure == .refreshTokenInvalid(reason))
  }

  @Test func code190WithoutSubcodeMeansAccessRevoked() async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: 190), status: 401))
    #expect(error?.signOutReason == .accessRevoked)
    #expect(failure == .refreshTokenInvalid(.accessRevoked))
  }

  @Test(
    "Throttling codes are transient whatever the status",
    arguments: [(4, 400), (17, 403), (32, 400), (613, 400), (1, 500), (2, 503)])
  func throttling(code: Int, status: Int) async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: code), status: status))
    #expect(error?.code == .serverUnavailable)
    #expect(error?.isTransient == true)
    #expect(error?.providerCode == String(code))
    #expect(failure == .transient(retryAfter: nil))
  }

  @Test func isTransientFlagIsTransient() async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: 368, transient: true), status: 400))
    #expect(error?.isTransient == true)
    #expect(failure == .transient(retryAfter: nil))
  }

  @Test func retryAfterIsKept() async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: 4), status: 429, headers: ["Retry-After": "120"]))
    let expected = ManualClock().wallTime.addingTimeInterval(120)
    #expect(error?.retryAfter == expected)
    #expect(failure == .transient(retryAfter: expected))
  }

  @Test func permissionErrorIsTerminalWithItsCode() async throws {
    let (error, failure) = try await meFailure(
      .json(FacebookFixture.graphError(code: 200), status: 403))
    #expect(error?.code == .providerError)
    #expect(failure == .terminal(.providerRejected(code: "200")))
  }

  @Test(
    "Bodies that are not a Graph answer degrade",
    arguments: [
      StubTransport.Reply.status(502, body: "<html><body>Bad Gateway</body></html>"),
      .status(
        400, body: "<html>Sorry, something went wrong.</html>",
        headers: ["Content-Type": "text/html"]),
      .status(400),
      .json(#"{"error":{"message":"Error validating acc"#, status: 400),
      .json(#"{"id":"10001","name""#, status: 200),
      .status(200, body: "<html>captive portal</html>"),
      .failure(AuthError(.network, "connection reset")),
    ])
  func nonAnswersDegrade(reply: StubTransport.Reply) async throws {
    let (error, failure) = try await meFailure(reply)
    #expect(error != nil)
    #expect(error?.signOutReason == nil)
    if case .transient = failure {
    } else {
      Issue.record(
        "Expected transient, got \(String(describing: failure)) for \(String(describing: error))")
    }
  }

  @Test func withoutRenewalTheTokenCannotBeRefreshed() async throws {
    let fixture = try FacebookFixture()
    #expect(!fixture.provider.capabilities.contains(.refresh))
    let error = await authError {
      _ = try await fixture.provider.refresh(Credential(accessToken: "t"))
    }
    #expect(error?.code == .refreshTokenInvalid)
    let failure = error.map { fixture.provider.classifyRefreshFailure($0) }
    #expect(failure == .terminal(.accessTokenExpired))
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test func reexchangeRenewsAStillValidToken() async throws {
    let fixture = try FacebookFixture { $0.renewal = .reexchange }
    #expect(fixture.provider.capabilities.contains(.refresh))
    fixture.scriptLogin()
    let (pending, callback) = try await fixture.pendingAndCallback()
    let credential = try await fixture.provider.completeAuthorization(pending, callback: callback)
    #expect(credential.refreshToken == credential.accessToken)

    fixture.stub.on(
      "GET", FacebookFixture.tokenPath,
      reply: .json(FacebookFixture.tokenBody(FacebookFixture.longLivedToken)))
    fixture.stub.on("GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.debugBody()))
    let renewed = try await fixture.provider.refresh(credential)
    let exchange = fixture.stub.requests.filter { $0.url.path == FacebookFixture.tokenPath }.last
    #expect(FacebookFixture.query(exchange)["grant_type"] == "fb_exchange_token")
    #expect(FacebookFixture.query(exchange)["fb_exchange_token"] == FacebookFixture.userToken)
    #expect(renewed.accessToken.revealed == FacebookFixture.longLivedToken)
    #expect(renewed.refreshToken?.revealed == FacebookFixture.longLivedToken)
    #expect(renewed.extra == credential.extra)
  }

  @Test func expiredTokenCannotBeReexchanged() async throws {
    let fixture = try FacebookFixture { $0.renewal = .reexchange }
    fixture.stub.on(
      "GET", FacebookFixture.tokenPath,
      reply: .json(FacebookFixture.graphError(code: 190, subcode: 463), status: 400))
    let error = await authError {
      _ = try await fixture.provider.refresh(
        Credential(accessToken: "old", refreshToken: "old"))
    }
    let failure = error.map { fixture.provider.classifyRefreshFailure($0) }
    #expect(failure == .refreshTokenInvalid(.accessTokenExpired))
    expectNoSecrets(error, [FacebookFixture.appSecret.revealed])
  }
}
