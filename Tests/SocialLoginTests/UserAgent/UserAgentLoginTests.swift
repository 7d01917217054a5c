import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct UserAgentLoginTests {
  typealias Support = UserAgentTestSupport
  let clock = ManualClock()
  let store = InMemorySessionStore()
  let pendingLogins: InMemoryPendingLoginStore
  let key = SessionKey(provider: "scripted", subject: "user-1")
  let redirectURI = "https://app.example/oauth/callback"

  init() {
    pendingLogins = InMemoryPendingLoginStore(clock: clock)
  }

  func makeClient(
    provider: (any LoginProvider)? = nil, userAgent: (any AuthorizationUserAgent)? = nil
  ) throws -> LoginClient {
    try LoginClient(
      providers: [provider ?? ScriptedProvider(clock: clock)], store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), pendingLogins: pendingLogins,
      userAgent: userAgent)
  }

  var headless: HeadlessUserAgent {
    HeadlessUserAgent(redirectURI: redirectURI) { url in try Support.approve(url) }
  }

  /// Waits for `.signedIn` of `key` on `events`.
  func signedIn(_ events: AsyncStream<SessionEvent>, key: SessionKey) async -> Bool {
    for await event in events where event.key == key {
      return event.state == .signedIn
    }
    return false
  }

  @Test func loginThroughAHeadlessAgentRegistersPersistsAndPublishes() async throws {
    let client = try makeClient()
    let events = client.events
    let session = try await client.login("scripted", using: headless)
    #expect(session.key == key)
    #expect(session.currentState == .signedIn)
    #expect(try await session.freshAccessToken() == "at-1")
    #expect(try await store.load(key)?.credential.accessToken == "at-1")
    #expect(client.session(for: key) === session)
    #expect(await signedIn(events, key: key))
    #expect(pendingLogins.count == 0)
  }

  @Test func callAsFunctionUsesTheClientsAgent() async throws {
    let login = try makeClient(userAgent: headless)
    let session = try await login("scripted")
    #expect(session.key == key)
  }

  @Test func loginThroughTheRealLoopbackServer() async throws {
    let client = try makeClient()
    let agent = HeadlessUserAgent.loopback { url in try UserAgentTestSupport.approve(url) }
    let session = try await client.login("scripted", using: agent)
    #expect(try await store.load(session.key) != nil)
  }

  @Test func twoLoopbackLoginsInARowOnTheSameFixedPort() async throws {
    let port = try Support.freePort()
    let client = try makeClient()
    let agent = HeadlessUserAgent.loopback(port: port) { url in
      try UserAgentTestSupport.approve(url)
    }
    let first = try await client.login("scripted", using: agent)
    let second = try await client.login("scripted", using: agent)
    #expect(first === second)  // the same account: the live session took the new credential
    #expect(try await second.freshAccessToken() == "at-2")
  }

  @Test func declinedLoginThrowsAccessDeniedAndForgetsThePendingLogin() async throws {
    let client = try makeClient()
    let agent = HeadlessUserAgent(redirectURI: redirectURI) { url in
      try UserAgentTestSupport.redirect(
        from: url, adding: [URLQueryItem(name: "error", value: "access_denied")])
    }
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.login("scripted", using: agent)
    }
    #expect(error?.code == .accessDenied)
    #expect(pendingLogins.count == 0)
    #expect(client.sessionCount == 0)
  }

  @Test func aCallbackForAnotherLoginIsAStateMismatch() async throws {
    let client = try makeClient()
    let agent = HeadlessUserAgent(redirectURI: redirectURI) { url in
      try UserAgentTestSupport.redirect(
        from: url, adding: [URLQueryItem(name: "code", value: "c")], state: "someone-else")
    }
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.login("scripted", using: agent)
    }
    #expect(error?.code == .stateMismatch)
    #expect(pendingLogins.count == 0)
  }

  @Test func cancellingLoginStopsTheAgentAndForgetsThePendingLogin() async throws {
    let client = try makeClient()
    let entered = Gate()
    let clock = self.clock
    let agent = HeadlessUserAgent(redirectURI: redirectURI) { url in
      entered.open()
      try await clock.sleep(until: clock.now.advanced(by: .seconds(86_400)), tolerance: nil)
      return url
    }
    let login = Task { try await client.login("scripted", using: agent) }
    await entered.wait()
    #expect(pendingLogins.count == 1)
    login.cancel()
    await #expect(throws: CancellationError.self) { try await login.value }
    #expect(pendingLogins.count == 0)
  }

  @Test func cancellingALoopbackLoginClosesTheSocket() async throws {
    let opened = OpenedURLs()
    let client = try makeClient(
      userAgent: LoopbackUserAgent(clock: clock, openBrowser: opened.opener))
    let login = Task { try await client("scripted") }
    let url = try await opened.next()
    let redirect = try #require(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "redirect_uri" }?.value)
    let port = try #require(URLComponents(string: redirect)?.port)
    login.cancel()
    await #expect(throws: CancellationError.self) { try await login.value }
    #expect(pendingLogins.count == 0)
    await #expect(throws: (any Error).self) {
      try await Support.fetch(try Support.approve(url).absoluteString)
    }
    let rebound = try await LoopbackUserAgent(port: UInt16(port)).start()
    rebound.cancel()
  }

  // MARK: - beginLogin / completeLogin

  @Test func beginInOneHandlerCompleteInAnother() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    #expect(handle.provider == "scripted")
    #expect(try Support.state(of: handle.url) == handle.state)
    #expect(!handle.description.contains(handle.state))
    #expect(!String(reflecting: handle).contains(handle.state))
    var dumped = ""
    dump(handle, to: &dumped)
    #expect(!dumped.contains(handle.state))

    let redirect = try Support.approve(handle.url)
    let session = try await Task.detached {
      try await client.completeLogin(
        callback: AuthorizationCallback(url: redirect), expectedState: handle.state)
    }.value
    #expect(session.key == key)
    #expect(try await store.load(key) != nil)
  }

  @Test func aCallbackFromAnotherBrowserIsRefusedAndConsumesNothing() async throws {
    // Login CSRF: the attacker starts a login of their own, approves it, and sends the
    // callback to the victim, whose browser holds the state of the victim's own login.
    let client = try makeClient()
    let attackers = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let victims = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let planted = try AuthorizationCallback(url: try Support.approve(attackers.url))
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(callback: planted, expectedState: victims.state)
    }
    #expect(error?.code == .stateMismatch)
    let noCookie = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(callback: planted, expectedState: "")
    }
    #expect(noCookie?.code == .stateMismatch)
    #expect(client.sessionCount == 0)
    #expect(pendingLogins.count == 2, "neither login was consumed")
    // The attacker's own browser (with its cookie) can still finish the attacker's login.
    _ = try await client.completeLogin(callback: planted, expectedState: attackers.state)
    #expect(pendingLogins.count == 1)
  }

  @Test func forgedStateDoesNotConsumeThePendingLogin() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let forged = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: "evil"), URLQueryItem(name: "state", value: "guess"),
    ])
    let error = await #expect(throws: AuthError.self) {
      // Even with a matching cookie, an unknown state finds no pending login.
      _ = try await client.completeLogin(callback: forged, expectedState: "guess")
    }
    #expect(error?.code == .stateMismatch)
    #expect(pendingLogins.count == 1)
    let session = try await client.completeLogin(
      callback: AuthorizationCallback(url: try Support.approve(handle.url)),
      expectedState: handle.state)
    #expect(session.key == key)
  }

  @Test func aCallbackTheProviderRejectsDoesNotConsumeThePendingLogin() async throws {
    let client = try makeClient(provider: PickyProvider(clock: clock))
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let bad = try Support.redirect(
      from: handle.url, adding: [URLQueryItem(name: "code", value: "bad")])
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(
        callback: AuthorizationCallback(url: bad), expectedState: handle.state)
    }
    #expect(error?.code == .providerError)
    let good = try Support.redirect(
      from: handle.url, adding: [URLQueryItem(name: "code", value: "good")])
    let session = try await client.completeLogin(
      callback: AuthorizationCallback(url: good), expectedState: handle.state)
    #expect(session.key == key)
  }

  @Test func aReplayedCallbackFails() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let callback = try AuthorizationCallback(url: try Support.approve(handle.url))
    _ = try await client.completeLogin(callback: callback, expectedState: handle.state)
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(callback: callback, expectedState: handle.state)
    }
    #expect(error?.code == .stateMismatch)
  }

  @Test func concurrentDuplicateCallbacksSignInOnce() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let callback = try AuthorizationCallback(url: try Support.approve(handle.url))
    let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
      for _ in 0..<20 {
        group.addTask {
          (try? await client.completeLogin(callback: callback, expectedState: handle.state)) != nil
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.filter { $0 }.count == 1)
  }

  @Test func anExpiredPendingLoginIsRejected() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    clock.advance(by: .seconds(601))  // ScriptedProvider's logins live 600 s
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(
        callback: AuthorizationCallback(url: try Support.approve(handle.url)),
        expectedState: handle.state)
    }
    #expect(error?.code == .stateMismatch)
    #expect(client.sessionCount == 0)
  }

  @Test func missingOrRepeatedStateIsRejected() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let missing = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(
        callback: AuthorizationCallback(parameters: [URLQueryItem(name: "code", value: "c")]),
        expectedState: handle.state)
    }
    #expect(missing?.code == .stateMismatch)
    let repeated = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(
        callback: AuthorizationCallback(parameters: [
          URLQueryItem(name: "code", value: "c"),
          URLQueryItem(name: "state", value: handle.state),
          URLQueryItem(name: "state", value: handle.state),
        ]),
        expectedState: handle.state)
    }
    #expect(repeated?.code == .invalidCallback)
    #expect(pendingLogins.count == 1)
  }

  @Test func anErrorCallbackEndsTheLogin() async throws {
    let client = try makeClient()
    let handle = try await client.beginLogin("scripted", redirectURI: redirectURI)
    let denied = try Support.redirect(
      from: handle.url, adding: [URLQueryItem(name: "error", value: "access_denied")])
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.completeLogin(
        callback: AuthorizationCallback(url: denied), expectedState: handle.state)
    }
    #expect(error?.code == .accessDenied)
    #expect(pendingLogins.count == 0)
  }

  @Test func unknownProviderIsRejectedBeforeAnythingStarts() async throws {
    let client = try makeClient()
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.login(.line, using: headless)
    }
    #expect(error?.code == .unknownProvider)
    let begin = await #expect(throws: AuthError.self) {
      _ = try await client.beginLogin(.line, redirectURI: redirectURI)
    }
    #expect(begin?.code == .unknownProvider)
  }
}
