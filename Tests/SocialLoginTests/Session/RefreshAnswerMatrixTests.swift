import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// A user is signed out only on a definitive answer of the provider. Every answer in this
/// matrix is not one: the session keeps its tokens, degrades, deletes nothing from the store,
/// and the next good answer brings `.signedIn` back. The whole stack runs: an `OIDCProvider`
/// and its OAuth 2.0 engine on a stub transport, a `SessionActor` and a real store.
@Suite(.timeLimit(.minutes(1)))
struct RefreshAnswerMatrixTests {
  static let html = "<html><head><title>Oops</title></head><body><h1>Oops</h1></body></html>"
  static let htmlHeaders: HTTPHeaderFields = ["Content-Type": "text/html"]

  /// Answers of a token endpoint (or of whatever stands in front of it) that are not the
  /// provider's verdict on the refresh token.
  static let answers: [(String, StubTransport.Reply)] = [
    ("200 HTML", .status(200, body: html, headers: htmlHeaders)),
    ("200 truncated JSON", .json(#"{"access_token":"at-new","refresh_tok"#)),
    ("200 JSON without access_token", .json(#"{"token_type":"bearer","expires_in":3600}"#)),
    ("403 HTML", .status(403, body: html, headers: htmlHeaders)),
    ("404 HTML", .status(404, body: html, headers: htmlHeaders)),
    ("400 empty", .status(400)),
    ("401 empty", .status(401)),
    ("502 HTML", .status(502, body: html, headers: htmlHeaders)),
    ("reset", .failure(URLError(.networkConnectionLost))),
    ("timeout", .failure(URLError(.timedOut))),
  ]

  struct Harness {
    let clock = ManualClock()
    let stub = StubTransport()
    let store = InMemorySessionStore()
    let key = SessionKey(provider: "corp", subject: "alice")
    let provider: OIDCProvider

    init(refreshTokenRejections: [RefreshTokenRejection] = []) throws {
      let base = try #require(URL(string: "https://id.example"))
      provider = OIDCProvider(
        id: "corp",
        configuration: .init(
          issuer: base, clientID: "cli",
          metadata: OIDCProviderMetadata(
            issuer: base.absoluteString,
            authorizationEndpoint: base.appendingPathComponent("authorize"),
            tokenEndpoint: base.appendingPathComponent("token"),
            jwksURI: base.appendingPathComponent("jwks")),
          refreshTokenRejections: refreshTokenRejections),
        transport: stub, clock: clock)
    }

    /// A session whose access token expired, stored with refresh token `rt-0`.
    func expiredSession() async throws -> SessionActor {
      let record = try await store.save(
        StoredSession(
          key: key,
          credential: Credential(
            accessToken: "at-0", refreshToken: "rt-0",
            expiresAt: clock.wallTime.addingTimeInterval(-60)),
          identity: Identity(provider: "corp", subject: "alice")),
        expectedVersion: nil)
      return SessionActor(
        record: record, provider: provider, store: store, clock: clock,
        policy: RefreshPolicy(
          proactiveMargin: nil,
          backoff: BackoffPolicy(baseDelay: .seconds(10), random: { $0.upperBound })))
    }
  }

  @Test(arguments: answers.indices)
  func anAnswerThatIsNotTheProvidersVerdictDegradesAndKeepsTheSession(index: Int) async throws {
    let (name, reply) = Self.answers[index]
    let harness = try Harness()
    let session = try await harness.expiredSession()
    harness.stub.on("POST", "/token", reply: reply)
    let error = await #expect(throws: AuthError.self, "\(name)") {
      try await session.freshAccessToken()
    }
    #expect(error?.code != .signedOut, "\(name): \(String(describing: error))")
    #expect(error?.isTransient == true, "\(name): \(String(describing: error))")
    guard case .degraded(let retryAt) = session.currentState else {
      Issue.record("\(name): expected degraded, got \(session.currentState)")
      return
    }
    let stored = try await harness.store.load(harness.key)
    #expect(stored?.credential.refreshToken == "rt-0", "\(name): the store keeps the session")
    #expect(await session.credential?.refreshToken == "rt-0", "\(name)")

    harness.stub.on(
      "POST", "/token",
      reply: .json(#"{"access_token":"at-1","refresh_token":"rt-1","expires_in":3600}"#))
    harness.clock.advance(by: .seconds(retryAt.timeIntervalSince(harness.clock.wallTime)))
    #expect(try await session.freshAccessToken() == "at-1", "\(name)")
    #expect(session.currentState == .signedIn, "\(name)")
    #expect(try await harness.store.load(harness.key)?.credential.refreshToken == "rt-1")
  }

  @Test func anOAuthInvalidGrantStillSignsOutAndDeletes() async throws {
    let harness = try Harness()
    let session = try await harness.expiredSession()
    harness.stub.on("POST", "/token", reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .refreshTokenExpired)
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
    #expect(try await harness.store.load(harness.key) == nil)
  }

  @Test func anUpperCaseInvalidGrantSignsOutToo() async throws {
    let harness = try Harness()
    let session = try await harness.expiredSession()
    harness.stub.on("POST", "/token", reply: .json(#"{"error":"INVALID_GRANT"}"#, status: 400))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
  }

  @Test func theEmptyBadRequestRuleSignsOutOnlyTheProviderConfiguredWithIt() async throws {
    let glewlwyd = try Harness(refreshTokenRejections: [.emptyBadRequest])
    let session = try await glewlwyd.expiredSession()
    glewlwyd.stub.on("POST", "/token", reply: .status(400))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
    #expect(try await glewlwyd.store.load(glewlwyd.key) == nil)

    // The rule is about an empty 400 only: an HTML 400 from a proxy still degrades.
    let proxied = try Harness(refreshTokenRejections: [.emptyBadRequest])
    let other = try await proxied.expiredSession()
    proxied.stub.on(
      "POST", "/token", reply: .status(400, body: Self.html, headers: Self.htmlHeaders))
    await #expect(throws: AuthError.self) { try await other.freshAccessToken() }
    guard case .degraded = other.currentState else {
      Issue.record("expected degraded, got \(other.currentState)")
      return
    }
  }
}
