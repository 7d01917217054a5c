import Foundation

/// LINE Login v2.1: authorization code with `state`, `nonce` and PKCE S256; ID tokens signed
/// `HS256` with the channel secret (web login, no `kid`) or `ES256` from LINE's JWKS (apps,
/// LIFF, with `kid`); `/v2/profile`; access-token verification; refresh and revocation.
///
/// LINE refresh tokens do **not** rotate: the refresh response echoes the refresh token sent,
/// and refreshing does not extend its validity (90 days after the access token was first
/// issued). LINE speaks two error shapes: OAuth endpoints `{error, error_description}`
/// (callbacks use upper-case codes such as `INVALID_REQUEST`), other endpoints `{message}`.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.line(channelID: "1656000000", channelSecret: Secret(secret))],
///   store: try FileSessionStore(directory: dir))
/// let session = try await login(.line)
/// let friendshipChanged = await session.credential?.extra[LINEProvider.friendshipStatusChangedKey]
///
/// // An ID token a LINE app sent, with the nonce your server gave it:
/// let verified = try await login.verify(.idToken(Secret(idToken), nonce: nonce), from: .line)
/// ```
public actor LINEProvider: LoginProvider {
  /// The configuration type.
  public typealias Configuration = LINEConfiguration

  /// ``ProviderID/line``.
  public nonisolated let id: ProviderID = .line
  /// The configuration.
  public nonisolated let configuration: LINEConfiguration
  /// Refresh (without rotation), PKCE, OpenID Connect and revocation.
  public nonisolated let capabilities: ProviderCapabilities = [
    .refresh, .pkce, .openIDConnect, .revocation,
  ]

  /// The ``Credential/extra`` key of the callback's `friendship_status_changed` (`"true"` or
  /// `"false"`), present when the login used `bot_prompt`.
  public static let friendshipStatusChangedKey = "line.friendship_status_changed"

  let transport: any HTTPTransport
  let clock: any AuthClock
  /// Token requests that send `client_id` and `client_secret` in the form.
  let oauth: OAuth2Client
  /// Refresh and revoke requests, with or without the secret as configured.
  let refreshing: OAuth2Client
  let validator: IDTokenValidator

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - configuration: Channel, scopes, prompts, endpoints.
  ///   - transport: How to reach LINE.
  ///   - clock: Time for expiry, pending logins and ID-token checks.
  public init(
    configuration: LINEConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    func client(_ authentication: OAuth2Configuration.ClientAuthentication) -> OAuth2Client {
      OAuth2Client(
        provider: .line,
        configuration: OAuth2Configuration(
          clientID: configuration.channelID,
          clientSecret: configuration.channelSecret,
          clientAuthentication: authentication,
          authorizationEndpoint: configuration.authorizeEndpoint,
          tokenEndpoint: configuration.tokenEndpoint,
          revocationEndpoint: configuration.revokeEndpoint,
          scopes: configuration.scopes,
          pkce: .s256,
          usesNonce: true,
          additionalAuthorizationParameters: configuration.authorizationParameters,
          pendingLoginLifetime: configuration.pendingLoginLifetime,
          requestTimeout: configuration.requestTimeout),
        transport: transport, clock: clock)
    }
    oauth = client(.clientSecretPost)
    refreshing = client(configuration.sendsClientSecretOnRefresh ? .clientSecretPost : .none)
    let certificates = JWKSCache(
      url: configuration.jwksEndpoint, transport: transport, clock: clock)
    validator = IDTokenValidator(
      configuration: IDTokenValidator.Configuration(
        issuer: LINEConfiguration.issuer, clientID: configuration.channelID,
        allowedAlgorithms: [.es256, .hs256], leeway: configuration.leeway, provider: .line),
      keys: Self.idTokenKeys(
        channelSecret: configuration.channelSecret, certificates: certificates),
      clock: clock)
  }

  /// The authorization URL: `response_type=code`, `client_id`, `redirect_uri`, `scope`,
  /// `state`, `code_challenge` (S256), `nonce`, then `prompt`, `bot_prompt`, `ui_locales`,
  /// `max_age` when configured.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try oauth.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Checks the callback (state; LINE's upper-case error codes are kept as sent), exchanges
  /// the code with the PKCE verifier, verifies the ID token (HS256 or ES256, audience, issuer,
  /// expiry, nonce) and keeps `friendship_status_changed`.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    let code = try oauth.validateCallback(callback, pending: pending)
    var credential: Credential
    do {
      credential = try await oauth.exchangeCode(
        code, pending: pending, additionalFields: configuration.idTokenKeyTypeFields
      ).credential
    } catch let error as AuthError {
      throw LINEAPIError.blamingCredentials(error)
    }
    if let idToken = credential.idToken {
      _ = try await validator.validate(
        idToken.revealed, nonce: pending.nonce?.revealed,
        maxAge: configuration.maxAge.map(TimeInterval.init),
        accessToken: credential.accessToken.revealed)
    } else if configuration.scopes.contains("openid") {
      throw AuthError(
        .invalidResponse, "LINE's token response has no id_token although openid was requested.",
        provider: .line)
    }
    if let changed = try callback.value("friendship_status_changed") {
      credential.extra[Self.friendshipStatusChangedKey] = changed
    }
    return credential
  }

  /// Spends the refresh token. LINE echoes it (no rotation) and sends no new ID token; the
  /// old ID token and ``Credential/extra`` are kept.
  public func refresh(_ credential: Credential) async throws -> Credential {
    do {
      var refreshed = try await refreshing.refresh(credential).credential
      refreshed.extra = credential.extra
      return refreshed
    } catch let error as AuthError {
      throw LINEAPIError.blamingCredentials(error)
    }
  }

  /// Revokes the access token (`POST /oauth2/v2.1/revoke` with `access_token`, `client_id`
  /// and, as configured, `client_secret`); LINE answers an empty 200.
  public func revoke(_ credential: Credential) async throws {
    let operation = "The LINE revocation"
    let fields = [("access_token", credential.accessToken.revealed)]
    do {
      let response = try await refreshing.post(
        to: configuration.revokeEndpoint, fields: fields, operation: operation)
      guard !response.isSuccess else { return }
      throw LINEAPIError.failure(response, operation: operation, now: clock.wallTime)
    } catch let error as AuthError {
      let secret = configuration.channelSecret.map(\.revealed).flatMap { $0.isEmpty ? nil : $0 }
      throw error.masking([credential.accessToken.revealed] + (secret.map { [$0] } ?? []))
    }
  }

  /// The ID-token keys: a `kid` selects an ES256 key from the JWKS; no `kid` means HS256 with
  /// the channel secret, which fails with ``AuthError/Code/configuration`` when there is none.
  static func idTokenKeys(channelSecret: Secret?, certificates: any JWTKeyResolver)
    -> any JWTKeyResolver
  {
    guard let channelSecret, !channelSecret.isEmpty else {
      return HeaderKeyResolver(
        withKeyID: certificates,
        withoutKeyID: UnavailableKeyResolver(
          error: AuthError(
            .configuration,
            "The LINE ID token is HS256, which needs the channel secret, but none is "
              + "configured (ES256 ID tokens and access tokens need the channel id alone).",
            provider: .line)))
    }
    return HeaderKeyResolver.line(channelSecret: channelSecret, certificates: certificates)
  }

}
