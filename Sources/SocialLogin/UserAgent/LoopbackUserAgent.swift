import Foundation
import LoopbackHTTP
import SocialLoginCrypto

/// Opens an authorization URL for the user, typically in their web browser.
///
/// ``LoopbackUserAgent`` calls it once per login, after the loopback port is listening.
public typealias BrowserOpener = @Sendable (URL) async throws -> Void

/// Signs in through the user's browser and a redirect to a port on this machine (RFC 8252
/// §7.3), the right flow for command-line tools and desktop apps.
///
/// ``start()`` binds `127.0.0.1` (or `::1`) on a fixed or ephemeral port, so the redirect URI
/// `http://127.0.0.1:<port>/callback` is known before the provider builds its request. Then
/// ``UserAgentSession/authorize(_:)`` opens the browser and waits for the provider's redirect:
///
/// - only `GET` requests to the redirect path (parameters in the query) and `POST` requests
///   (an `application/x-www-form-urlencoded` body: the `response_mode=form_post` callback of
///   Sign in with Apple) count; anything else (`/favicon.ico`, probes) gets a 404 or 405 and is
///   ignored. Apple itself accepts only https return URLs that are not localhost or an IP
///   address: the POSTed loopback callback serves the emulator and https redirects you
///   forward here;
/// - when the authorization URL carries a `state`, a callback with a different or no `state`
///   (a stale tab from an earlier attempt, another local process, a web page aiming an
///   `?error=` redirect at the port), error redirects included, gets a 400 page and is ignored;
///   an OAuth 1.0a authorization URL (no `state`, one `oauth_token`) ties its callback by the
///   request token instead: a callback whose `oauth_token` (or `denied`, when the user
///   declines) is not that token is ignored the same way;
/// - the first valid callback completes the login; later hits get an "already completed"
///   page. The browser's request is answered once the login has finished (see
///   ``UserAgentSession/receiveCallback(_:)``): a short HTML page says who signed in or why it
///   failed, and never shows codes or tokens. When the exchange takes longer than
///   ``completionTimeout``, or with ``UserAgentSession/authorize(_:)`` (which has no way to
///   report the outcome), the page only says the sign-in was received. A browser that goes
///   away before its page does not end the login;
/// - an `error` redirect (`access_denied`, ...) with the login's `state` shows the error and
///   throws it;
/// - no callback within ``timeout`` throws ``AuthError/Code/timedOut``;
/// - cancelling the waiting task closes the socket before `authorize` returns.
///
/// After a successful callback the server keeps answering for ``completionGracePeriod`` so the
/// browser surely receives its page, then closes; starting this agent again on the same fixed
/// port closes that lingering server first.
///
/// ```swift
/// let client = try LoginClient(providers: [twitter], store: store)
/// // The default agent: ephemeral port, default browser, five-minute timeout.
/// let session = try await client.login(.twitter)
///
/// // A fixed port (registered with the provider) and a custom way to show the URL:
/// let agent = LoopbackUserAgent(port: 8765, path: "/oauth/callback") { url in
///   print("Please visit \(url)")
/// }
/// let other = try await client.login("corp", using: agent)
/// ```
public struct LoopbackUserAgent: AuthorizationUserAgent {
  /// The loopback address to listen on.
  public enum Address: Sendable, Hashable {
    /// `127.0.0.1`, the address RFC 8252 recommends.
    case ipv4
    /// `::1`. Only for providers that insist; many clients (including URLSession on Linux)
    /// cannot reach `http://[::1]:port/`.
    case ipv6

    var loopbackAddress: LoopbackAddress {
      switch self {
      case .ipv4: .ipv4
      case .ipv6: .ipv6
      }
    }
  }

  /// The default time to wait for the callback: five minutes.
  public static let defaultTimeout: Duration = .seconds(300)

