import Foundation
import SocialLoginCrypto

/// A login started with ``LoginClient/beginLogin(_:redirectURI:)``: send the user to ``url``.
///
/// ``state`` is the login's single-use secret. Bind it to the user's browser session (for
/// example in an `HttpOnly` cookie) and pass it back as `expectedState` to
/// ``LoginClient/completeLogin(callback:expectedState:)``, so an attacker cannot finish their
/// own login in your user's browser. `description`, `dump` and
/// reflection never show it, nor the URL's query (which contains it).
public struct LoginHandle: Hashable, Sendable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The provider the login is for.
  public let provider: ProviderID
  /// The authorization URL to redirect the user's browser to.
  public let url: URL
  /// The login's `state` parameter: the key of the pending login. Treat it as a secret.
  public let state: String
  /// When the pending login stops being accepted.
  public let expiresAt: Date

  /// Creates a handle.
  public init(provider: ProviderID, url: URL, state: String, expiresAt: Date) {
    self.provider = provider
    self.url = url
    self.state = state
    self.expiresAt = expiresAt
  }

  /// The provider, the URL without its query, and the expiry; never the state.
  public var description: String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    components?.fragment = nil
    let shownURL = components?.string ?? "<url>"
    return "LoginHandle(provider: \(provider), url: \(shownURL)?…, expiresAt: \(expiresAt))"
  }

  /// Same as ``description``.
  public var debugDescription: String { description }

  /// A mirror showing only ``provider`` and ``expiresAt``.
  public var customMirror: Mirror {
    Mirror(self, children: ["provider": provider, "expiresAt": expiresAt], displayStyle: .struct)
  }
}

extension LoginClient {
  /// Signs in with `provider` in one call: `try await login(.twitter)`.
  ///
  /// Same as ``login(_:reuse:using:)`` with the client's default user agent.
  ///
  /// ```swift
  /// let corp = OIDCProvider(id: "corp", configuration: .init(issuer: issuer, clientID: "cli"))
  /// let login = try LoginClient(providers: [corp], store: store)
  /// let session = try await login("corp", reuse: .ifSignedIn)  // no browser when signed in
  /// let token = try await session.freshAccessToken()
  /// ```
  ///
  /// - Parameters:
  ///   - provider: A registered provider.
  ///   - reuse: Whether a session that is already signed in is returned instead of a new
  ///     login; ``SessionReuse/never`` (the default) always signs in again.
  public func callAsFunction(_ provider: ProviderID, reuse: SessionReuse = .never)
    async throws -> SessionActor
  {
    try await login(provider, reuse: reuse)
  }

