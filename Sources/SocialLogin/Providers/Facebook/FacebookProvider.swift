import Foundation

/// Facebook Login through the Graph API: the versioned login dialog, code exchange, optional
/// long-lived tokens, `/me`, `debug_token`, Limited Login ID tokens and revocation, with an
/// `appsecret_proof` on every server-side call that carries a token.
///
/// Facebook issues no refresh tokens. By default a session ends with
/// ``SignOutReason/accessTokenExpired`` when its token lapses (user tokens last about 60 days;
/// `expires_in` may be absent, and `debug_token`'s `expires_at: 0` means "never"). With
/// ``FacebookConfiguration/Renewal/reexchange`` the provider announces
/// ``ProviderCapabilities/refresh`` and renews a still-valid token with `fb_exchange_token`
/// ahead of expiry. Graph errors are classified as `FacebookGraphError` documents: `190`
/// with its subcodes signs out with a distinct ``SignOutReason``; throttling (`4`, `17`, `32`,
/// `613`, `is_transient`) degrades and retries with backoff.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.facebook(appID: "1234567890", appSecret: Secret(appSecret))],
///   store: try FileSessionStore(directory: dir))
/// let session = try await login(.facebook)
///
/// // A token a mobile app sent: proven to be this app's via debug_token, then /me.
/// let verified = try await login.verify(.accessToken(Secret(token)), from: .facebook)
/// ```
public actor FacebookProvider: LoginProvider {
  /// The configuration type.
  public typealias Configuration = FacebookConfiguration

  /// ``ProviderID/facebook``.
  public nonisolated let id: ProviderID = .facebook
  /// The configuration.
  public nonisolated let configuration: FacebookConfiguration
  /// Revocation and Limited Login ID tokens, plus ``ProviderCapabilities/refresh`` when the
  /// configuration renews tokens by re-exchange and ``ProviderCapabilities/deviceGrant`` when
  /// it has a client token (Facebook Login for Devices).
  public nonisolated let capabilities: ProviderCapabilities

  let transport: any HTTPTransport
  let clock: any AuthClock
  let oauth: OAuth2Client
  let keys: JWKSCache

  /// The ``Credential/extra`` key of `data_access_expires_at` (seconds since 1970, as sent):
  /// when the app's access to the user's data lapses, separately from the token.
  public static let dataAccessExpiresAtKey = "facebook.data_access_expires_at"

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - configuration: App id and secret, scopes, version, endpoints.
  ///   - transport: How to reach Facebook.
  ///   - clock: Time for expiry, pending logins and ID-token checks.
  public init(
    configuration: FacebookConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    var capabilities: ProviderCapabilities = [.revocation, .openIDConnect]
    if configuration.renewal == .reexchange { capabilities.insert(.refresh) }
    if configuration.clientToken != nil { capabilities.insert(.deviceGrant) }
    self.capabilities = capabilities
    oauth = OAuth2Client(
      provider: .facebook,
      configuration: OAuth2Configuration(
        clientID: configuration.appID,
        clientSecret: configuration.appSecret,
        clientAuthentication: .clientSecretPost,
        authorizationEndpoint: configuration.dialogEndpoint,
        tokenEndpoint: configuration.accessTokenEndpoint,
        scopes: configuration.scopes,
        scopeSeparator: ",",
        pkce: .disabled,
        pendingLoginLifetime: configuration.pendingLoginLifetime,
        requestTimeout: configuration.requestTimeout),
      transport: transport, clock: clock)
    keys = JWKSCache(url: configuration.jwksEndpoint, transport: transport, clock: clock)
  }

  /// The login dialog URL: `client_id`, `redirect_uri`, comma-separated `scope`, `state`
  /// (`response_type=code`).
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try oauth.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Checks the callback (state; a cancelled dialog, `error=access_denied` with
  /// `error_reason=user_denied`, is ``AuthError/Code/accessDenied``), exchanges the code,
  /// optionally for a long-lived token, and inspects the token with `debug_token`.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    let code = try validate(callback, pending: pending)
    let exchanged = try await tokenRequest(
      [
        ("client_id", configuration.appID), ("redirect_uri", pending.redirectURI),
        (
          "client_secret",
          try configuration.requiredAppSecret(for: "The Facebook code exchange").revealed
        ),
        ("code", code),
      ],
      operation: "The Facebook code exchange")
    var tokens = exchanged
    if configuration.exchangesForLongLivedToken {
      tokens = try await exchange(exchanged.credential.accessToken)
    }
    return try await finish(tokens, previous: nil)
  }

  /// Renews the token with `fb_exchange_token` when the configuration says
  /// ``FacebookConfiguration/Renewal/reexchange``.
  ///
  /// - Throws: ``AuthError/Code/refreshTokenInvalid`` (reason
  ///   ``SignOutReason/accessTokenExpired``) when renewal is off; Graph errors otherwise.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// Renews as ``refresh(_:)`` does, keeping the renewed token when `debug_token` cannot be
  /// reached after the exchange answered (an outage: network, timeout, 5xx, an answer that is
  /// not Facebook's): it is returned uninspected with
  /// ``RefreshOutcome/Problem/unverified(_:)``, its expiry from `expires_in` (or, without
  /// one, the previous token's). Facebook's definitive answers about the new token
  /// (`is_valid: false`, another app) still throw.
  ///
  /// - Throws: As ``refresh(_:)``.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    guard configuration.renewal == .reexchange else {
      throw AuthError(
        .refreshTokenInvalid, "Facebook issues no refresh tokens and renewal is off.",
        provider: .facebook, signOutReason: .accessTokenExpired)
    }
    let tokens = try await exchange(credential.refreshToken ?? credential.accessToken)
    do {
      return RefreshOutcome(credential: try await finish(tokens, previous: credential))
    } catch let error as AuthError where error.isTransient {
      var kept = try await finish(tokens, previous: credential, inspecting: false)
      if tokens.expiresIn == nil { kept.expiresAt = credential.expiresAt }
      return RefreshOutcome(credential: kept, problem: .unverified(error))
    }
  }

  /// Revokes every permission of the app for the user (`DELETE /me/permissions`), which ends
  /// the grant and all its tokens. Without an app secret (a device that signs in with the
  /// client token alone) it goes with the user token only, as the profile request does.
  public func revoke(_ credential: Credential) async throws {
    let url = configuration.meEndpoint.appendingPathComponent("permissions")
    let object = try await graph(
      url, method: "DELETE", query: [], token: credential.accessToken,
      operation: "The Facebook revocation (DELETE /me/permissions)", proofOptional: true)
    guard object["success"]?.boolValue == true else {
      throw AuthError(
        .invalidResponse, "The Facebook revocation did not answer success: true.",
        provider: .facebook)
    }
  }

  // MARK: Helpers

  /// The code of a valid callback; a cancelled dialog names `error_reason=user_denied`.
  private func validate(
    _ callback: AuthorizationCallback, pending: PendingLogin
  ) throws(AuthError) -> String {
    do {
      return try oauth.validateCallback(callback, pending: pending)
    } catch {
      var failure = error
      if failure.code == .accessDenied, (try? callback.value("error_reason")) == "user_denied" {
        failure.message = "The user cancelled the Facebook login (error_reason=user_denied)."
      }
      throw failure
    }
  }

  /// `fb_exchange_token`: a still-valid token for a new long-lived one.
  func exchange(_ token: Secret) async throws -> OAuth2TokenResponse {
    try await tokenRequest(
      [
        ("grant_type", "fb_exchange_token"), ("client_id", configuration.appID),
        (
          "client_secret",
          try configuration.requiredAppSecret(for: "The Facebook token exchange").revealed
        ),
        ("fb_exchange_token", token.revealed),
      ],
      operation: "The Facebook token exchange (fb_exchange_token)")
  }

  /// Inspects new tokens when configured, keeps what the previous credential knew, and sets
  /// the exchangeable token for renewal.
  private func finish(
    _ tokens: OAuth2TokenResponse, previous: Credential?, inspecting: Bool = true
  ) async throws -> Credential {
    var credential = tokens.credential
    credential.extra = previous?.extra ?? [:]
    if previous != nil, tokens.raw["scope"] == nil, let old = previous?.scopes {
      credential.scopes = old
    }
    if inspecting, configuration.inspectsTokenAfterLogin {
      let inspection = try await inspect(credential.accessToken)
      if tokens.expiresIn == nil {
        credential.expiresAt = inspection.expiresAt
      }
      if let scopes = inspection.scopes, !scopes.isEmpty { credential.scopes = scopes }
      if let dataAccess = inspection.dataAccessExpiresAt {
        credential.extra[Self.dataAccessExpiresAtKey] = dataAccess
      }
    }
    credential.refreshToken = configuration.renewal == .reexchange ? credential.accessToken : nil
    return credential
  }

}
