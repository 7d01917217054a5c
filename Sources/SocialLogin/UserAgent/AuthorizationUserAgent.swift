import Foundation

/// Shows an authorization URL to the user and brings back the provider's redirect.
///
/// A user agent works in two steps because a loopback redirect URI contains a port that only
/// exists once a socket is bound: ``start()`` prepares the redirect target (binds the port) and
/// returns a ``UserAgentSession`` whose ``UserAgentSession/redirectURI`` goes into the
/// authorization request; ``UserAgentSession/authorize(_:)`` then opens the URL and waits for
/// the callback.
///
/// ``LoginClient/login(_:reuse:using:)`` drives an agent for you. The SDK ships
/// ``LoopbackUserAgent`` (RFC 8252 §7.3, the default) and ``HeadlessUserAgent`` (tests and
/// emulators). Conform your own type to present the URL another way:
///
/// ```swift
/// struct PrintingAgent: AuthorizationUserAgent {
///   func start() async throws -> any UserAgentSession { PrintingSession() }
/// }
///
/// struct PrintingSession: UserAgentSession {
///   let redirectURI = "https://app.example/oauth/done"
///   func authorize(_ url: URL) async throws -> AuthorizationCallback {
///     print("Open \(url), then paste the address you land on:")
///     guard let line = readLine(), let landed = URL(string: line) else {
///       throw AuthError(.invalidCallback, "No callback URL was entered.")
///     }
///     return try AuthorizationCallback(redirectedTo: landed, expecting: redirectURI)
///   }
///   func cancel() {}
/// }
/// ```
public protocol AuthorizationUserAgent: Sendable {
  /// Prepares one login: binds whatever the redirect needs and returns the session that will
  /// carry it. Nothing is shown to the user yet.
  ///
  /// - Throws: ``AuthError`` when the redirect target cannot be prepared (for example the
  ///   fixed loopback port is in use).
  func start() async throws -> any UserAgentSession
}

/// One login in progress in an ``AuthorizationUserAgent``.
///
/// Call ``authorize(_:)`` at most once. Cancelling the task that awaits it, or calling
/// ``cancel()``, abandons the login and releases the session's resources (sockets) promptly.
public protocol UserAgentSession: Sendable {
  /// The exact redirect URI to put into the authorization request.
  var redirectURI: String { get }

  /// Shows `url` to the user and returns the parameters the provider redirected back with.
  ///
  /// - Throws: ``AuthError/Code/accessDenied`` when the user declined,
  ///   ``AuthError/Code/providerError`` for other OAuth error redirects,
  ///   ``AuthError/Code/timedOut`` when no callback came in time, or `CancellationError`.
  func authorize(_ url: URL) async throws -> AuthorizationCallback

  /// Shows `url` to the user and returns the parameters the provider redirected back with,
  /// together with a ``CallbackResponder`` to call once the login has finished (the code
  /// exchanged, or the exchange failed), so the agent can tell the user how it ended.
  ///
  /// ``LoginClient/login(_:reuse:using:)`` calls this rather than ``authorize(_:)``. The
  /// default implementation calls ``authorize(_:)`` and returns ``CallbackResponder/none``:
  /// an agent that has nothing to show afterwards need not implement it.
  /// ``LoopbackUserAgent`` answers the browser only when the responder is called (or after
  /// ``LoopbackUserAgent/completionTimeout``), with who signed in or why it failed.
  ///
  /// ```swift
  /// let received = try await session.receiveCallback(url)
  /// do {
  ///   let session = try await client.completeLogin(
  ///     callback: received.callback, expectedState: state)
  ///   await received.responder.complete(.signedIn(await session.identity))
  /// } catch {
  ///   await received.responder.complete(.failed(error))
  /// }
  /// ```
  ///
  /// - Throws: The same errors as ``authorize(_:)``.
  func receiveCallback(_ url: URL) async throws -> ReceivedCallback

  /// Abandons the login: a pending ``authorize(_:)`` throws `CancellationError` and every
  /// resource (socket) is released. Idempotent; safe to call from any thread.
  func cancel()
}

extension UserAgentSession {
  /// Calls ``authorize(_:)``; the responder does nothing.
  public func receiveCallback(_ url: URL) async throws -> ReceivedCallback {
    ReceivedCallback(callback: try await authorize(url), responder: .none)
  }
}

/// A callback a ``UserAgentSession`` received, and how to tell the user how the login ended.
public struct ReceivedCallback: Sendable {
  /// The parameters the provider redirected back with.
  public let callback: AuthorizationCallback
  /// Call it once the callback has been exchanged (or the exchange failed).
  public let responder: CallbackResponder

  /// Creates a received callback.
  public init(callback: AuthorizationCallback, responder: CallbackResponder) {
    self.callback = callback
    self.responder = responder
  }
}