  /// The address to listen on.
  public let address: Address
  /// The port to listen on; `0` lets the system pick a free one for each login.
  public let port: UInt16
  /// The redirect path, starting with `/` (default `/callback`).
  public let path: String
  /// How long ``UserAgentSession/authorize(_:)`` waits for the callback, on ``clock``.
  public let timeout: Duration
  /// How long the server keeps answering after the callback (so the browser surely gets its
  /// page) before it closes.
  public let completionGracePeriod: Duration
  /// How long, in real time, the browser's request for the callback waits for the login to
  /// finish (the code exchange) before it is answered anyway, with a page saying the sign-in
  /// was received.
  public let completionTimeout: Duration
  /// Whether a failing ``openBrowser`` fails the login. When `false` (the default) the URL is
  /// still printed by the default opener, and the user can open it by hand.
  public let failsIfBrowserFails: Bool
  /// The clock the timeout runs on.
  public let clock: any AuthClock
  /// Shows the authorization URL to the user.
  public let openBrowser: BrowserOpener
  private let lingering = LingeringSession()

  /// Creates a loopback agent.
  ///
  /// - Parameters:
  ///   - address: `.ipv4` (`127.0.0.1`, default) or `.ipv6` (`::1`).
  ///   - port: A fixed port (registered with the provider), or `0` for an ephemeral one.
  ///   - path: The redirect path; must start with `/` and carry no query or fragment.
  ///   - timeout: How long to wait for the callback (default five minutes).
  ///   - completionGracePeriod: How long the server keeps answering after the callback.
  ///   - completionTimeout: How long the callback's page waits for the login to finish
  ///     (default 30 seconds).
  ///   - failsIfBrowserFails: Whether an error from `openBrowser` fails the login.
  ///   - clock: The clock the timeout runs on.
  ///   - openBrowser: Shows the URL; by default ``systemBrowser``.
  public init(
    address: Address = .ipv4,
    port: UInt16 = 0,
    path: String = "/callback",
    timeout: Duration = defaultTimeout,
    completionGracePeriod: Duration = .seconds(2),
    completionTimeout: Duration = .seconds(30),
    failsIfBrowserFails: Bool = false,
    clock: any AuthClock = SystemAuthClock(),
    openBrowser: @escaping BrowserOpener = LoopbackUserAgent.systemBrowser
  ) {
    self.address = address
    self.port = port
    self.path = path
    self.timeout = timeout
    self.completionGracePeriod = completionGracePeriod
    self.completionTimeout = completionTimeout
    self.failsIfBrowserFails = failsIfBrowserFails
    self.clock = clock
    self.openBrowser = openBrowser
  }

  /// Binds the loopback port and returns the session whose ``UserAgentSession/redirectURI`` is
  /// `http://127.0.0.1:<port><path>` (or `http://[::1]:<port><path>`).
  ///
  /// - Throws: ``AuthError/Code/configuration`` for a bad path or a fixed port that is in use,
  ///   ``AuthError/Code/network`` when the socket cannot be created.
  public func start() async throws -> any UserAgentSession {
    guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"),
      (try? HTTPRequest(method: "GET", target: path)) != nil
    else {
      throw AuthError(
        .configuration, "The loopback redirect path must start with '/' and have no query.")
    }
    if port != 0 { await lingering.shutDown() }
    let server: LoopbackServer
    do {
      server = try LoopbackServer(bindTo: address.loopbackAddress, port: port)
    } catch {
      throw Self.authError(for: error)
    }
    let session = LoopbackSession(server: server, agent: self)
    if port != 0 { lingering.track(session) }
    return session
  }

  /// The default ``BrowserOpener``: prints `Open this URL to sign in: <url>` on standard error
  /// and opens it as ``systemBrowser(environment:)`` does with the process's environment, read
  /// at each call. It never throws: if no browser starts, the user opens the printed URL by
  /// hand.
  public static let systemBrowser: BrowserOpener = { url in
    try await systemBrowser(environment: ProcessInfo.processInfo.environment)(url)
  }

