import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct FirebaseRefreshTests {
  /// Signs in through the stub and returns the session (ID token `n = 1`, refresh token `rt-1`).
  func signedIn(_ fixture: FirebaseFixture) async throws -> FirebaseSession {
    fixture.stub.on("POST", FirebaseWire.signInPath, reply: .json(FirebaseWire.signInResponse()))
    fixture.stub.on("POST", FirebaseWire.lookupPath, reply: .json(FirebaseWire.lookupResponse()))
    return try await fixture.firebase.signIn(with: .facebook(accessToken: "fb"))
  }

  @Test func refreshSpendsTheRefreshTokenAtSecureTokenAndPersistsTheNewTokens() async throws {
    let fixture = try FirebaseFixture()
    let signedIn = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.tokenPath,
      reply: .json(
        FirebaseWire.refreshResponse(number: 2),
        headers: ["Date": "Tue, 14 Nov 2023 22:23:20 GMT"]))
    fixture.clock.advance(by: .seconds(3590))

    let token = try await signedIn.idToken()

    #expect(token == FirebaseWire.idToken(number: 2))
    let request = try #require(fixture.stub.requests.last)
    #expect(request.url.host == "securetoken.googleapis.com")
    #expect(request.url.path == "/v1/token")
    #expect(try fixture.queryKey(2) == "test-api-key")
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(try fixture.formBody(2) == ["grant_type": "refresh_token", "refresh_token": "rt-1"])
    let stored = try #require(try await fixture.store.load(signedIn.session.key))
    #expect(stored.credential.refreshToken == "rt-2")
    #expect(stored.credential.idToken?.revealed == token)
    // 1_700_000_000 is 2023-11-14 22:13:20 GMT; the server said 22:23:20, so the token's
    // expiry is on its clock, an hour after its Date.
    #expect(stored.credential.expiresAt == Date(timeIntervalSince1970: 1_700_000_600 + 3600))
    #expect(stored.credential.serverTimeOffset == 600 - 3590)
  }

  @Test(arguments: [
    ("TOKEN_EXPIRED", SignOutReason.refreshTokenExpired),
    ("INVALID_REFRESH_TOKEN", .refreshTokenRevoked),
    ("USER_DISABLED", .accountDisabled),
    ("USER_NOT_FOUND", .accountDisabled),
  ])
  func definitiveRefreshAnswersSignOutWithTheirReason(message: String, reason: SignOutReason)
    async throws
  {
    let fixture = try FirebaseFixture()
    let signedIn = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.tokenPath,
      repeating: true, reply: .json(FirebaseWire.tokenError(message), status: 400))
    fixture.clock.advance(by: .seconds(3590))
    let error = await #expect(throws: AuthError.self) { _ = try await signedIn.idToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == reason)
    #expect(signedIn.session.currentState == .signedOut(reason))
    #expect(try await fixture.store.load(signedIn.session.key) == nil)
  }

  @Test(arguments: [
    StubTransport.Reply.json(FirebaseWire.tokenError("QUOTA_EXCEEDED"), status: 400),
    .json(FirebaseWire.tokenError("TOO_MANY_ATTEMPTS_TRY_LATER"), status: 400),
    .json(FirebaseWire.tokenError("INVALID_API_KEY"), status: 400),
    .status(502, body: "<html><h1>Bad Gateway</h1></html>"),
    .status(400, body: "<html>Bad Request</html>"),
    .status(200, body: ""),
    .status(200, body: #"{"id_token":"eyJ"#),
    .failure(AuthError(.network, "connection reset")),
  ])
  func otherRefreshFailuresDegradeAndKeepTheTokens(reply: StubTransport.Reply) async throws {
    let fixture = try FirebaseFixture()
    let signedIn = try await signedIn(fixture)
    fixture.stub.on("POST", FirebaseWire.tokenPath, reply: reply)
    fixture.clock.advance(by: .seconds(3590))
    await #expect(throws: AuthError.self) { _ = try await signedIn.idToken() }
    guard case .degraded = signedIn.session.currentState else {
      Issue.record("expected degraded, got \(signedIn.session.currentState)")
      return
    }
    let stored = try #require(try await fixture.store.load(signedIn.session.key))
    #expect(stored.credential.refreshToken == "rt-1")
  }

  /// Tokens issued for another user are never stored as this user's (issue 18: an identity
  /// mismatch ends the session with a typed reason), and the spent refresh token is not sent
  /// again.
  @Test func tokensForAnotherUserSignOutWithIdentityMismatch() async throws {
    let fixture = try FirebaseFixture()
    let signedIn = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.tokenPath,
      reply: .json(FirebaseWire.refreshResponse(userID: "someone-else", number: 2)))
    fixture.clock.advance(by: .seconds(3590))
    let error = await #expect(throws: AuthError.self) { _ = try await signedIn.idToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == .identityMismatch)
    #expect(signedIn.session.currentState == .signedOut(.identityMismatch))
    #expect(try await fixture.store.load(signedIn.session.key) == nil)
    #expect(fixture.stub.requestCount(path: FirebaseWire.tokenPath) == 1)
  }

  @Test func thousandConcurrentCallersCauseOneSecureTokenRequest() async throws {
    let fixture = try FirebaseFixture()
    let signedIn = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.tokenPath, reply: .json(FirebaseWire.refreshResponse(number: 2)))
    fixture.clock.advance(by: .seconds(3590))
    fixture.stub.holdResponses()
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<1000 {
        group.addTask { try await signedIn.idToken() }
      }
      await fixture.stub.waitUntilHeld(count: 1)
      fixture.stub.release()
      var all: Set<String> = []
      for try await token in group { all.insert(token) }
      return all
    }
    #expect(tokens == [FirebaseWire.idToken(number: 2)])
    #expect(fixture.stub.requestCount(path: FirebaseWire.tokenPath) == 1)
  }

  @Test func oneHourTokensAreRefreshedAheadOfExpiryWithoutAnyCaller() async throws {
    let fixture = try FirebaseFixture(
      policy: RefreshPolicy(proactiveMargin: .seconds(300), refreshDeadline: nil))
    let signedIn = try await signedIn(fixture)
    fixture.stub.on(
      "POST", FirebaseWire.tokenPath, reply: .json(FirebaseWire.refreshResponse(number: 2)))
    try await fixture.clock.waitForSleepers(count: 1)
    fixture.clock.advance(by: .seconds(3300))
    await fixture.stub.waitForRequests(count: 3)
    var spins = 0
    while try await fixture.store.load(signedIn.session.key)?.credential.refreshToken != "rt-2" {
      spins += 1
      if spins > 100_000 {
        Issue.record("the proactive refresh was not persisted")
        break
      }
      await Task.yield()
    }
    #expect(fixture.stub.requestCount(path: FirebaseWire.tokenPath) == 1)
    #expect(try await signedIn.idToken() == FirebaseWire.idToken(number: 2))
  }

  @Test func refreshFailuresAreClassifiedByFirebaseCode() {
    let provider = FirebaseProvider(configuration: .init(apiKey: "k", projectID: "p"))
    func classify(_ message: String) -> RefreshFailure {
      provider.classifyRefreshFailure(
        FirebaseError(message: message, httpStatus: 400).authError(operation: "refresh"))
    }
    #expect(classify("TOKEN_EXPIRED") == .refreshTokenInvalid(.refreshTokenExpired))
    #expect(classify("USER_DISABLED") == .terminal(.accountDisabled))
    #expect(classify("QUOTA_EXCEEDED") == .transient(retryAfter: nil))
    #expect(classify("INVALID_API_KEY") == .transient(retryAfter: nil))
    #expect(
      classify("MISSING_REFRESH_TOKEN")
        == .terminal(.providerRejected(code: "MISSING_REFRESH_TOKEN")))
    #expect(provider.classifyRefreshFailure(CancellationError()) == .transient(retryAfter: nil))
  }
}
