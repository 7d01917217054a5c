import Foundation

/// Google sign-in: OpenID Connect (authorization code, PKCE, nonce) run by the described
/// engine from ``ProviderDescription/google``, with what ``GoogleConfiguration`` sets per app.
///
/// - A refresh token is asked for with `access_type=offline` and `prompt=consent`
///   (``GoogleConfiguration/offlineAccess``); Google issues one only then.
/// - ID tokens are RS256 from `https://www.googleapis.com/oauth2/v3/certs`; `iss` is
///   `https://accounts.google.com` or `accounts.google.com`; `aud` is this server's client id
///   or one of ``GoogleConfiguration/appClientIDs``, as is `azp` (tokens from Android and iOS
///   apps).
/// - ``GoogleConfiguration/hostedDomains`` is sent as the `hd` hint and enforced on the ID
///   token's `hd` claim: a token without it or with another domain is refused
///   (``AuthError/Code/hostedDomainMismatch``), because the request parameter alone only
///   preselects accounts and anyone can remove it from the URL.
/// - Refresh tokens do not rotate: a refresh answer without one keeps the session's.
///   `invalid_grant` (revoked, expired, password changed) signs out; every other failure
///   degrades and keeps the session (``classifyRefreshFailure(_:)``).
/// - Revocation at `https://oauth2.googleapis.com/revoke`: one call ends the whole grant.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.google(clientID: webClientID, clientSecret: Secret(secret))], store: store)
/// let session = try await login(.google)
///
/// // An ID token that the Android app sent, with the nonce the server gave it:
/// let verified = try await login.verify(idToken: token, from: .google, nonces: nonces)
/// ```
public actor GoogleProvider: LoginProvider {
  /// The configuration type.
  public typealias Configuration = GoogleConfiguration

  /// ``ProviderID/google``.
  public nonisolated let id: ProviderID = .google
  /// The configuration.
  public nonisolated let configuration: GoogleConfiguration
  /// Refresh (without rotation), PKCE, OpenID Connect and revocation.
  public nonisolated let capabilities: ProviderCapabilities = [
    .refresh, .pkce, .openIDConnect, .revocation, .deviceGrant,
  ]

  /// The described engine, configured with Google's endpoints and this app's rules.
  let engine: DescribedProvider

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - configuration: Client, scopes, hosted domains, app client ids, endpoints.
  ///   - transport: How to reach Google.
  ///   - clock: Time for expiry, pending logins and ID-token checks.
  public init(
    configuration: GoogleConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    engine = DescribedProvider(
      configuration: configuration.described, transport: transport, clock: clock)
  }

  /// The authorization URL: code, PKCE S256, nonce, then `access_type=offline` and
  /// `prompt=consent` (with ``GoogleConfiguration/offlineAccess``), `hd`, `login_hint`.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try await engine.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Checks the callback, exchanges the code, verifies the ID token (signature, issuer,
  /// audience, expiry, nonce, `at_hash`) and its hosted domain.
  ///
  /// - Throws: ``AuthError/Code/hostedDomainMismatch`` when the account is not in one of
  ///   ``GoogleConfiguration/hostedDomains``; the engine's errors otherwise.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    try await engine.completeAuthorization(pending, callback: callback)
  }

  /// Spends the refresh token; see ``spendRefreshToken(_:)``.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// Spends the refresh token (kept when the answer has none: Google does not rotate), and
  /// checks a new ID token as ``DescribedProvider/spendRefreshToken(_:)`` does, plus its hosted
  /// domain: an account that left the allowed domains ends the session
  /// (``RefreshOutcome/Problem/identityMismatch(_:)``), its new tokens kept.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming the client id and secret for Google's
  ///   `invalid_client` and `unauthorized_client`; the engine's errors otherwise.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    do {
      return try await engine.spendRefreshToken(credential)
    } catch let error as AuthError {
      throw Self.blamingClientCredentials(error)
    }
  }

  /// The identity from the ID token and userinfo (`sub`, `name`, `email`,
  /// `email_verified`, `picture`, `hd`).
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    try await engine.fetchIdentity(for: credential)
  }

  /// Revokes the grant: the refresh token when the credential has one, else the access token
  /// (Google revokes the whole grant either way). Google's `400 invalid_token` for a token
  /// that is already expired or revoked counts as done.
  public func revoke(_ credential: Credential) async throws {
    try await engine.revoke(credential)
  }

  /// Checks that the client id is set; Google offers no check of the secret without a login.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    .notCheckable(
      reason: "Google checks the client secret only in a token request, which needs a login; "
        + "the client id is set.")
  }
}
