import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// X's single-use refresh tokens as seen by X: each token works once, then answers the
/// documented `invalid_request`. Thread-safe, for stub handlers and loopback servers.
final class XTokenLedger: @unchecked Sendable {
  // @unchecked: every property is read and written under `lock`.
  private let lock = NSLock()
  private var live: Set<String>
  private var issued = 0
  private var spent: [String] = []

  init(live: Set<String>) { self.live = live }

  /// Spends `refreshToken`: the next pair, or `nil` when it was already spent or is unknown.
  func rotate(_ refreshToken: String) -> (access: String, refresh: String)? {
    lock.lock()
    defer { lock.unlock() }
    guard live.remove(refreshToken) != nil else { return nil }
    spent.append(refreshToken)
    issued += 1
    let next = (access: "at-\(issued)", refresh: "rt-\(issued)")
    live.insert(next.refresh)
    return next
  }

  /// Registers a refresh token issued at login.
  func issue(_ refreshToken: String) {
    lock.lock()
    defer { lock.unlock() }
    live.insert(refreshToken)
  }

  /// Kills every refresh token (the user revoked the app).
  func revokeAll() {
    lock.lock()
    defer { lock.unlock() }
    live.removeAll()
  }

  var spentTokens: [String] {
    lock.lock()
    defer { lock.unlock() }
    return spent
  }

  /// The token endpoint's answer to a refresh request.
  func answer(_ request: TransportRequest) -> TransportResponse {
    let form = XFixture.form(request)
    let json = ["Content-Type": "application/json"] as HTTPHeaderFields
    guard form["grant_type"] == "refresh_token", let token = form["refresh_token"],
      let next = rotate(token)
    else {
      return TransportResponse(
        status: 400, headers: json, body: Data(XFixture.spentRefreshToken.utf8))
    }
    return TransportResponse(
      status: 200, headers: json,
      body: Data(XFixture.token(next.access, refresh: next.refresh).utf8))
  }
}

/// X sessions through ``LoginClient``: rotation under load, adoption of a sibling's token, and
/// every fault ending in the right state.
@Suite(.timeLimit(.minutes(3)))
struct XSessionTests {
  let stub = StubTransport()
  let clock = ManualClock()
  let store = InMemorySessionStore()
  let key = SessionKey(provider: .twitter, subject: XFixture.userID)

  func makeSession(refresh: String = "rt-0") async throws -> (LoginClient, SessionActor) {
    let provider = try XFixture.provider(stub, clock: clock)
    let client = try LoginClient(
      providers: [provider], store: store, clock: clock,
      policy: RefreshPolicy(
        proactiveMargin: nil, backoff: BackoffPolicy(baseDelay: .seconds(1), jitter: .none)))
    let session = try await client.register(
      credential: XFixture.expiredCredential(refresh: refresh, clock: clock),
      identity: XFixture.identity)
    return (client, session)
  }

