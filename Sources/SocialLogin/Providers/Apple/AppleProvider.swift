import Foundation

/// Sign in with Apple: the web login (authorization code, `response_mode=form_post`, the
/// first-login `user` name kept), the exchange of a code an iOS app obtained, RS256 ID tokens
/// from Apple's JWKS, refresh without rotation, revocation, and server-to-server
/// notifications.
///
/// Apple authenticates the service with a client secret the SDK signs with the `.p8` key
/// (ES256), caches and renews before it expires. Apple's access token serves no API: a
/// session's identity comes from its ID token, and its refresh token is what revocation
/// (account deletion, App Store Review Guideline 5.1.1(v)) needs. Apple asks that refresh
/// tokens be validated at most once a day, so sessions refresh on their own at most that often
/// (``AppleConfiguration/automaticRefreshInterval``).
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.apple(clientIDs: ["com.example.web", "com.example.app"], teamID: team,
///                      keyID: kid, privateKeyPEM: Secret(p8))],
///   store: try FileSessionStore(directory: dir))
///
/// // The code and identity token an iOS app sent:
/// let session = try await login.signInWithApple(
///   authorizationCode: Secret(code), identityToken: Secret(idToken), nonce: Secret(rawNonce))
/// ```
public actor AppleProvider: LoginProvider {
  /// The configuration type.
  public typealias Configuration = AppleConfiguration

  /// ``ProviderID/apple``.
  public nonisolated let id: ProviderID = .apple
  /// The configuration.
  public nonisolated let configuration: AppleConfiguration
  /// Refresh (without rotation), OpenID Connect and revocation.
  public nonisolated let capabilities: ProviderCapabilities = [
    .refresh, .openIDConnect, .revocation,
  ]

  /// The ``Credential/extra`` key of the client id that obtained the tokens (and so must
  /// refresh and revoke them).
  public static let clientIDKey = "apple.client_id"
  /// The ``Credential/extra`` key of the `user` JSON Apple posts on the first authorization
  /// only (`{"name":{"firstName","lastName"},"email"}`), kept because Apple never sends it again.
  public static let userKey = "apple.user"

  let transport: any HTTPTransport
  let clock: any AuthClock
  /// Apple's ID-token keys (`/auth/keys`), shared by every client id.
  let keys: JWKSCache
  /// The client secrets signed so far, by client id, until they come close to expiring.
  private var secrets: [String: AppleClientSecret] = [:]

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - configuration: Client ids, team, key, scopes, endpoints.
  ///   - transport: How to reach Apple.
  ///   - clock: Time for client secrets, expiry, pending logins and ID-token checks.
  public init(
    configuration: AppleConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    keys = JWKSCache(url: configuration.keysEndpoint, transport: transport, clock: clock)
  }

  /// How often a session refreshes on its own at most: ``AppleConfiguration/automaticRefreshInterval``.
  public nonisolated var automaticRefreshInterval: Duration? {
    configuration.automaticRefreshInterval
  }

  /// The client secret for `clientID`: the cached one while it has more than
  /// ``AppleConfiguration/clientSecretRenewalMargin`` left, else a newly signed one.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for a client id that is not configured or a
  ///   lifetime Apple does not accept.
  public func clientSecret(for clientID: String) throws(AuthError) -> Secret {
    try requireConfigured(clientID)
    let now = clock.wallTime
    if let cached = secrets[clientID],
      cached.serves(at: now, margin: configuration.clientSecretRenewalMargin)
    {
      return cached.token
    }
    let signed = try AppleClientSecret.sign(for: clientID, configuration: configuration, now: now)
    secrets[clientID] = signed
    return signed.token
  }

  /// The authorization URL: `response_type=code`, `client_id` (the web Services ID),
  /// `redirect_uri`, `scope`, `state`, `code_challenge` (S256), `nonce`, and `response_mode=form_post` when `name` or
  /// `email` is requested (Apple then POSTs the callback). Apple accepts only https return
  /// URLs that are neither localhost nor an IP address; the emulator accepts loopback ones.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    var request = try client(configuration.webClientID, secret: nil)
      .makeAuthorizationRequest(redirectURI: redirectURI)
    request.pending.extra[Self.clientIDKey] = configuration.webClientID
    return request
  }

  /// Checks the callback's `state`, exchanges the code (with the `redirect_uri`), verifies
  /// the ID token (signature, issuer, audience, expiry, nonce) and keeps the `user` JSON of a
  /// first authorization in ``Credential/extra`` under ``userKey``.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    let clientID = pending.extra[Self.clientIDKey] ?? configuration.webClientID
    let code = try client(clientID, secret: nil).validateCallback(callback, pending: pending)
    var credential = try await requestingToken(clientID) { client in
      try await client.exchangeCode(code, pending: pending).credential
    }
    guard let idToken = credential.idToken else {
      throw AuthError(
        .invalidResponse, "Apple's token response has no id_token.", provider: .apple)
    }
    _ = try await verifyIDToken(idToken, nonce: pending.nonce, clientIDs: [clientID])
    credential.extra[Self.clientIDKey] = clientID
    if let user = try callback.value("user"), Self.userName(fromJSON: user) != nil {
      credential.extra[Self.userKey] = user
    }
    return credential
  }

  /// Spends the refresh token as the client id that obtained it. Apple sends no new refresh
  /// token (the one sent is kept) but a new ID token, which must name the same account:
  /// another subject ends the session (``RefreshOutcome/Problem/identityMismatch(_:)``); an
  /// ID token that cannot be verified keeps the previous one
  /// (``RefreshOutcome/Problem/unverified(_:)``).
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    let clientID = credential.extra[Self.clientIDKey] ?? configuration.webClientID
    var issued = try await requestingToken(clientID) { client in
      try await client.refresh(credential).credential
    }
    issued.extra = credential.extra
    guard let newToken = issued.idToken, newToken != credential.idToken else {
      return RefreshOutcome(credential: issued)
    }
    do throws(AuthError) {
      let verified = try await verifyIDToken(newToken, nonce: nil, clientIDs: [clientID])
      let previous = credential.idToken.flatMap { StoredIDToken.decoding($0.revealed) }
      if let previous, previous.subject != verified.subject {
        return RefreshOutcome(
          credential: issued,
          problem: .identityMismatch(
            AuthError(
              .invalidToken, "Apple's refreshed ID token names another account.",
              provider: .apple)))
      }
      return RefreshOutcome(credential: issued)
    } catch {
      issued.idToken = credential.idToken
      return RefreshOutcome(credential: issued, problem: .unverified(error))
    }
  }

  /// ``spendRefreshToken(_:)``'s credential, or its problem's error.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// Revokes the grant at `POST /auth/revoke`: the refresh token (`token_type_hint`
  /// `refresh_token`) when the credential has one, which ends every token of the grant, else
  /// the access token. Apple answers an empty 200, even for a token it does not know.
  public func revoke(_ credential: Credential) async throws {
    let clientID = credential.extra[Self.clientIDKey] ?? configuration.webClientID
    let token = credential.refreshToken ?? credential.accessToken
    let hint: TokenTypeHint = credential.refreshToken == nil ? .accessToken : .refreshToken
    try await requestingToken(clientID) { client in
      try await client.revoke(token, hint: hint)
    }
  }

  /// The OAuth 2.0 client of `clientID` authenticating with `secret` in the form (Apple's
  /// `client_secret_post`), or without one for the authorization request.
  func client(_ clientID: String, secret: Secret?) throws(AuthError) -> OAuth2Client {
    try requireConfigured(clientID)
    return OAuth2Client(
      provider: .apple,
      configuration: OAuth2Configuration(
        clientID: clientID, clientSecret: secret,
        clientAuthentication: secret == nil
          ? OAuth2Configuration.ClientAuthentication.none
          : .clientSecretPost,
        authorizationEndpoint: configuration.authorizeEndpoint,
        tokenEndpoint: configuration.tokenEndpoint,
        revocationEndpoint: configuration.revokeEndpoint,
        scopes: configuration.scopes,
        // Apple checks `code_verifier` when the authorization carried a challenge.
        pkce: .s256,
        usesNonce: true,
        additionalAuthorizationParameters: configuration.usesFormPost
          ? [URLQueryItem(name: "response_mode", value: "form_post")] : [],
        pendingLoginLifetime: configuration.pendingLoginLifetime,
        requestTimeout: configuration.requestTimeout),
      transport: transport, clock: clock)
  }

  /// Runs `body` with the client of `clientID` and its current client secret; Apple's
  /// application errors become ``AuthError/Code/configuration`` (`AppleAPIError`).
  func requestingToken<T: Sendable>(
    _ clientID: String, _ body: (OAuth2Client) async throws -> T
  ) async throws -> T {
    let client = try client(clientID, secret: try clientSecret(for: clientID))
    do {
      return try await body(client)
    } catch let error as AuthError {
      throw AppleAPIError.blamingConfiguration(error)
    }
  }

  private func requireConfigured(_ clientID: String) throws(AuthError) {
    guard configuration.clientIDs.contains(clientID) else {
      throw AuthError(
        .configuration,
        "'\(ErrorText.excerpt(clientID, limit: 80))' is not one of the configured Apple client "
          + "ids (AppleConfiguration.clientIDs).",
        provider: .apple)
    }
  }
}
