import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Full logins over real HTTP on 127.0.0.1: `LoginClient` + a real loopback redirect
/// (`HeadlessUserAgent.loopback`) + the providers' URLSession transport + ``FakeSocialServer``.
@Suite("Facebook and LINE over loopback", .serialized, .timeLimit(.minutes(3)))
struct ProviderLoopbackTests {
  let server: FakeSocialServer
  let clock = ManualClock()

  init() throws {
    server = try FakeSocialServer()
  }

  /// The browser: opens the provider's consent page and goes where it redirects.
  static let browser: HeadlessUserAgent.Browser = { url in
    var request = URLRequest(url: url)
    request.timeoutInterval = 60
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200, let next = URL(string: String(decoding: data, as: UTF8.self)) else {
      throw AuthError(.invalidCallback, "The consent page answered \(status).")
    }
    return next
  }

  func facebook(renewal: FacebookConfiguration.Renewal = .none) throws -> FacebookProvider {
    var configuration = try FacebookConfiguration(
      appID: FakeSocialServer.appID, appSecret: Secret(FakeSocialServer.appSecret),
      environment: [:])
    configuration.renewal = renewal
    try configuration.setEndpoint("dialog", to: server.url("/fb/dialog"))
    try configuration.setEndpoint("access_token", to: server.url("/fb/access_token"))
    try configuration.setEndpoint("debug_token", to: server.url("/fb/debug_token"))
    try configuration.setEndpoint("me", to: server.url("/fb/me"))
    return FacebookProvider(configuration: configuration, clock: clock)
  }

  func line() throws -> LINEProvider {
    var configuration = try LINEConfiguration(
      channelID: FakeSocialServer.channelID, channelSecret: Secret(FakeSocialServer.channelSecret),
      scopes: ["profile", "openid", "email"], environment: [:])
    configuration.botPrompt = .normal
    for name in ["authorize", "token", "verify", "profile", "revoke"] {
      try configuration.setEndpoint(name, to: server.url("/line/\(name)"))
    }
    return LINEProvider(configuration: configuration, clock: clock)
  }

  func client(_ providers: [any LoginProvider]) throws -> LoginClient {
    try LoginClient(
      providers: providers, store: InMemorySessionStore(), clock: clock,
      userAgent: HeadlessUserAgent.loopback(browser: Self.browser))
  }

  @Test func facebookLoginIdentityVerifyAndRevoke() async throws {
    defer { server.close() }
    let login = try client([try facebook()])
    let session = try await login(.facebook)
    let identity = try #require(await session.identity)
    #expect(identity.subject == "10001")
    #expect(identity.name == "Ada Lovelace")
    let token = try await session.freshAccessToken()
    #expect(token.hasPrefix("fb-token-"))
    #expect(await session.credential?.expiresAt != nil)
    #expect(
      await session.credential?.extra[FacebookProvider.dataAccessExpiresAtKey] == "1707776000")

    let verified = try await login.verify(.accessToken(Secret(token)), from: .facebook)
    #expect(verified.audience == .proven(audience: FakeSocialServer.appID))
    #expect(verified.identity.subject == "10001")
    #expect(verified.expiresAt == nil)  // expires_at: 0 means never

    let foreign = await authError {
      _ = try await login.verify(.accessToken("foreign-token-1"), from: .facebook)
    }
    #expect(foreign?.code == .invalidToken)
    #expect(foreign?.message.contains("another app") == true)