  @Test func aThousandConcurrentCallersCauseOneRotationAndShareItsToken() async throws {
    let ledger = XTokenLedger(live: ["rt-0"])
    stub.on("POST", "/2/oauth2/token", repeating: true, reply: .handler { ledger.answer($0) })
    let (_, session) = try await makeSession()
    stub.holdResponses()
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<1_000 {
        group.addTask { try await session.freshAccessToken() }
      }
      await stub.waitUntilHeld(count: 1)
      for _ in 0..<200 { await Task.yield() }
      stub.release()
      var all: [String] = []
      for try await token in group { all.append(token) }
      return all
    }
    #expect(tokens.count == 1_000)
    #expect(Set(tokens) == ["at-1"])
    #expect(stub.requestCount(path: "/2/oauth2/token") == 1)
    #expect(ledger.spentTokens == ["rt-0"])
    #expect(try await store.load(key)?.credential.refreshToken == "rt-1")
    #expect(session.currentState == .signedIn)
    // The next refresh spends the rotated token, not the dead one.
    clock.advance(by: .seconds(7200))
    #expect(try await session.freshAccessToken() == "at-2")
    #expect(ledger.spentTokens == ["rt-0", "rt-1"])
  }

  @Test func aStaleCopysSpentTokenAdoptsTheSiblingsRotatedOneAndStaysSignedIn() async throws {
    let store = self.store
    let key = self.key
    let clock = self.clock
    // A sibling process spent rt-0 a moment before us and stored its result; X tells us our
    // copy of rt-0 is dead.
    stub.on(
      "POST", "/2/oauth2/token",
      reply: .handler { request in
        #expect(XFixture.form(request)["refresh_token"] == "rt-0")
        let current = try #require(try await store.load(key))
        var sibling = current
        sibling.credential = Credential(
          accessToken: "at-sibling", refreshToken: "rt-sibling", tokenType: "bearer",
          expiresAt: clock.wallTime.addingTimeInterval(7200))
        _ = try await store.save(sibling, expectedVersion: current.version)
        return TransportResponse(
          status: 400, headers: ["Content-Type": "application/json"],
          body: Data(XFixture.spentRefreshToken.utf8))
      })
    let (_, session) = try await makeSession()
    #expect(try await session.freshAccessToken() == "at-sibling")
    #expect(session.currentState == .signedIn)
    #expect(stub.requestCount(path: "/2/oauth2/token") == 1)
    #expect(try await store.load(key)?.credential.refreshToken == "rt-sibling")
  }

  @Test func aRevokedRefreshTokenSignsOutWithAReason() async throws {
    let ledger = XTokenLedger(live: [])
    stub.on("POST", "/2/oauth2/token", repeating: true, reply: .handler { ledger.answer($0) })
    let (client, session) = try await makeSession()
    let error = await authError { _ = try await session.freshAccessToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == .refreshTokenExpired)
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
    #expect(try await store.load(key) == nil)
    #expect(client.session(for: key) == nil)
  }

  @Test func aRateLimitedRefreshDegradesUntilTheReset() async throws {
    let reset = clock.wallTime.addingTimeInterval(900)
    stub.on(
      "POST", "/2/oauth2/token",
      reply: .json(
        XFixture.tooManyRequestsProblem, status: 429,
        headers: ["x-rate-limit-reset": String(Int(reset.timeIntervalSince1970))]))
    let (_, session) = try await makeSession()
    let error = await authError { _ = try await session.freshAccessToken() }
    #expect(error?.code == .serverUnavailable)
    #expect(session.currentState == .degraded(retryAt: reset))
    #expect(try await store.load(key)?.credential.refreshToken == "rt-0")
    // Until the reset, callers fail fast without asking X again.
    _ = await authError { _ = try await session.freshAccessToken() }
    #expect(stub.requestCount(path: "/2/oauth2/token") == 1)
    // After it, the refresh goes through.
    stub.on("POST", "/2/oauth2/token", reply: .json(XFixture.token("at-9", refresh: "rt-9")))
    clock.advance(by: .seconds(900))
    #expect(try await session.freshAccessToken() == "at-9")
    #expect(session.currentState == .signedIn)
  }

  @Test(arguments: [
    (503, "<html><body>Something is technically wrong.</body></html>"),
    (500, #"{"title":"Internal Server Error","type":"about:blank","status":500}"#),
    (200, #"{"token_type":"bearer","expires_in":7200,"access_tok"#),
    (400, ""),
  ])
  func serverErrorsAndMalformedBodiesDegradeAndKeepTheTokens(status: Int, body: String)
    async throws
  {
    stub.on("POST", "/2/oauth2/token", reply: .status(status, body: body))
    let (_, session) = try await makeSession()
    _ = await authError { _ = try await session.freshAccessToken() }
    #expect(session.currentState == .degraded(retryAt: clock.wallTime.addingTimeInterval(1)))
    #expect(try await store.load(key)?.credential.refreshToken == "rt-0")
  }

  @Test func signOutRevokesBothTokensAtX() async throws {
    stub.on("POST", "/2/oauth2/revoke", repeating: true, reply: .json(XFixture.revoked))
    let (_, session) = try await makeSession()
    let outcome = try await session.signOut()
    guard case .revoked = outcome else {
      Issue.record("revocation outcome \(outcome)")
      return
    }
    #expect(stub.requestCount(path: "/2/oauth2/revoke") == 2)
    #expect(session.currentState == .signedOut(.userInitiated))
  }
}
