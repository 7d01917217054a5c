/// A login provider: Facebook, X, LINE, an OpenID Connect provider, or your own.
///
/// Each provider is an actor that is stateless about users: all per-user state lives in a
/// ``SessionActor``. The provider builds authorization requests, turns callbacks into
/// ``Credential``s, refreshes and revokes tokens, fetches identities, verifies tokens that
/// mobile apps send, and classifies its own failures, because providers report "your refresh
/// token is dead" in different ways.
///
/// ```swift
/// actor MyProvider: LoginProvider {
///   nonisolated let id: ProviderID = "my-provider"
///   nonisolated let capabilities: ProviderCapabilities = [.refresh, .pkce]
///   // ...
/// }
/// ```
public protocol LoginProvider: Actor {
  /// The provider's id; sessions and stores are keyed by it.
  nonisolated var id: ProviderID { get }

  /// What the provider can do.
  nonisolated var capabilities: ProviderCapabilities { get }

  /// Builds the authorization request for a new login that will redirect to `redirectURI`.
  ///
  /// The returned ``PendingLogin`` carries the `state`, PKCE verifier and nonce; keep it until
  /// the callback arrives and pass it to ``completeAuthorization(_:callback:)``.
  func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest

  /// Validates the callback against `pending` and exchanges it for a credential.
  func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential

  /// Spends the refresh token in `credential` and returns the new credential.
  ///
  /// Throws ``AuthError``; the session asks ``classifyRefreshFailure(_:)`` what the error means.
  /// Sessions call ``spendRefreshToken(_:)`` instead, which keeps the new tokens when a check
  /// after the token endpoint's answer fails; this method throws that check's error.
  func refresh(_ credential: Credential) async throws -> Credential

  /// Spends the refresh token in `credential` and returns what the token endpoint issued,
  /// with anything found wrong with it after the endpoint answered.
  ///
  /// Once a token endpoint answered with tokens, the refresh token it spent may be dead
  /// (providers rotate them, and some revoke the whole grant when a spent one comes back), so
  /// the new tokens must reach the session whatever fails afterwards. Throw only when no tokens
  /// were issued (the request failed, or the answer was an error or unreadable); report a
  /// failed check of issued tokens as ``RefreshOutcome/problem`` instead: the session persists
  /// the tokens first and then degrades (``RefreshOutcome/Problem/unverified(_:)``) or ends
  /// (``RefreshOutcome/Problem/identityMismatch(_:)``).
  ///
  /// The default implementation returns ``refresh(_:)``'s credential with no problem, so a
  /// provider whose refresh checks nothing after the answer need not implement it.
  ///
  /// ```swift
  /// func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
  ///   let issued = try await oauth.refresh(credential).credential  // throws: nothing issued
  ///   guard sameAccount(issued, credential) else {
  ///     return RefreshOutcome(
  ///       credential: issued,
  ///       problem: .identityMismatch(AuthError(.invalidToken, "Another account.")))
  ///   }
  ///   return RefreshOutcome(credential: issued)
  /// }
  /// ```
  func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome

  /// Fetches who the credential belongs to.
  func fetchIdentity(for credential: Credential) async throws -> Identity

  /// Verifies a token obtained elsewhere (for example by a mobile app) and returns whose it is,
  /// and whether it was proven to be issued to this app.
  ///
  /// Throws ``AuthError`` with ``AuthError/Code/invalidToken`` when the token is not valid or
  /// was issued to another app.
  func verify(_ token: ExternalToken) async throws -> VerifiedIdentity

  /// Revokes the credential at the provider, where the provider supports it.
  func revoke(_ credential: Credential) async throws

  /// Says what a failed refresh means for the session: retry later, or sign out and why.
  nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure

  /// Asks the provider whether it accepts the app's own credentials (client id and secret,
  /// app secret, channel secret, API key), without any user's token: for start-up, before
  /// the first user meets a misconfiguration. ``LoginClient/validateConfiguration()`` asks
  /// every provider.
  ///
  /// Returns ``ConfigurationCheck/ok`` when the provider accepted them, or
  /// ``ConfigurationCheck/notCheckable(reason:)`` when it offers no such check. Throws
  /// ``AuthError/Code/configuration`` naming the setting the provider rejected, or a
  /// transient ``AuthError`` when the provider could not be asked.
  ///
  /// The default implementation checks nothing and returns
  /// ``ConfigurationCheck/notCheckable(reason:)``, so providers written before this
  /// requirement keep compiling.
  func validateConfiguration() async throws -> ConfigurationCheck

  /// The shortest time between two refreshes a session starts on its own (ahead of expiry),
  /// for providers that ask to be refreshed rarely: Apple asks that refresh tokens be
  /// validated at most once a day, and its access token serves no API. Callers that ask for a
  /// token valid for longer than the current one lasts are never held back by it.
  ///
  /// The default implementation returns `nil`: the session's ``RefreshPolicy`` alone decides.
  nonisolated var automaticRefreshInterval: Duration? { get }
}

extension LoginProvider {
  /// `nil`: the session's ``RefreshPolicy`` alone plans automatic refreshes.
  public nonisolated var automaticRefreshInterval: Duration? { nil }

  /// Checks nothing: ``ConfigurationCheck/notCheckable(reason:)``. Override it where the
  /// provider can check its credentials without a user.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    .notCheckable(reason: "The provider '\(id)' does not check its configuration.")
  }

  /// ``refresh(_:)``'s credential, with no problem: for providers that check nothing after
  /// the token endpoint answered.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    RefreshOutcome(credential: try await refresh(credential))
  }

  /// The RFC 6749 classification: network, timeout, 5xx and 429 are transient;
  /// `invalid_grant` means the refresh token is dead; other OAuth errors are terminal.
  ///
  /// Providers that speak differently (X answers `invalid_request` for a spent refresh token)
  /// override this.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    RefreshFailure.rfc6749(error)
  }
}
