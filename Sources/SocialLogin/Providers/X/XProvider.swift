import Foundation

/// X (formerly Twitter): "Sign in with X" over OAuth 2.0 with PKCE, or OAuth 1.0a for legacy
/// apps, with X's own wire format and error rules.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.twitter(clientID: "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ", clientSecret: secret)],
///   store: try FileSessionStore(directory: dir))
/// let session = try await login(.twitter)             // browser + loopback redirect + PKCE
/// let token = try await session.freshAccessToken()    // refreshed (and rotated) as needed
/// print(await session.identity?.name ?? "?")          // from GET /2/users/me
///
/// // A backend checking a token a mobile app sent:
/// let verified = try await login.verify(.accessToken(Secret(token)), from: .x)
/// // verified.audience is .unprovable: see "Verifying tokens" below.
/// ```
///
/// ## OAuth 2.0
/// Authorization code with PKCE `S256` and `state`; default scopes
/// `users.read tweet.read offline.access`. A confidential client (one with a secret) sends
/// HTTP Basic on the token, refresh and revocation requests; a public client sends `client_id`
/// in the body. Access tokens live two hours. **Refresh tokens are single use**: every refresh
/// returns a new one and kills the old, so two processes refreshing at once would log a user
/// out; the ``SessionActor`` single flight and the store's refresh lease prevent that. X
/// answers a spent, rotated-away or unknown refresh token with HTTP 400 `invalid_request`
/// ("Value passed for the token was invalid."), not `invalid_grant`; this provider classifies
/// that as ``RefreshFailure/refreshTokenInvalid(_:)``, so the session re-reads the store and
/// adopts a sibling's newer token before it signs out.
///
/// ## OAuth 1.0a
/// ``init(oauth1:transport:clock:)`` speaks the three-legged flow through ``OAuth1Client``:
/// request token (the response must confirm the callback), `oauth/authenticate`, access token,
/// `1.1/account/verify_credentials.json` for the identity and `1.1/oauth/invalidate_token` to
/// revoke. The login's `state` travels in the callback URL's query (X keeps the query of the
/// `oauth_callback` it redirects to), so ``LoginClient`` finds the pending login as for
/// OAuth 2.0; the request token must also come back unchanged. The provider id is the same
/// ``ProviderID/twitter`` and subjects are the same account ids, so one ``LoginClient`` uses
/// one flow for X (a second X provider would repeat the id).
///
/// ## Failures
/// A user is signed out only on X's definitive answer: `invalid_request`/`invalid_grant` on
/// refresh (after adopting a sibling's token if one exists), a v2 `401` problem or v1.1 code
/// `89` for an access token. HTML pages, empty or truncated bodies, 5xx, network failures and
/// X's complaints about the *app* (`invalid_client`, `unauthorized_client`, 403
/// `client-forbidden`, v1.1 code `32`) keep the session and degrade it. A `429` degrades it
/// until `x-rate-limit-reset` (epoch seconds), or `Retry-After` when X sends one.
///
/// ## Verifying tokens
/// ``verify(_:)`` takes an OAuth 2.0 access token (asks `/2/users/me`) or an OAuth 1.0a token
/// and secret (asks `verify_credentials`, signed with this app's consumer key). X offers no
/// introspection: nothing tells which app an OAuth 2.0 token was issued to, so its
/// ``VerifiedIdentity/audience`` is ``AudienceCheck/unprovable(reason:)``; do not accept such
/// tokens as proof of a login to *your* app unless you trust the sender. An OAuth 1.0a pair
/// only verifies when signed with the consumer secret of the app it was issued to, so its
/// audience is ``AudienceCheck/proven(audience:)`` with the consumer key.
public actor XProvider: LoginProvider {
  /// Always ``ProviderID/twitter`` (which ``ProviderID/x`` equals).
  public nonisolated let id: ProviderID = .twitter
  /// The protocol and its configuration.
  public nonisolated let flow: Flow
  /// OAuth 2.0: refresh with rotating refresh tokens, PKCE, revocation. OAuth 1.0a: OAuth 1
  /// and revocation (tokens never expire, so there is no refresh).
  public nonisolated let capabilities: ProviderCapabilities

  let transport: any HTTPTransport
  let clock: any AuthClock
  let engine: Engine
  /// Identities by access-token hash (``XIdentityCachePolicy``).
  var identities = XIdentityCache()

  /// The engine built once from the configuration.
  enum Engine: Sendable {
    case oauth2(OAuth2Client, Configuration, Endpoints)
    case oauth1(OAuth1Client, OAuth1Configuration, OAuth1Configuration.Endpoints)
  }

  /// Creates a provider for `flow`.
  ///
  /// - Parameters:
  ///   - flow: OAuth 2.0 or OAuth 1.0a, with its configuration.
  ///   - transport: How to reach X.
  ///   - clock: Time for expiry, pending logins, `oauth_timestamp` and rate-limit resets.
  public init(
    flow: Flow,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.flow = flow
    self.clock = clock
    let transport = XRateLimitTransport(base: transport, clock: clock)
    self.transport = transport
    switch flow {
    case .oauth2(let configuration):
      capabilities = [.refresh, .rotatesRefreshTokens, .pkce, .revocation]
      let endpoints = configuration.resolvedEndpoints
      let client = OAuth2Client(
        provider: .twitter,
        configuration: OAuth2Configuration(
          clientID: configuration.clientID,
          clientSecret: configuration.isConfidential ? configuration.clientSecret : nil,
          clientAuthentication: configuration.isConfidential
            ? .clientSecretBasic : OAuth2Configuration.ClientAuthentication.none,
          authorizationEndpoint: endpoints.authorize,
          tokenEndpoint: endpoints.token,
          revocationEndpoint: endpoints.revoke,
          scopes: configuration.scopes,
          pkce: .s256,
          pendingLoginLifetime: configuration.pendingLoginLifetime,
          requestTimeout: configuration.requestTimeout),
        transport: transport, clock: clock)
      engine = .oauth2(client, configuration, endpoints)
    case .oauth1(let configuration):
      capabilities = [.oauth1, .revocation]
      let endpoints = configuration.resolvedEndpoints
      let client = OAuth1Client(
        consumerKey: configuration.consumerKey, consumerSecret: configuration.consumerSecret,
        transport: transport,
        endpoints: OAuth1Endpoints(
          requestToken: endpoints.requestToken, authenticate: endpoints.authorize,
          authorize: endpoints.authorize, accessToken: endpoints.accessToken,
          invalidateToken: endpoints.invalidateToken),
        provider: .twitter, clock: clock)
      engine = .oauth1(client, configuration, endpoints)
    }
  }

  /// Creates an OAuth 2.0 provider.
  public init(
    configuration: Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.init(flow: .oauth2(configuration), transport: transport, clock: clock)
  }

  /// Creates an OAuth 1.0a provider.
  public init(
    oauth1 configuration: OAuth1Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.init(flow: .oauth1(configuration), transport: transport, clock: clock)
  }

  // MARK: LoginProvider

  /// OAuth 2.0: the authorization URL with PKCE `S256` and `state`. OAuth 1.0a: obtains a
  /// request token (with `state` in the callback's query) and returns the `oauth/authenticate`
  /// URL.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    switch engine {
    case .oauth2(let client, _, _):
      return try client.makeAuthorizationRequest(redirectURI: redirectURI)
    case .oauth1(let client, let configuration, _):
      return try await oauth1AuthorizationRequest(
        client, configuration: configuration, redirectURI: redirectURI)
    }
  }

  /// OAuth 2.0: validates `state` and exchanges the code with the PKCE verifier. OAuth 1.0a:
  /// validates `state` and the request token, then exchanges the verifier.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    switch engine {
    case .oauth2(let client, _, _):
      do {
        return try await client.completeAuthorization(callback, pending: pending).credential
      } catch let error as AuthError {
        throw Self.explainingCodeExchange(error)
      }
    case .oauth1(let client, _, _):
      return try await oauth1Complete(client, pending: pending, callback: callback)
    }
  }

  /// Spends the (single-use) refresh token; the response carries the next one.
  ///
  /// - Throws: ``AuthError/Code/refreshTokenInvalid`` (reason
  ///   ``SignOutReason/refreshTokenExpired``) when X answers `invalid_request` or
  ///   `invalid_grant`; ``AuthError/Code/unsupported`` for OAuth 1.0a; otherwise as
  ///   ``OAuth2Client/refresh(_:scopes:additionalFields:)``.
  public func refresh(_ credential: Credential) async throws -> Credential {
    guard case .oauth2(let client, _, _) = engine else {
      throw AuthError(
        .unsupported, "OAuth 1.0a tokens do not expire and cannot be refreshed.", provider: id)
    }
    do {
      return try await client.refresh(credential).credential
    } catch let error as AuthError {
      throw Self.refreshError(error)
    }
  }

  /// OAuth 2.0: revokes the refresh token (hint `refresh_token`), then the access token (hint
  /// `access_token`). OAuth 1.0a: `invalidate_token`; a token X already calls invalid (code
  /// `89`) counts as revoked.
  public func revoke(_ credential: Credential) async throws {
    identities.remove(credential.accessToken)
    switch engine {
    case .oauth2(let client, _, _):
      if let refreshToken = credential.refreshToken, !refreshToken.isEmpty {
        try await client.revoke(refreshToken, hint: .refreshToken)
      }
      try await client.revoke(credential.accessToken, hint: .accessToken)
    case .oauth1(let client, _, _):
      do {
        try await client.invalidateToken(credential)
      } catch let error as AuthError where error.providerCode == "89" {
        return
      }
    }
  }

}