  /// A ``BrowserOpener`` that prints `Open this URL to sign in: <url>` on standard error and
  /// opens the URL the way `git` and `gh` do: with the command in `BROWSER` when it is set and
  /// not empty (split on spaces, the URL appended as its last argument, looked up in `PATH`),
  /// else, where a desktop is available, with the system's opener (`open` on macOS, `xdg-open`
  /// on Linux when `DISPLAY` or `WAYLAND_DISPLAY` is set). It never throws and does not wait
  /// for the browser.
  ///
  /// ```swift
  /// // The variables come from a configuration rather than the process:
  /// let agent = LoopbackUserAgent(
  ///   openBrowser: LoopbackUserAgent.systemBrowser(environment: ["BROWSER": "firefox"]))
  /// ```
  ///
  /// - Parameter environment: Where `BROWSER`, `DISPLAY` and `WAYLAND_DISPLAY` are read; the
  ///   process's environment by default.
  public static func systemBrowser(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> BrowserOpener {
    { url in
      FileHandle.standardError.write(
        Data("Open this URL to sign in: \(url.absoluteString)\n".utf8))
      #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
        let browser = (environment["BROWSER"] ?? "").split(separator: " ").map(String.init)
        if !browser.isEmpty {
          launch("/usr/bin/env", browser + [url.absoluteString])
          return
        }
      #endif
      #if os(macOS)
        launch("/usr/bin/open", [url.absoluteString])
      #elseif os(Linux) || os(FreeBSD) || os(OpenBSD)
        let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
          !($0 ?? "").isEmpty
        }
        if hasDisplay { launch("/usr/bin/env", ["xdg-open", url.absoluteString]) }
      #endif
    }
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
    /// Starts `executable` without waiting for it; failures are ignored.
    private static func launch(_ executable: String, _ arguments: [String]) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try? process.run()
    }
  #endif

  static func authError(for error: LoopbackServerError) -> AuthError {
    switch error {
    case .addressInUse(let port):
      AuthError(
        .configuration,
        "Loopback port \(port) is already in use (is another sign-in in progress?).",
        underlying: error)
    case .addressUnavailable, .permissionDenied:
      AuthError(
        .configuration, "The loopback redirect cannot listen: \(error).", underlying: error)
    default:
      AuthError(.network, "The loopback redirect cannot listen: \(error).", underlying: error)
    }
  }
}

/// The last session an agent with a fixed port started, so the next start can close it.
///
/// Held weakly: a session nobody uses any more is freed, and its server closes its socket.
private final class LingeringSession: Sendable {
  private struct Reference {
    weak var session: LoopbackSession?
  }

  private let reference = Locked(Reference())

  func track(_ session: LoopbackSession) {
    reference.withLock { $0.session = session }
  }

  func shutDown() async {
    let previous = reference.withLock { reference in
      defer { reference.session = nil }
      return reference.session
    }
    await previous?.shutDown()
  }
}

/// One loopback login: the bound server and the one-shot callback slot.
final class LoopbackSession: UserAgentSession {
  let redirectURI: String
  private let server: LoopbackServer
  private let path: String
  private let timeout: Duration
  private let gracePeriod: Duration
  private let completionTimeout: Duration
  private let failsIfBrowserFails: Bool
  private let clock: any AuthClock
  private let openBrowser: BrowserOpener
  private let state = Locked(State())

  private struct State {
    var started = false
    var expectedState: String?
    /// The OAuth 1.0a request token of an authorization URL without `state` (X's
    /// `oauth/authenticate?oauth_token=…`): its callback carries it as `oauth_token`, or as
    /// `denied` when the user declines.
    var expectedRequestToken: String?
    var outcome: Result<AuthorizationCallback, any Error>?
    var waiter: CheckedContinuation<Result<AuthorizationCallback, any Error>, Never>?
    var serving: Task<Void, Never>?
    /// When the outcome came from a browser request (which is being answered): the page
    /// that request waits for, settled once the login has finished.
    var reply: CallbackReply?
  }

