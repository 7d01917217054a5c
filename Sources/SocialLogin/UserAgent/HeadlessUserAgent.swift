import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A user agent without a user: a closure plays the browser. For tests, emulators and
/// automation.
///
/// The `browser` closure receives the authorization URL and returns the URL the provider
/// finally redirected to (for example by submitting the provider's login form and reading the
/// `Location` header). The agent checks that this URL is at ``redirectURI`` and turns its query
/// (or, when there is no query, its fragment) into the ``AuthorizationCallback``; an `error`
/// redirect throws ``AuthError/Code/accessDenied`` or ``AuthError/Code/providerError``.
///
/// ```swift
/// let agent = HeadlessUserAgent(redirectURI: "https://app.example/callback") { url in
///   try await emulator.approve(url)  // returns https://app.example/callback?code=...&state=...
/// }
/// let session = try await client.login("emulated-oidc", using: agent)
/// ```
///
/// To exercise the full loopback path instead, use ``loopback(port:path:timeout:clock:browser:)``:
/// the redirect URL the closure returns is fetched from a real ``LoopbackUserAgent`` server.
///
/// ```swift
/// let agent = HeadlessUserAgent.loopback { url in try await emulator.approve(url) }
/// let session = try await client.login("emulated-oidc", using: agent)
/// ```
public struct HeadlessUserAgent: AuthorizationUserAgent {
  /// Plays the browser: gets the authorization URL, returns the final redirect URL.
  public typealias Browser = @Sendable (URL) async throws -> URL

  /// The redirect URI every session of this agent uses.
  public let redirectURI: String
  private let browser: Browser

  /// Creates a headless agent.
  ///
  /// - Parameters:
  ///   - redirectURI: The redirect URI to put into authorization requests.
  ///   - browser: Follows the authorization URL and returns the URL redirected to.
  public init(redirectURI: String, browser: @escaping Browser) {
    self.redirectURI = redirectURI
    self.browser = browser
  }

  /// Returns a session that calls the browser closure once.
  public func start() async throws -> any UserAgentSession {
    HeadlessSession(redirectURI: redirectURI, browser: browser)
  }

  /// A ``LoopbackUserAgent`` whose "browser" is `browser`: the redirect URL it returns is
  /// fetched with `URLSession` from the loopback server, exactly as a real browser would.
  ///
  /// Failures of `browser` or of that fetch (a non-2xx answer from the loopback server) fail
  /// the login at once instead of waiting for the timeout.
  ///
  /// - Parameters:
  ///   - port: A fixed port, or `0` for an ephemeral one.
  ///   - path: The redirect path.
  ///   - timeout: How long to wait for the callback.
  ///   - clock: The clock the timeout runs on.
  ///   - browser: Follows the authorization URL and returns the loopback URL redirected to.
  public static func loopback(
    port: UInt16 = 0,
    path: String = "/callback",
    timeout: Duration = LoopbackUserAgent.defaultTimeout,
    clock: any AuthClock = SystemAuthClock(),
    browser: @escaping Browser
  ) -> LoopbackUserAgent {
    LoopbackUserAgent(
      port: port, path: path, timeout: timeout, failsIfBrowserFails: true, clock: clock
    ) { url in
      let redirect = try await browser(url)
      let (_, response) = try await URLSession.shared.data(from: redirect)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      guard (200..<300).contains(status) else {
        throw AuthError(
          .invalidCallback, "The loopback redirect answered with status \(status).",
          httpStatus: status)
      }
    }
  }
}

/// One headless login: runs the browser closure in a task that ``cancel()`` can cancel.
final class HeadlessSession: UserAgentSession {
  let redirectURI: String
  private let browser: HeadlessUserAgent.Browser
  private let state = Locked(State())

  private struct State {
    var cancelled = false
    var task: Task<URL, any Error>?
  }

  init(redirectURI: String, browser: @escaping HeadlessUserAgent.Browser) {
    self.redirectURI = redirectURI
    self.browser = browser
  }

  func authorize(_ url: URL) async throws -> AuthorizationCallback {
    let browser = self.browser
    let task = try state.withLock { state throws(AuthError) -> Task<URL, any Error> in
      guard state.task == nil else {
        throw AuthError(.configuration, "authorize(_:) was already called on this session.")
      }
      let task = Task { try await browser(url) }
      if state.cancelled { task.cancel() }
      state.task = task
      return task
    }
    let landed = try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
    try Task.checkCancellation()
    if state.withLock({ $0.cancelled }) { throw CancellationError() }
    let callback = try AuthorizationCallback(redirectedTo: landed, expecting: redirectURI)
    if let error = callback.authorizationError() { throw error }
    return callback
  }

  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