  /// Signs a user in with `provider` through a user agent and returns their live session.
  ///
  /// With `reuse: .ifSignedIn` the provider's one live session is returned when it can hand
  /// out a valid access token (refreshing it if needed) and no page is shown; see
  /// ``SessionReuse``. Otherwise the steps: `agent.start()` (binds the loopback port) → the provider builds the
  /// authorization request for the agent's redirect URI → the pending login is stored → the
  /// agent shows the URL and waits for the callback → the callback's `state` is checked against this login's and
  /// it, exchanges it for a credential, fetches the identity, persists the session and
  /// publishes ``AuthState/signedIn`` on ``events`` → the agent is told how the login ended
  /// (``CallbackResponder``), so the browser's page says who signed in or why it failed.
  ///
  /// Cancelling the calling task closes the agent (the loopback socket) and forgets the
  /// pending login; so does any failure.
  ///
  /// ```swift
  /// let client = try LoginClient(
  ///   providers: [corp], store: try FileSessionStore(directory: dir))
  /// _ = try await client.restoreSessions()
  /// let session = try await client.login("corp", reuse: .ifSignedIn)  // browser only if needed
  /// print(await session.identity?.name ?? "signed in")
  ///
  /// let agent = LoopbackUserAgent(port: 8765)             // the port registered there
  /// let again = try await client.login("corp", using: agent)
  /// ```
  ///
  /// - Parameters:
  ///   - providerID: A registered provider.
  ///   - reuse: Whether a session that is already signed in is returned instead of a new
  ///     login; ``SessionReuse/never`` (the default) always signs in again.
  ///   - agent: How to show the authorization page; `nil` uses the client's ``userAgent``,
  ///     or a ``LoopbackUserAgent`` when the client has none.
  /// - Returns: The live session for the account that signed in.
  /// - Throws: ``AuthError`` (``AuthError/Code/accessDenied`` when the user declined,
  ///   ``AuthError/Code/timedOut``, ``AuthError/Code/stateMismatch``, provider and storage
  ///   errors; with `reuse`, ``AuthError/Code/ambiguousSession`` when several accounts are
  ///   signed in with the provider and transient refresh errors of the reused session) or
  ///   `CancellationError`.
  public func login(
    _ providerID: ProviderID, reuse: SessionReuse = .never,
    using agent: (any AuthorizationUserAgent)? = nil
  ) async throws -> SessionActor {
    let provider = try provider(providerID)
    if let minimumTTL = reuse.minimumTTL, let existing = try session(for: providerID) {
      do {
        _ = try await existing.freshCredential(minimumTTL: minimumTTL)
        return existing
      } catch let error as AuthError where error.code == .signedOut {
        // The provider ended the session during the refresh: sign in again below.
      }
    }
    let agent = agent ?? userAgent ?? LoopbackUserAgent(clock: clock)
    try Task.checkCancellation()
    environment.observer?.observe(.loginStarted(provider: providerID))
    let session = try await agent.start()
    return try await withTaskCancellationHandler {
      let request: AuthorizationRequest
      do {
        request = try await provider.makeAuthorizationRequest(redirectURI: session.redirectURI)
        guard request.pending.provider == provider.id else {
          throw AuthError(
            .configuration, "The provider built a login for another provider id.",
            provider: provider.id)
        }
        try Task.checkCancellation()
        try await pendingLogins.insert(request.pending)
      } catch {
        session.cancel()
        throw error
      }
      let state = request.pending.state.revealed
      let received: ReceivedCallback
      do {
        received = try await session.receiveCallback(request.url)
      } catch {
        await pendingLogins.remove(state: state)
        throw error
      }
      // The agent answers the browser only now, with who signed in or why it failed.
      do {
        try Task.checkCancellation()
        let (signedIn, identity) = try await complete(
          callback: received.callback, expectedState: state, provider: provider.id)
        await received.responder.complete(.signedIn(identity))
        return signedIn
      } catch {
        await received.responder.complete(.failed(error))
        await pendingLogins.remove(state: state)
        throw error
      }
    } onCancel: {
      session.cancel()
    }
  }

