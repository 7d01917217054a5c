import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// The loopback callback's page is sent once the login has finished: it says who signed in or
/// why the exchange failed, and it is still answered when the exchange hangs.
@Suite(.timeLimit(.minutes(1)))
struct LoopbackCallbackPageTests {
  typealias Support = UserAgentTestSupport
  let clock = ManualClock()

  /// Starts `client.login` through a loopback agent; returns the login and the URL the
  /// "browser" was sent to.
  func startLogin(
    provider: GatedProvider, completionTimeout: Duration = .seconds(30)
  ) async throws -> (Task<SessionActor, any Error>, URL) {
    let opened = OpenedURLs()
    let agent = LoopbackUserAgent(
      completionGracePeriod: .seconds(60), completionTimeout: completionTimeout, clock: clock,
      openBrowser: opened.opener)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), userAgent: agent)
    let login = Task { try await client.login(provider.id) }
    return (login, try await opened.next())
  }

  /// The browser's request for the approved callback of `url`.
  func browse(_ url: URL) throws -> Task<BrowserPage, any Error> {
    let callback = try Support.approve(url).absoluteString
    return Task { try await Support.fetch(callback) }
  }

  /// Whether `task` finishes within `window` of real time (without waiting for it longer).
  func finishes(_ task: Task<BrowserPage, any Error>, within window: Duration) async -> Bool {
    let (first, report) = AsyncStream.makeStream(of: Bool.self)
    Task {
      _ = try? await task.value
      report.yield(true)
    }
    Task {
      try? await Task.sleep(for: window)
      report.yield(false)
    }
    for await finished in first { return finished }
    return false
  }

  @Test func thePageIsSentOnlyAfterTheExchangeAndSaysWhoSignedIn() async throws {
    let provider = GatedProvider(clock: clock, name: "Ada <b>&</b> Lovelace")
    let (login, url) = try await startLogin(provider: provider)
    let page = try browse(url)
    // The exchange is held: the callback arrived, the browser has no answer yet.
    try await provider.exchange.waitForWaiters(count: 1)
    #expect(await !finishes(page, within: .milliseconds(500)))
    provider.exchange.open()
    let answered = try await page.value
    #expect(answered.status == 200)
    #expect(answered.body.contains("Signed in"))
    #expect(answered.body.contains("Ada &lt;b&gt;&amp;&lt;/b&gt; Lovelace (user-1)"))
    #expect(!answered.body.contains("<b>"))
    #expect(!answered.body.contains("code-1"))
    #expect(!answered.body.contains("at-1"))
    #expect(try await login.value.key == SessionKey(provider: "scripted", subject: "user-1"))
  }

  @Test func aFailedExchangeShowsItsRedactedEscapedReason() async throws {
    let failure = AuthError(
      .providerError, "The code <x> was refused: refresh_token=rt-secret", provider: "scripted")
    let provider = GatedProvider(clock: clock, failure: failure)
    let (login, url) = try await startLogin(provider: provider)
    let page = try browse(url)
    try await provider.exchange.waitForWaiters(count: 1)
    #expect(await !finishes(page, within: .milliseconds(500)))
    provider.exchange.open()
    let answered = try await page.value
    #expect(answered.status == 200)
    #expect(answered.body.contains("Sign-in failed"))
    #expect(answered.body.contains("The code &lt;x&gt; was refused"))
    #expect(!answered.body.contains("<x>"))
    #expect(!answered.body.contains("rt-secret"))
    let error = await #expect(throws: AuthError.self) { try await login.value }
    #expect(error?.code == .providerError)
  }

  @Test func aHangingExchangeStillAnswersThePageAndKeepsTheLogin() async throws {
    let provider = GatedProvider(clock: clock, name: "Ada")
    let (login, url) = try await startLogin(
      provider: provider, completionTimeout: .milliseconds(300))
    let page = try browse(url)
    try await provider.exchange.waitForWaiters(count: 1)
    let answered = try await page.value
    #expect(answered.status == 200)
    #expect(answered.body.contains("still completing"))
    provider.exchange.open()
    #expect(try await login.value.key == SessionKey(provider: "scripted", subject: "user-1"))
  }

  @Test func aBrowserThatGoesAwayDoesNotLoseTheLogin() async throws {
    let provider = GatedProvider(clock: clock, name: "Ada")
    let (login, url) = try await startLogin(provider: provider)
    let page = try browse(url)
    try await provider.exchange.waitForWaiters(count: 1)
    page.cancel()
    _ = try? await page.value
    provider.exchange.open()
    #expect(try await login.value.key == SessionKey(provider: "scripted", subject: "user-1"))
  }

  @Test func aCustomAgentGetsTheOutcomeThroughItsResponder() async throws {
    let outcomes = AsyncStream.makeStream(of: String.self)
    let agent = RespondingAgent(redirectURI: "https://app.example/cb") { outcome in
      switch outcome {
      case .signedIn(let identity): outcomes.continuation.yield(identity?.name ?? "?")
      case .failed(let error): outcomes.continuation.yield("failed: \(error)")
      }
    }
    let provider = GatedProvider(clock: clock, name: "Grace")
    provider.exchange.open()
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil), userAgent: agent)
    _ = try await client.login(provider.id)
    var iterator = outcomes.stream.makeAsyncIterator()
    #expect(await iterator.next() == "Grace")
  }
}

/// A `ScriptedProvider` whose code exchange waits at ``exchange`` and then succeeds, naming
/// the user `name`, or throws `failure`.
actor GatedProvider: LoginProvider {
  nonisolated let id: ProviderID = "scripted"
  nonisolated let capabilities: ProviderCapabilities = []
  nonisolated let exchange = Gate()
  private let base: ScriptedProvider
  private let name: String?
  private let failure: AuthError?

  init(clock: ManualClock, name: String? = nil, failure: AuthError? = nil) {
    base = ScriptedProvider(clock: clock)
    self.name = name
    self.failure = failure
  }

  func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try await base.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    await exchange.wait()
    if let failure { throw failure }
    return try await base.completeAuthorization(pending, callback: callback)
  }

  func refresh(_ credential: Credential) async throws -> Credential {
    try await base.refresh(credential)
  }

  func fetchIdentity(for credential: Credential) async throws -> Identity {
    var identity = try await base.fetchIdentity(for: credential)
    identity.name = name
    return identity
  }

  func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    try await base.verify(token)
  }

  func revoke(_ credential: Credential) async throws { try await base.revoke(credential) }
}

/// An agent whose sessions approve at once and report the outcome to `report`.
struct RespondingAgent: AuthorizationUserAgent {
  let redirectURI: String
  let report: @Sendable (LoginOutcome) -> Void

  func start() async throws -> any UserAgentSession { Session(agent: self) }

  struct Session: UserAgentSession {
    let agent: RespondingAgent
    var redirectURI: String { agent.redirectURI }

    func authorize(_ url: URL) async throws -> AuthorizationCallback {
      try AuthorizationCallback(
        redirectedTo: try UserAgentTestSupport.approve(url), expecting: redirectURI)
    }

    func receiveCallback(_ url: URL) async throws -> ReceivedCallback {
      ReceivedCallback(
        callback: try await authorize(url), responder: CallbackResponder(agent.report))
    }

    func cancel() {}
  }
}