    let outcome = try await session.signOut(revoke: true)
    guard case .revoked = outcome else {
      Issue.record("Expected the token revoked, got \(outcome)")
      return
    }
    #expect(session.currentState == .signedOut(.userInitiated))
    let afterRevoke = await authError {
      _ = try await login.verify(.accessToken(Secret(token)), from: .facebook)
    }
    #expect(afterRevoke?.code == .invalidToken)
    #expect(afterRevoke?.signOutReason == .accessTokenExpired)
    #expect(server.state.withLock { $0.badProofs } == 0)
  }

  @Test func facebookWithoutRenewalSignsOutWhenTheTokenLapses() async throws {
    defer { server.close() }
    let login = try client([try facebook()])
    let session = try await login(.facebook)
    let token = try await session.freshAccessToken()
    // Nothing can renew it, so a still-valid token is served even when more TTL is asked.
    #expect(try await session.freshAccessToken(minimumTTL: .seconds(5_184_000)) == token)
    clock.advance(by: .seconds(5_184_000))
    let error = await authError { _ = try await session.freshAccessToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == .accessTokenExpired)
    #expect(session.currentState == .signedOut(.accessTokenExpired))
    #expect(server.count("GET /fb/access_token") == 1)  // the code exchange only
  }

  @Test func facebookReexchangeRenewsThenPasswordChangeSignsOut() async throws {
    defer { server.close() }
    let login = try client([try facebook(renewal: .reexchange)])
    let session = try await login(.facebook)
    let first = try await session.freshAccessToken()
    let renewed = try await session.forceRefresh().accessToken.revealed
    #expect(renewed != first)
    #expect(server.count("GET /fb/access_token") == 2)

    server.fail(
      "GET /fb/access_token",
      with: .json(
        #"{"error":{"message":"Application request limit reached","type":"OAuthException","code":4,"is_transient":true,"fbtrace_id":"F2"}}"#,
        status: 403))
    let throttled = await authError {
      _ = try await session.forceRefresh().accessToken.revealed
    }
    #expect(throttled?.isTransient == true)
    guard case .degraded = session.currentState else {
      Issue.record("Expected degraded after throttling, got \(session.currentState)")
      return
    }
    #expect(try await session.freshAccessToken() == renewed)  // the token still works
    let faults: [HTTPResponse] = [
      HTTPResponse(
        status: 429, headers: ["Retry-After": "30", "Content-Type": "text/plain"],
        body: Array("slow down".utf8)),
      .html("<html><h1>502 Bad Gateway</h1></html>", status: 502),
      .json(#"{"access_token":"fb-token-99","token_type":"bea"#),
      .html("<html>Sorry, something went wrong.</html>", status: 400),
    ]
    for fault in faults {
      clock.advance(by: .seconds(3600))  // past the backoff
      server.fail("GET /fb/access_token", with: fault)
      let error = await authError {
        _ = try await session.forceRefresh().accessToken.revealed
      }
      #expect(error?.code != .signedOut, "\(fault.status) signed the user out")
      #expect(session.currentState.isSignedIn)
      #expect(try await session.freshAccessToken() == renewed)
    }

    server.state.withLock { $0.invalidateWithSubcode = 460 }
    clock.advance(by: .seconds(3600))  // past the backoff
    let ended = await authError {
      _ = try await session.forceRefresh().accessToken.revealed
    }
    #expect(ended?.code == .signedOut)
    #expect(session.currentState == .signedOut(.passwordChanged))
  }

  @Test func lineLoginRefreshIdentityVerifyAndRevoke() async throws {
    defer { server.close() }
    let login = try client([try line()])
    let session = try await login(.line)
    let identity = try #require(await session.identity)
    #expect(identity.subject == FakeSocialServer.lineUser)
    #expect(identity.name == "Brown")
    #expect(identity.email == "taro@example.jp")
    #expect(identity.rawClaims["friendship_status_changed"] == true)
    let credential = try #require(await session.credential)
    #expect(credential.extra[LINEProvider.friendshipStatusChangedKey] == "true")

    let first = try await session.freshAccessToken()
    let refreshed = try await session.forceRefresh().accessToken.revealed
    #expect(refreshed != first)
    #expect(await session.credential?.refreshToken == credential.refreshToken)  // not rotated
    #expect(await session.credential?.idToken == credential.idToken)

    let verified = try await login.verify(.accessToken(Secret(refreshed)), from: .line)
    #expect(verified.audience == .proven(audience: FakeSocialServer.channelID))
    #expect(verified.identity.subject == FakeSocialServer.lineUser)
    let idToken = try #require(credential.idToken)
    let byIDToken = await authError {
      _ = try await login.verify(.idToken(idToken, nonce: "not-the-nonce"), from: .line)
    }
    #expect(byIDToken?.joseError?.reason == .nonceMismatch)

    let outcome = try await session.signOut(revoke: true)
    guard case .revoked = outcome else {
      Issue.record("Expected the token revoked, got \(outcome)")
      return
    }
    #expect(server.count("POST /line/revoke") == 1)
    let afterRevoke = await authError {
      _ = try await login.verify(.accessToken(Secret(refreshed)), from: .line)
    }
    #expect(afterRevoke?.code == .invalidToken)
  }

  @Test func lineFaultsDegradeAndADeadRefreshTokenSignsOut() async throws {
    defer { server.close() }
    let login = try client([try line()])
    let session = try await login(.line)
    let token = try await session.freshAccessToken()
    let faults: [HTTPResponse] = [
      HTTPResponse(
        status: 429, headers: ["Retry-After": "30", "Content-Type": "application/json"],
        body: Array(#"{"message":"rate limit exceeded"}"#.utf8)),
      .html("<html><h1>503 Service Unavailable</h1></html>", status: 503),
      .json(#"{"access_token":"line-access-9","expires_in":25"#),
      .html("<html>Bad Request</html>", status: 400),
    ]
    for fault in faults {
      server.fail("POST /line/token", with: fault)
      let error = await authError {
        _ = try await session.forceRefresh().accessToken.revealed
      }
      #expect(error?.code != .signedOut, "\(fault.status) signed the user out")
      guard case .degraded = session.currentState else {
        Issue.record("Expected degraded after \(fault.status), got \(session.currentState)")
        return
      }
      #expect(try await session.freshAccessToken() == token)
      clock.advance(by: .seconds(3600))
    }

    server.state.withLock { $0.lineRefreshTokens.removeAll() }
    let ended = await authError {
      _ = try await session.forceRefresh().accessToken.revealed
    }
    #expect(ended?.code == .signedOut)
    #expect(session.currentState == .signedOut(.refreshTokenExpired))
  }

  @Test func lineLoginWithoutStateIsRefusedByTheCallbackCheck() async throws {
    defer { server.close() }
    let login = try client([try line()])
    let agent = HeadlessUserAgent.loopback { url in
      var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
      components.queryItems = components.queryItems?.filter { $0.name != "state" }
      return try await Self.browser(try #require(components.url))
    }
    let error = await authError { _ = try await login.login(.line, using: agent) }
    #expect(error != nil)
    #expect(login.sessionCount == 0)
  }

  @Test func twoStepLoginsForWebServices() async throws {
    defer { server.close() }
    let login = try client([try facebook(), try line()])
    for provider in [ProviderID.facebook, .line] {
      let handle = try await login.beginLogin(provider, redirectURI: "https://app.example/cb")
      let landed = try await Self.browser(handle.url)
      #expect(landed.host == "app.example")
      let callback = try AuthorizationCallback(url: landed)
      // The web service checks the state against the browser's cookie (handle.state).
      let session = try await login.completeLogin(callback: callback, expectedState: handle.state)
      #expect(session.key.provider == provider)
      #expect(session.currentState == .signedIn)
      // The pending login was single use.
      let replay = await authError {
        _ = try await login.completeLogin(callback: callback, expectedState: handle.state)
      }
      #expect(replay?.code == .stateMismatch)
    }
    #expect(login.sessionCount == 2)
  }
}