  /// Starts a login whose callback arrives elsewhere, for web services: keep the handle's
  /// ``LoginHandle/state`` in the user's browser (an `HttpOnly`, `Secure`, `SameSite=Lax`
  /// cookie), redirect the user to ``LoginHandle/url``, and call
  /// ``completeLogin(callback:expectedState:)`` with that cookie from the handler of
  /// `redirectURI`.
  ///
  /// The cookie binds the login to the browser that started it: a callback carried to
  /// another browser (login CSRF: an attacker sends you the callback of their own login) has
  /// no matching cookie there, and is refused.
  ///
  /// The pending login (state, PKCE verifier, nonce) is kept in ``pendingLogins`` until the
  /// callback arrives or it expires.
  ///
  /// ```swift
  /// // GET /login/corp
  /// let handle = try await client.beginLogin("corp", redirectURI: "https://app.example/cb")
  /// response.setCookie("login_state", handle.state, httpOnly: true, secure: true, sameSite: .lax)
  /// response.redirect(to: handle.url)
  ///
  /// // GET /cb?code=...&state=...   (another request, maybe another instance)
  /// let session = try await client.completeLogin(
  ///   callback: try AuthorizationCallback(url: request.url),
  ///   expectedState: request.cookie("login_state") ?? "")
  /// response.deleteCookie("login_state")
  /// ```
  ///
  /// - Parameters:
  ///   - providerID: A registered provider.
  ///   - redirectURI: The redirect URI registered with the provider.
  /// - Returns: Where to send the user, and the login's state.
  /// - Throws: ``AuthError/Code/unknownProvider`` or the provider's and store's errors.
  public func beginLogin(_ providerID: ProviderID, redirectURI: String) async throws
    -> LoginHandle
  {
    let provider = try provider(providerID)
    let request = try await provider.makeAuthorizationRequest(redirectURI: redirectURI)
    guard request.pending.provider == provider.id else {
      throw AuthError(
        .configuration, "The provider built a login for another provider id.",
        provider: provider.id)
    }
    try await pendingLogins.insert(request.pending)
    environment.observer?.observe(.loginStarted(provider: provider.id))
    return LoginHandle(
      provider: provider.id, url: request.url, state: request.pending.state.revealed,
      expiresAt: request.pending.expiresAt)
  }

  /// Finishes a login started by ``beginLogin(_:redirectURI:)`` in the browser that started
  /// it: the callback's `state` must equal `expectedState`, the state you kept in that
  /// browser's cookie (compared in constant time). Then it finds the pending login by that
  /// state, lets the provider validate the callback and exchange it for a credential, and only
  /// then consumes the pending login; then fetches the identity, persists the session and
  /// publishes ``AuthState/signedIn`` on ``events``.
  ///
  /// There is no form without `expectedState`: a callback alone proves only that someone
  /// started a login, not that this browser did.
  ///
  /// A callback that fails validation (wrong browser, forged code, wrong parameters) leaves
  /// the pending login in place, so the genuine callback can still complete it. A callback
  /// that carries an OAuth error (`?error=access_denied&state=...`) and the right state ends
  /// the login.
  ///
  /// ```swift
  /// // In the handler of the redirect URI:
  /// do {
  ///   let session = try await client.completeLogin(
  ///     callback: AuthorizationCallback(url: url),
  ///     expectedState: request.cookie("login_state") ?? "")
  ///   return .redirect(to: "/welcome")
  /// } catch let error as AuthError where error.code == .accessDenied {
  ///   return .redirect(to: "/login?cancelled=1")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - callback: The parameters the provider redirected with.
  ///   - expectedState: The ``LoginHandle/state`` of the login this browser started, from
  ///     its cookie (an empty string when the browser has none: the login is refused).
  /// - Returns: The live session.
  /// - Throws: ``AuthError/Code/stateMismatch`` when the callback has no `state`, when it is
  ///   not `expectedState`, or when no pending login has it (unknown, expired, already used);
  ///   ``AuthError/Code/invalidCallback`` when `state` is repeated or the login is being
  ///   completed concurrently; ``AuthError/Code/accessDenied``/``AuthError/Code/providerError``
  ///   for error callbacks; otherwise the provider's and store's errors.
  public func completeLogin(callback: AuthorizationCallback, expectedState: String)
    async throws -> SessionActor
  {
    try await complete(callback: callback, expectedState: expectedState).session
  }

  private enum Completion: Sendable {
    case credential(any LoginProvider, Credential)
    case denied(AuthError)
  }

  private func complete(
    callback: AuthorizationCallback, expectedState: String, provider expected: ProviderID? = nil
  ) async throws -> (session: SessionActor, identity: Identity) {
    try await observingLogin(provider: expected, session: \.session) {
      try await exchange(callback: callback, expectedState: expectedState)
    }
  }

