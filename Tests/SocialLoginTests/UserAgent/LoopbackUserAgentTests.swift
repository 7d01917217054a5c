import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1)))
struct LoopbackUserAgentTests {
  typealias Support = UserAgentTestSupport

  /// Starts an agent session and its `authorize` call; returns once the browser was "opened".
  func startLogin(
    _ agent: (@escaping BrowserOpener) -> LoopbackUserAgent, state: String = "state-123"
  ) async throws -> (any UserAgentSession, Task<AuthorizationCallback, any Error>, URL) {
    let opened = OpenedURLs()
    let session = try await agent(opened.opener).start()
    let url = try Support.authorizationURL(redirectURI: session.redirectURI, state: state)
    let waiting = Task { try await session.authorize(url) }
    #expect(try await opened.next() == url)
    return (session, waiting, url)
  }

  /// ``startLogin(_:state:)`` with an agent whose server outlives the callback by a minute,
  /// so later hits can be checked.
  func startLingeringLogin() async throws
    -> (any UserAgentSession, Task<AuthorizationCallback, any Error>, URL)
  {
    try await startLogin { LoopbackUserAgent(completionGracePeriod: .seconds(60), openBrowser: $0) }
  }

  /// Starts an OAuth 1.0a login (X's authorization URL: no `state`, one `oauth_token`,
  /// `request-123`) on a lingering agent; returns once the browser was "opened".
  func startOAuth1Login() async throws
    -> (any UserAgentSession, Task<AuthorizationCallback, any Error>)
  {
    let opened = OpenedURLs()
    let session = try await LoopbackUserAgent(
      completionGracePeriod: .seconds(60), openBrowser: opened.opener
    ).start()
    let url = try #require(
      URL(string: "https://api.x.invalid/oauth/authenticate?oauth_token=request-123"))
    let waiting = Task { try await session.authorize(url) }
    #expect(try await opened.next() == url)
    return (session, waiting)
  }

  /// Each of `queries` on the redirect path is answered 400 and ignored.
  func expectIgnored(_ session: any UserAgentSession, _ queries: [String]) async throws {
    for query in queries {
      let page = try await Support.fetch(session.redirectURI + query)
      #expect(page.status == 400, "\(query) was taken for this login's callback")
    }
  }

  @Test func fullLoopbackRoundTripOnAnEphemeralPort() async throws {
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    let redirect = try #require(URLComponents(string: session.redirectURI))
    #expect(redirect.scheme == "http")
    #expect(redirect.host == "127.0.0.1")
    #expect(redirect.path == "/callback")
    #expect((redirect.port ?? 0) > 0)

    // The browser's favicon request and other paths are answered 404 and ignored.
    let base = "http://127.0.0.1:\(redirect.port ?? 0)"
    #expect(try await Support.fetch(base + "/favicon.ico").status == 404)
    #expect(try await Support.fetch(base + "/other?code=x&state=state-123").status == 404)
    // Only GET and POST count on the redirect path; a POST's parameters are its form body.
    #expect(
      try await Support.fetch(session.redirectURI + "?code=x&state=state-123", method: "PUT")
        .status == 405)
    #expect(
      try await Support.fetch(session.redirectURI + "?code=x&state=state-123", method: "POST")
        .status == 400)

    let page = try await Support.fetch(session.redirectURI + "?code=secret-code&state=state-123")
    #expect(page.status == 200)
    #expect(page.body.contains("Sign-in received"))
    #expect(!page.body.contains("secret-code"))
    #expect(!page.body.contains("state-123"))

    let callback = try await waiting.value
    #expect(try callback.value("code") == "secret-code")
    #expect(try callback.value("state") == "state-123")

    // The login completed once; later hits get the "already completed" page.
    let again = try await Support.fetch(session.redirectURI + "?code=other&state=state-123")
    #expect(again.status == 409)
    #expect(again.body.contains("already completed"))
  }

  @Test func aFormPostCallbackCompletesTheLogin() async throws {
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    let user = #"{"name":{"firstName":"Jane"}}"#
    let page = try await Support.fetch(
      session.redirectURI, method: "POST",
      form: FormEncoding.encode([
        ("code", "posted-code"), ("state", "state-123"), ("user", user),
      ]))
    #expect(page.status == 200)
    let callback = try await waiting.value
    #expect(try callback.value("code") == "posted-code")
    #expect(try callback.value("user") == user)
  }

  @Test func anErrorRedirectWithoutThisLoginsStateIsIgnored() async throws {
    // Any web page can aim `?error=...` at a fixed loopback port: it must not end the login.
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    // Without state, and with another one.
    try await expectIgnored(session, ["?error=access_denied", "?error=access_denied&state=guess"])
    #expect(
      try await Support.fetch(session.redirectURI + "?code=a+b%2Bc&state=state-123").status == 200)
    // The same decoder as every other callback path: `+` is a space, `%2B` a plus.
    let callback = try await waiting.value
    #expect(try callback.value("code") == "a b+c")
    let web = try AuthorizationCallback(
      url: try #require(URL(string: session.redirectURI + "?code=a+b%2Bc&state=state-123")))
    #expect(try web.value("code") == "a b+c")
    let redirected = try AuthorizationCallback(
      redirectedTo: try #require(URL(string: session.redirectURI + "?code=a+b%2Bc&state=s")),
      expecting: session.redirectURI)
    #expect(try redirected.value("code") == "a b+c")
  }

  @Test func anErrorRedirectWithThisLoginsStateEndsIt() async throws {
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    _ = try await Support.fetch(session.redirectURI + "?error=ACCESS_DENIED&state=state-123")
    let error = await #expect(throws: AuthError.self) { try await waiting.value }
    // LINE's upper-case code is still a denial.
    #expect(error?.code == .accessDenied)
  }

  @Test func callbackWithAnotherStateIsIgnored() async throws {
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    // A stale tab's state, none, and a repeated one.
    try await expectIgnored(
      session,
      ["?code=old&state=stale-tab", "?code=no-state", "?code=x&state=state-123&state=state-123"])

    #expect(
      try await Support.fetch(session.redirectURI + "?code=good&state=state-123").status == 200)
    #expect(try await waiting.value.value("code") == "good")
  }

  /// X's OAuth 1.0a authorization URL has no `state`, only the request token: a callback
  /// without that token (`?error=access_denied` from any local page, another login's token)
  /// is ignored instead of ending the login.
  @Test func anOAuth1LoginIgnoresCallbacksWithoutItsRequestToken() async throws {
    let (session, waiting) = try await startOAuth1Login()
    defer { session.cancel() }
    try await expectIgnored(
      session,
      [
        "?error=access_denied", "?denied=request-999", "?oauth_token=request-999&oauth_verifier=v",
        "?oauth_verifier=v", "?oauth_token=request-123&denied=request-999",
      ])
    let page = try await Support.fetch(
      session.redirectURI + "?state=s&oauth_token=request-123&oauth_verifier=verifier-1")
    #expect(page.status == 200)
    let callback = try await waiting.value
    #expect(try callback.value("oauth_verifier") == "verifier-1")
  }

  @Test func anOAuth1DenialCarryingTheRequestTokenEndsTheLogin() async throws {
    let (session, waiting) = try await startOAuth1Login()
    defer { session.cancel() }
    #expect(try await Support.fetch(session.redirectURI + "?denied=request-123").status == 200)
    #expect(try await waiting.value.value("denied") == "request-123")
  }

  @Test func errorCallbackShowsAnEscapedPageAndThrowsAccessDenied() async throws {
    let (session, waiting, _) = try await startLingeringLogin()
    defer { session.cancel() }
    let description = "<script>alert(1)</script> & more"
    var components = try #require(URLComponents(string: session.redirectURI))
    components.queryItems = [
      URLQueryItem(name: "error", value: "access_denied"),
      URLQueryItem(name: "error_description", value: description),
      URLQueryItem(name: "state", value: "state-123"),
    ]
    let page = try await Support.fetch(try #require(components.url).absoluteString)
    #expect(page.status == 200)
    #expect(page.body.contains("declined"))
    #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
    #expect(!page.body.contains("<script>"))

    let error = await #expect(throws: AuthError.self) { try await waiting.value }
    #expect(error?.code == .accessDenied)
    #expect(error?.oauth?.error == "access_denied")
    #expect(error?.oauth?.errorDescription == description)
  }

  @Test func timesOutOnTheInjectedClock() async throws {
    let clock = ManualClock()
    let (session, waiting, _) = try await startLogin {
      LoopbackUserAgent(clock: clock, openBrowser: $0)
    }
    let port = try #require(URLComponents(string: session.redirectURI)?.port)
    try await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(299))
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .seconds(1))
    let error = await #expect(throws: AuthError.self) { try await waiting.value }
    #expect(error?.code == .timedOut)
    // authorize returned only after the socket was closed: the port is free again.
    let rebound = try LoopbackServer(port: UInt16(port))
    rebound.close()
  }

  @Test func cancellingTheWaitingTaskClosesTheSocketPromptly() async throws {
    let (session, waiting, _) = try await startLogin { LoopbackUserAgent(openBrowser: $0) }
    let port = try #require(URLComponents(string: session.redirectURI)?.port)
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    await #expect(throws: (any Error).self) {
      try await Support.fetch(session.redirectURI + "?code=late&state=state-123")
    }
    let rebound = try LoopbackServer(port: UInt16(port))
    rebound.close()
  }

  @Test func cancelBeforeAuthorizeReleasesThePortAndFailsAuthorize() async throws {
    let session = try await LoopbackUserAgent(openBrowser: { _ in }).start()
    let port = try #require(URLComponents(string: session.redirectURI)?.port)
    session.cancel()
    let rebound = try LoopbackServer(port: UInt16(port))
    rebound.close()
    let url = try Support.authorizationURL(redirectURI: session.redirectURI)
    await #expect(throws: (any Error).self) { try await session.authorize(url) }
  }

  @Test func twoLoginsInARowOnTheSameFixedPort() async throws {
    let port = try Support.freePort()
    let agent = LoopbackUserAgent(port: port, completionGracePeriod: .seconds(60)) { url in
      let redirect = try UserAgentTestSupport.redirect(
        from: url, adding: [URLQueryItem(name: "code", value: "c")])
      _ = try await UserAgentTestSupport.fetch(redirect.absoluteString)
    }
    for attempt in 1...2 {
      let session = try await agent.start()
      #expect(session.redirectURI == "http://127.0.0.1:\(port)/callback", "attempt \(attempt)")
      let url = try Support.authorizationURL(
        redirectURI: session.redirectURI, state: "s-\(attempt)")
      // The first session still lingers (grace period) when the second one starts.
      #expect(try await session.authorize(url).value("state") == "s-\(attempt)")
    }
  }

  @Test func aFixedPortInUseIsAConfigurationError() async throws {
    let holder = try LoopbackServer()
    defer { holder.close() }
    let error = await #expect(throws: AuthError.self) {
      _ = try await LoopbackUserAgent(port: holder.port).start()
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("in use") == true)
  }

  @Test func rejectsARedirectPathWithoutLeadingSlashOrWithAQuery() async throws {
    for path in ["callback", "/callback?x=1", "/a b"] {
      let error = await #expect(throws: AuthError.self) {
        _ = try await LoopbackUserAgent(path: path).start()
      }
      #expect(error?.code == .configuration)
    }
  }

  @Test func customPathAndIPv6RedirectURI() async throws {
    let session: any UserAgentSession
    do {
      session = try await LoopbackUserAgent(address: .ipv6, path: "/oauth/done").start()
    } catch let error as AuthError where error.code == .configuration {
      return  // no ::1 on this host
    }
    defer { session.cancel() }
    #expect(session.redirectURI.hasPrefix("http://[::1]:"))
    #expect(session.redirectURI.hasSuffix("/oauth/done"))
  }

  @Test func aFailingOpenerDoesNotFailTheLoginByDefault() async throws {
    struct OpenerFailed: Error {}
    let clock = ManualClock()
    let session = try await LoopbackUserAgent(clock: clock) { _ in throw OpenerFailed() }.start()
    defer { session.cancel() }
    let url = try Support.authorizationURL(redirectURI: session.redirectURI)
    let waiting = Task { try await session.authorize(url) }
    try await clock.waitForSleepers(count: 1)
    #expect(try await Support.fetch(session.redirectURI + "?code=c&state=state-123").status == 200)
    #expect(try await waiting.value.value("code") == "c")
  }

  @Test func aFailingOpenerFailsTheLoginWhenAsked() async throws {
    struct OpenerFailed: Error {}
    let agent = LoopbackUserAgent(failsIfBrowserFails: true) { _ in throw OpenerFailed() }
    let session = try await agent.start()
    let url = try Support.authorizationURL(redirectURI: session.redirectURI)
    await #expect(throws: OpenerFailed.self) { try await session.authorize(url) }
  }
}