/// How a login that came back through a user agent ended, for what the agent shows the user.
public enum LoginOutcome: Sendable {
  /// The callback was exchanged and `identity` signed in (a page shows its name or subject,
  /// never a token); `nil` when the identity is not known.
  case signedIn(Identity?)
  /// The login failed after the callback arrived: a page shows the ``AuthError/message``
  /// (redacted), or a generic text for other errors.
  case failed(any Error)
}

/// Completes a received callback with the login's outcome: ``LoopbackUserAgent`` answers the
/// browser's request only then. Only the first call counts; later ones do nothing.
public struct CallbackResponder: Sendable {
  private let respond: @Sendable (LoginOutcome) async -> Void

  /// Creates a responder that runs `respond` with the outcome.
  public init(_ respond: @escaping @Sendable (LoginOutcome) async -> Void) {
    self.respond = respond
  }

  /// A responder that does nothing (the agent answered the user already).
  public static let none = CallbackResponder { _ in }

  /// Reports how the login ended; returns once the agent has shown it (for
  /// ``LoopbackUserAgent``: the page is written to the browser, or the browser went away, or
  /// a few seconds passed).
  public func complete(_ outcome: LoginOutcome) async {
    await respond(outcome)
  }
}

extension AuthorizationCallback {
  /// Parses a callback's raw (still percent-encoded) query or fragment with the one decoder
  /// every callback path uses, ``FormEncoding/decode(_:)`` (WHATWG
  /// `application/x-www-form-urlencoded`: `+` is a space, `%2B` a plus), so the loopback
  /// server and a web service's handler read the same callback the same way.
  ///
  /// ```swift
  /// let callback = AuthorizationCallback(query: "code=a+b%2Bc&state=xyz")  // code: "a b+c"
  /// ```
  public init(query: String) {
    self.init(
      parameters: FormEncoding.decode(query).map { URLQueryItem(name: $0.0, value: $0.1) })
  }

  /// Parses the URL a browser was redirected to, after checking that it is the redirect URI.
  ///
  /// The parameters come from the query, or from the fragment when there is no query (the
  /// implicit and `form_post`-less hybrid flows return them there). Scheme, host, port and path
  /// must equal those of `redirectURI`, so a login that ended on some other page is not
  /// mistaken for a callback.
  ///
  /// ```swift
  /// let callback = try AuthorizationCallback(
  ///   redirectedTo: URL(string: "http://127.0.0.1:8765/callback?code=abc&state=xyz")!,
  ///   expecting: "http://127.0.0.1:8765/callback")
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidCallback`` when the URL is not at `redirectURI` or
  ///   cannot be parsed.
  public init(redirectedTo url: URL, expecting redirectURI: String) throws {
    guard let landed = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let expected = URLComponents(string: redirectURI)
    else {
      throw AuthError(.invalidCallback, "The redirect URL could not be parsed.")
    }
    guard landed.scheme?.lowercased() == expected.scheme?.lowercased(),
      landed.host?.lowercased() == expected.host?.lowercased(),
      landed.port == expected.port,
      landed.percentEncodedPath == expected.percentEncodedPath
    else {
      throw AuthError(
        .invalidCallback, "The browser did not return to the redirect URI \(redirectURI).")
    }
    if let query = landed.percentEncodedQuery {
      self.init(query: query)
    } else if let fragment = landed.percentEncodedFragment {
      self.init(query: fragment)
    } else {
      self.init(parameters: [])
    }
  }

  /// The error the provider redirected with (RFC 6749 §4.1.2.1), or `nil` when the callback
  /// carries no `error` parameter.
  ///
  /// `access_denied` (in any case: LINE sends `ACCESS_DENIED`) maps to
  /// ``AuthError/Code/accessDenied``; every other code to
  /// ``AuthError/Code/providerError``. The OAuth fields are kept in ``AuthError/oauth``.
  public func authorizationError(provider: ProviderID? = nil) -> AuthError? {
    let errors = parameters.filter { $0.name == "error" }
    guard let first = errors.first else { return nil }
    guard errors.count == 1, let code = first.value, !code.isEmpty else {
      return AuthError(
        .invalidCallback, "The callback carries a malformed 'error' parameter.",
        provider: provider)
    }
    let fields = AuthError.OAuthErrorFields(
      error: code, errorDescription: try? value("error_description"),
      errorURI: try? value("error_uri"))
    // LINE sends upper-case codes (`ACCESS_DENIED`); OAuth codes are compared without case.
    if code.lowercased() == "access_denied" {
      return AuthError(
        .accessDenied, "The sign-in was declined or cancelled.", provider: provider,
        oauth: fields)
    }
    return AuthError(
      .providerError, "The provider redirected back with an error.", provider: provider,
      oauth: fields)
  }
}