  /// Runs the end of a login (`body`, which ends with its session), reporting
  /// ``AuthEvent/loginSucceeded(provider:duration:)`` or
  /// ``AuthEvent/loginFailed(provider:duration:code:)`` to the observer, if any.
  ///
  /// - Parameter provider: The provider a failure is reported for when its error names none.
  func observingLogin<Result>(
    provider expected: ProviderID?, session: (Result) -> SessionActor,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async throws -> Result {
    guard let observer = environment.observer else { return try await body() }
    let elapsed = clock.stopwatch()
    do {
      let done = try await body()
      let key = session(done).key
      observer.report(
        .loginSucceeded(provider: key.provider, duration: elapsed()), subject: key.subject)
      return done
    } catch let error as AuthError {
      observer.observe(
        .loginFailed(
          provider: error.provider ?? expected ?? "unknown", duration: elapsed(),
          code: error.code))
      throw error
    }
  }

  private func exchange(callback: AuthorizationCallback, expectedState: String)
    async throws -> (session: SessionActor, identity: Identity)
  {
    guard let state = try callback.value("state"), !state.isEmpty else {
      throw AuthError(.stateMismatch, "The callback has no state parameter.")
    }
    guard !expectedState.isEmpty else {
      throw AuthError(
        .stateMismatch,
        "This browser started no login (no expected state): the callback belongs to another.")
    }
    guard ConstantTime.equals(Array(state.utf8), Array(expectedState.utf8)) else {
      throw AuthError(.stateMismatch, "The callback's state does not match this login.")
    }
    let completion = try await pendingLogins.take(state: state) {
      [self] pending -> Completion in
      let provider = try self.provider(pending.provider)
      if let error = callback.authorizationError(provider: provider.id) {
        // A malformed error parameter is not an answer from the provider: keep the login.
        if error.code == .invalidCallback { throw error }
        return .denied(error)
      }
      let credential = try await self.environment.observing(provider.id) {
        try await provider.completeAuthorization(pending, callback: callback)
      }
      return .credential(provider, credential)
    }
    switch completion {
    case .denied(let error):
      throw error
    case .credential(let provider, let credential):
      let identity = try await environment.observing(provider.id) {
        try await provider.fetchIdentity(for: credential)
      }
      guard identity.provider == provider.id else {
        throw AuthError(
          .invalidResponse, "The provider returned an identity for another provider.",
          provider: provider.id)
      }
      return (try await register(credential: credential, identity: identity), identity)
    }
  }
}

extension LoginClient {
  /// Verifies a token that a mobile or web client obtained from `provider` itself (an ID token
  /// with its nonce, an access token, an OAuth 1.0a pair) and returns whose it is. No session
  /// is created: register one with ``register(credential:identity:)`` if you keep the tokens.
  ///
  /// ```swift
  /// let verified = try await client.verify(.idToken(token, nonce: nonce), from: "corp")
  /// ```
  public func verify(_ token: ExternalToken, from provider: ProviderID) async throws
    -> VerifiedIdentity
  {
    guard let observer = environment.observer else {
      return try await verifyUnobserved(token, from: provider)
    }
    let elapsed = clock.stopwatch()
    do {
      let verified = try await environment.observing(provider) {
        try await verifyUnobserved(token, from: provider)
      }
      observer.report(
        .verified(provider: provider, token: token.kind, duration: elapsed()),
        subject: verified.identity.subject)
      return verified
    } catch let error as AuthError {
      observer.observe(
        .verificationFailed(
          provider: provider, token: token.kind, duration: elapsed(), code: error.code))
      throw error
    }
  }

  private func verifyUnobserved(_ token: ExternalToken, from provider: ProviderID) async throws
    -> VerifiedIdentity
  {
    let verified = try await self.provider(provider).verify(token)
    guard verified.identity.provider == provider else {
      throw AuthError(
        .invalidToken, "The provider vouched for an identity of '\(verified.identity.provider)'.",
        provider: provider)
    }
    return verified
  }
}