  init(server: LoopbackServer, agent: LoopbackUserAgent) {
    self.server = server
    redirectURI = server.baseURL + agent.path
    path = agent.path
    timeout = agent.timeout
    gracePeriod = agent.completionGracePeriod
    completionTimeout = agent.completionTimeout
    failsIfBrowserFails = agent.failsIfBrowserFails
    clock = agent.clock
    openBrowser = agent.openBrowser
  }

  func authorize(_ url: URL) async throws -> AuthorizationCallback {
    let (callback, reply) = try await awaitCallback(url)
    // No way to learn the login's outcome: answer the browser now.
    reply?.page.settle(LoopbackPage.success)
    return callback
  }

  func receiveCallback(_ url: URL) async throws -> ReceivedCallback {
    let (callback, reply) = try await awaitCallback(url)
    let responder = CallbackResponder { outcome in
      guard let reply else { return }
      reply.page.settle(LoopbackPage.outcome(outcome))
      // Return once the page is written, so a process that exits right after the login
      // (the CLI) does not cut it off; not forever.
      _ = await reply.delivered.value(
        waitingAtMost: LoopbackSession.deliveryTimeout, otherwise: false)
    }
    return ReceivedCallback(callback: callback, responder: responder)
  }

  /// How long ``CallbackResponder/complete(_:)`` waits for the page to be written.
  static let deliveryTimeout: Duration = .seconds(5)

