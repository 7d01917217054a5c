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

  /// The engine running ``ProviderDescription/line`` with this configuration; the
  /// configuration error when the configuration cannot be one (a channel id or secret
  /// emptied after it was checked), which every call then throws.
  let engine: Result<DescribedProvider, AuthError>

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
    engine = Result { () throws(AuthError) -> DescribedProvider in
      DescribedProvider(
        configuration: try configuration.described(), transport: transport, clock: clock)
    }
  }

  /// The authorization URL: `response_type=code`, `client_id`, `redirect_uri`, `scope`,
  /// `state`, `code_challenge` (S256), `nonce`, then `prompt`, `bot_prompt`, `ui_locales`,
  /// `max_age` when configured.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try await engine.get().makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Checks the callback (state; LINE's upper-case error codes are kept as sent), exchanges
  /// the code with the PKCE verifier, verifies the ID token (HS256 or ES256, audience, issuer,
  /// expiry, nonce) and keeps `friendship_status_changed`.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    try await namingSettings {
      try await engine.get().completeAuthorization(pending, callback: callback)
    }
  }

  /// Spends the refresh token. LINE echoes it (no rotation) and sends no new ID token; the
  /// old ID token and ``Credential/extra`` are kept.
  public func refresh(_ credential: Credential) async throws -> Credential {
    var refreshed = try await namingSettings { try await engine.get().refresh(credential) }
    refreshed.extra = credential.extra
    return refreshed
  }

  /// Revokes the access token (`POST /oauth2/v2.1/revoke` with `access_token`, `client_id`
  /// and, as configured, `client_secret`); LINE answers an empty 200.
  public func revoke(_ credential: Credential) async throws {
    try await namingSettings { try await engine.get().revoke(credential) }
  }

  /// `/v2/profile` (`userId`, `displayName`, `pictureUrl`, `statusMessage`), with the email
  /// from the stored ID token, and `friendship_status_changed` from the login.
  ///
  /// The ID token was validated when it was stored: its claims are read (and its issuer and
  /// audience compared), but neither its signature nor its expiry is checked again, because
  /// LINE's refresh sends no new one and its keys may have rotated since.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    var identity = try await engine.get().fetchIdentity(for: credential)
    if let changed = credential.extra[Self.friendshipStatusChangedKey],
      case .object(var raw) = identity.rawClaims
    {
      raw["friendship_status_changed"] = .bool(changed == "true")
      identity.rawClaims = .object(raw)
    }
    return identity
  }

  /// Verifies a token a LINE app or LIFF sent.
  ///
  /// - `.idToken`: verified locally: `HS256` with the channel secret when the header has no
  ///   `kid`, `ES256` from the JWKS when it has one; `iss` `https://access.line.me`, `aud`
  ///   the channel id, unexpired, `nonce` equal to the one given.
  /// - `.accessToken`: `GET /oauth2/v2.1/verify` must say `client_id` = this channel and
  ///   `expires_in > 0`; then `/v2/profile` says who it is.
  ///
  /// ```swift
  /// let verified = try await line.verify(.accessToken(Secret(token)))
  /// print(verified.identity.subject, verified.scopes)
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` for an invalid token or one issued to another
  ///   channel; transient errors when LINE could not answer.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    try await engine.get().verify(token)
  }

  /// LINE's rules: `invalid_grant` (any case) means the refresh token is dead; a token LINE
  /// no longer accepts (401) is a dead session; other errors end the session with their code
  /// (`http_<status>` for `{message}` answers); 5xx, 429, network failures and bodies that
  /// are not an answer (HTML, empty, truncated) degrade, and so does `invalid_client` (the
  /// channel's settings, not the user's token).
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    DescribedAnswers.refreshFailure(error, dialect: ProviderDescription.line.errors)
  }

  /// The same classification for a failed identity or verify call.
  public nonisolated func classifyFailure(_ error: any Error) -> RefreshFailure {
    classifyRefreshFailure(error)
  }

  /// Runs `body`, naming ``LINEConfiguration``'s settings in a configuration error the
  /// engine raised (it names the generic `clientID` and `clientSecret`).
  func namingSettings<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as AuthError {
      throw Self.namingSettings(error)
    }
  }

  /// See ``namingSettings(_:)``.
  static func namingSettings(_ error: AuthError) -> AuthError {
    guard error.code == .configuration else { return error }
    var named = error
    named.message = error.message
      .replacingOccurrences(of: "(clientID)", with: "(LINEConfiguration.channelID)")
      .replacingOccurrences(of: "(clientSecret)", with: "(LINEConfiguration.channelSecret)")
    return named
  }
}