  /// Opens the browser and waits for the callback; returns it with the reply its browser
  /// request waits for.
  private func awaitCallback(_ url: URL) async throws -> (AuthorizationCallback, CallbackReply?) {
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let expectedState = items.filter { $0.name == "state" }
    let requestTokens = items.filter { $0.name == "oauth_token" }
    let server = self.server
    let serving = state.withLock { state -> Task<Void, Never>? in
      guard !state.started else { return nil }
      state.started = true
      if expectedState.count == 1 {
        state.expectedState = expectedState[0].value
      } else if expectedState.isEmpty, requestTokens.count == 1 {
        state.expectedRequestToken = requestTokens[0].value
      }
      let serving = Task<Void, Never> {
        do throws(LoopbackServerError) {
          try await server.run { [self] request in await respond(to: request) }
        } catch {
          // `.closed`: cancelled before it started; `.acceptFailed`/`.pollFailed`: the
          // socket broke, which ends the login like a cancellation.
          finish(.failure(LoopbackUserAgent.authError(for: error)))
        }
      }
      state.serving = serving
      return serving
    }
    guard let serving else {
      throw AuthError(.configuration, "authorize(_:) was already called on this session.")
    }
    let timeout = self.timeout
    let clock = self.clock
    let timer = Task { [self] in
      do { try await clock.sleep(seconds: timeout.timeInterval) } catch { return }
      finish(.failure(AuthError(.timedOut, "No sign-in callback arrived within \(timeout).")))
    }
    let opener = Task { [self, openBrowser, failsIfBrowserFails] in
      do {
        try await openBrowser(url)
      } catch {
        if failsIfBrowserFails { finish(.failure(error)) }
      }
    }
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state in
          if state.outcome == nil { state.waiter = continuation }
          return state.outcome
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      finish(.failure(CancellationError()))
    }
    timer.cancel()
    if let reply = state.withLock({ $0.reply }) {
      // The request handler answers the browser, then closes the server after the grace
      // period.
      return (try outcome.get(), reply)
    }
    // Timeout, cancellation or a failed opener: close now, and return only once the socket
    // is closed, so the port can be bound again at once.
    opener.cancel()
    server.close()
    await serving.value
    return (try outcome.get(), nil)
  }

  func cancel() {
    finish(.failure(CancellationError()))
    server.close()
  }

  /// Cancels and waits until the socket is closed.
  func shutDown() async {
    cancel()
    let serving = state.withLock { $0.serving }
    await serving?.value
  }

  /// Settles the login once; later outcomes are ignored.
  private func finish(_ outcome: Result<AuthorizationCallback, any Error>) {
    let waiter = state.withLock {
      state -> CheckedContinuation<Result<AuthorizationCallback, any Error>, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: outcome)
  }

  /// Answers one request to the loopback server. The login's own callback is answered once
  /// the login has finished (its reply is settled), after ``LoopbackUserAgent/completionTimeout``
  /// or when the browser goes away, whichever comes first; the server closes a grace period
  /// later.
  private func respond(to request: HTTPRequest) async -> HTTPResponse {
    guard request.path == path else {
      return LoopbackPage.make(
        status: 404, title: "Not found", message: "There is nothing here.")
    }
    guard request.method == "GET" || request.method == "POST" else {
      var response = LoopbackPage.make(
        status: 405, title: "Method not allowed", message: "Only GET and POST are accepted here.")
      response.headers.add(name: "Allow", value: "GET, POST")
      return response
    }
    // The same decoder as every other callback path (`+` is a space): the query of a
    // redirect, or the form body of a `response_mode=form_post` callback (Sign in with Apple).
    let callback =
      request.method == "POST"
      ? AuthorizationCallback(formBody: String(decoding: request.body, as: UTF8.self))
      : AuthorizationCallback(query: request.query ?? "")
    let states = callback.parameters.filter { $0.name == "state" }.compactMap(\.value)
    let answer = state.withLock { state -> CallbackAnswer in
      guard state.outcome == nil else { return .ignored(LoopbackPage.alreadyCompleted) }
      guard states.count <= 1 else { return .ignored(LoopbackPage.malformed) }
      let error = callback.authorizationError()
      if let expected = state.expectedState {
        let matches = states.first.map {
          ConstantTime.equals(Array($0.utf8), Array(expected.utf8))
        }
        // A callback without this login's state never belongs to it, errors included: any
        // web page can send the browser to a fixed loopback port with `?error=...`, and must
        // not be able to end a login in progress.
        guard matches ?? false else { return .ignored(LoopbackPage.foreign) }
      } else if let expected = state.expectedRequestToken {
        // OAuth 1.0a: the request token ties the callback to this login, as `state` does
        // for OAuth 2.0; without it, error redirects included, the callback is foreign.
        let carried = callback.parameters
          .filter { $0.name == "oauth_token" || $0.name == "denied" }
          .map { $0.value ?? "" }
        let matches =
          !carried.isEmpty
          && carried.allSatisfy { ConstantTime.equals(Array($0.utf8), Array(expected.utf8)) }
        guard matches else { return .ignored(LoopbackPage.foreign) }
      }
      let outcome: Result<AuthorizationCallback, any Error>
      let reply = CallbackReply()
      if let error {
        // An error redirect needs no exchange: its page is ready.
        outcome = .failure(error)
        reply.page.settle(LoopbackPage.failure(error))
      } else {
        outcome = .success(callback)
      }
      state.outcome = outcome
      state.reply = reply
      defer { state.waiter = nil }
      return .login(reply, state.waiter, outcome)
    }
    guard case .login(let reply, let waiter, let outcome) = answer else {
      if case .ignored(let page) = answer { return page }
      return LoopbackPage.alreadyCompleted
    }
    waiter?.resume(returning: outcome)
    // The browser waits for the login to finish (the login holds the reply), but not
    // forever, and not after it went away; then it has a moment to read the page before the
    // server closes.
    let page = await reply.page.value(
      waitingAtMost: completionTimeout, otherwise: LoopbackPage.stillCompleting)
    LoopbackServer.whenAnswered { reply.delivered.settle(true) }
    let server = self.server
    let gracePeriod = self.gracePeriod
    Task {
      try? await Task.sleep(for: gracePeriod)
      server.close()
    }
    return page
  }
}

/// The answer to a login's callback: the page, settled once the login has finished, and
/// whether it was written to the browser (or can no longer be).
struct CallbackReply: Sendable {
  let page = OneShot<HTTPResponse>()
  let delivered = OneShot<Bool>()
}

/// How the loopback server answers one request to the redirect path.
private enum CallbackAnswer {
  /// Not this login's callback: answered at once, the login goes on.
  case ignored(HTTPResponse)
  /// This login's callback: `outcome` goes to the login's waiter (when it already waits),
  /// the browser gets `reply`'s page.
  case login(
    CallbackReply, CheckedContinuation<Result<AuthorizationCallback, any Error>, Never>?,
    Result<AuthorizationCallback, any Error>)
}

/// A value settled once, by whoever comes first (the login's outcome, a deadline, a
/// cancellation), that a task can wait for with a deadline.
final class OneShot<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    var waiters: [CheckedContinuation<Value, Never>] = []
  }

  private let state = Locked(State())

  /// Settles the value; only the first call counts.
  func settle(_ value: Value) {
    let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
      guard state.value == nil else { return [] }
      state.value = value
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// The settled value; settles `fallback` when nothing came within `timeout` (real time) or
  /// the calling task is cancelled.
  func value(waitingAtMost timeout: Duration, otherwise fallback: Value) async -> Value {
    let timer = Task { [self] in
      do { try await Task.sleep(for: timeout) } catch { return }
      settle(fallback)
    }
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state in
          if state.value == nil { state.waiters.append(continuation) }
          return state.value
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      settle(fallback)
    }
  }
}

/// The small HTML pages the loopback server shows the browser.
enum LoopbackPage {
  static let success = make(
    status: 200, title: "Sign-in received",
    message: "You can close this window and return to the application.")
  static let stillCompleting = make(
    status: 200, title: "Sign-in received",
    message: "The application is still completing the sign-in: return to it to see the result.")
  static let alreadyCompleted = make(
    status: 409, title: "Sign-in already completed",
    message: "This sign-in has already finished. You can close this window.")
  static let foreign = make(
    status: 400, title: "Unexpected sign-in response",
    message: "This response does not belong to the sign-in in progress. "
      + "Return to the application and start again if needed.")
  static let malformed = make(
    status: 400, title: "Invalid sign-in response",
    message: "The sign-in response repeats a parameter and was ignored.")

  /// The page for how the login of a callback ended: who signed in (name and subject, never
  /// a token), or the failure's message, redacted.
  static func outcome(_ outcome: LoginOutcome) -> HTTPResponse {
    let closing = " You can close this window and return to the application."
    switch outcome {
    case .signedIn(let identity):
      var who = ""
      if let identity {
        let name = identity.name.map { String($0.prefix(200)) } ?? ""
        let subject = String(identity.subject.prefix(200))
        who = name.isEmpty ? " as \(subject)" : " as \(name) (\(subject))"
      }
      return make(status: 200, title: "Signed in", message: "You are signed in\(who)." + closing)
    case .failed(let error):
      let reason: String
      switch error {
      case let error as AuthError: reason = Redaction.scrub(String(error.message.prefix(300)))
      case is CancellationError: reason = "The sign-in was cancelled."
      default: reason = "The sign-in could not be completed."
      }
      return make(status: 200, title: "Sign-in failed", message: reason + closing)
    }
  }

  static func failure(_ error: AuthError) -> HTTPResponse {
    var message =
      error.code == .accessDenied
      ? "The sign-in was declined or cancelled."
      : "The provider reported an error: \(error.oauth?.error.prefix(100) ?? "unknown")."
    if let description = error.oauth?.errorDescription, !description.isEmpty {
      message += " " + String(description.prefix(300))
    }
    return make(
      status: 200, title: "Sign-in failed", message: message + " You can close this window.")
  }

  static func make(status: Int, title: String, message: String) -> HTTPResponse {
    let html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title></head>
      <body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>

      """
    var response = HTTPResponse.html(html, status: status)
    response.headers.add(name: "Content-Security-Policy", value: "default-src 'none'")
    response.headers.add(name: "X-Frame-Options", value: "DENY")
    return response
  }

  /// Escapes text for HTML element content and attribute values.
  static func escape(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default:
        if character.value < 0x20 && character != "\n" && character != "\t" {
          output += " "
        } else {
          output.unicodeScalars.append(character)
        }
      }
    }
    return output
  }
}
