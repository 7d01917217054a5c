import Foundation

/// Any OpenID Connect provider: authorization code + PKCE + nonce, ID tokens verified against
/// the provider's keys, userinfo, refresh and revocation.
///
/// The provider reads `/.well-known/openid-configuration` once (cached for
/// ``Configuration/discoveryTTL``) unless you give it explicit ``Configuration/metadata``.
///
/// ```swift
/// let provider = OIDCProvider(
///   id: "corp",
///   configuration: .init(issuer: URL(string: "https://id.example.com")!, clientID: "cli"))
/// let client = try LoginClient(providers: [provider], store: store)
/// let session = try await client.login("corp")
/// ```
public actor OIDCProvider: LoginProvider {
  /// The provider id sessions are keyed by.
  public nonisolated let id: ProviderID
  /// The configuration.
  public nonisolated let configuration: Configuration
  /// Refresh, PKCE, OpenID Connect, and ``ProviderCapabilities/revocation`` only when the
  /// provider has a revocation endpoint.
  ///
  /// Capabilities are read synchronously (`nonisolated`) while the endpoints may come from
  /// discovery, so `.revocation` follows what is known: with explicit
  /// ``Configuration/metadata`` it is exact from the start; otherwise it is exact once
  /// discovery has run (the first login, refresh, ``metadata()`` or ``revoke(_:)``), and
  /// before that it is claimed provisionally so that a sign-out still tries to revoke (and
  /// ``revoke(_:)`` then discovers the endpoint, or throws ``AuthError/Code/unsupported``,
  /// which ``SessionActor/signOut(revoke:)`` reports as ``RevocationOutcome/unsupported``).
  /// ``ProviderCapabilities/deviceGrant`` follows the `device_authorization_endpoint` the same
  /// way.
  public nonisolated var capabilities: ProviderCapabilities {
    var capabilities: ProviderCapabilities = [
      .refresh, .rotatesRefreshTokens, .pkce, .openIDConnect,
    ]
    if revocationKnown.withLock({ $0 }) ?? true { capabilities.insert(.revocation) }
    if deviceGrantKnown.withLock({ $0 }) ?? true { capabilities.insert(.deviceGrant) }
    return capabilities
  }

  /// Whether the provider has a revocation endpoint: `nil` until discovery (or the explicit
  /// metadata) says.
  let revocationKnown: Locked<Bool?>
  /// Whether the provider has a device authorization endpoint: `nil` until discovery (or the
  /// explicit metadata) says.
  let deviceGrantKnown: Locked<Bool?>

  let transport: any HTTPTransport
  let clock: any AuthClock
  var discovered: Discovered?
  var discovery: Task<Discovered, any Error>?

  /// Everything derived from one discovery document.
  struct Discovered: Sendable {
    let metadata: OIDCProviderMetadata
    let oauth: OAuth2Client
    let validator: IDTokenValidator
    let keys: JWKSCache
    let fetchedAt: Date
  }

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - id: The provider id (for example `"corp"`).
  ///   - configuration: Issuer, client and scopes.
  ///   - transport: How to reach the provider.
  ///   - clock: Time for token expiry, ID-token checks and the discovery cache.
  public init(
    id: ProviderID,
    configuration: Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.id = id
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    revocationKnown = Locked(configuration.metadata.map { $0.revocationEndpoint != nil })
    deviceGrantKnown = Locked(configuration.metadata.map { $0.deviceAuthorizationEndpoint != nil })
  }

  /// The provider's metadata, from the configuration or from (cached) discovery.
  public func metadata() async throws -> OIDCProviderMetadata {
    try await current().metadata
  }

  /// Builds a code + PKCE + nonce authorization request.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try await current().oauth.makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Validates the callback, exchanges the code and verifies the ID token (signature, issuer,
  /// audience, expiry, nonce, `at_hash`).
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    let discovered = try await current()
    let response = try await discovered.oauth.completeAuthorization(callback, pending: pending)
    guard let idToken = response.credential.idToken else {
      throw AuthError(
        .invalidResponse, "The token response has no id_token although openid was requested.",
        provider: id)
    }
    _ = try await discovered.validator.validate(
      idToken.revealed, nonce: pending.nonce?.revealed,
      accessToken: response.credential.accessToken.revealed)
    return response.credential
  }

  /// Spends the refresh token. Rotated refresh tokens replace the old one. Throws the problem
  /// of ``spendRefreshToken(_:)`` when a check of the issued tokens failed; sessions use that
  /// method, which keeps the tokens.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// Spends the refresh token and checks an ID token in the response without ever throwing
  /// the issued tokens away.
  ///
  /// A new ID token is validated (signature, expiry, `at_hash`) and must name the same `iss`,
  /// `sub` and `aud` as the session's previous one (OIDC Core §12.2), so a refresh can never
  /// switch the session to another account. The previous ID token was validated when it was
  /// stored: its claims are compared as decoded, its signature is not checked again (the
  /// provider may have rotated the key that signed it). A response without an ID token keeps
  /// the previous one, which later identity fetches accept although it has expired.
  ///
  /// - Returns: The new credential; with ``RefreshOutcome/Problem/identityMismatch(_:)`` when
  ///   the new ID token names another account (or another issuer or audience than
  ///   configured), or ``RefreshOutcome/Problem/unverified(_:)`` when it could not be
  ///   validated otherwise (its key could not be fetched, its time claims or `at_hash` are
  ///   off): the credential then keeps the new access and refresh tokens with the previous,
  ///   verified ID token.
  /// - Throws: Only when no tokens were issued, as ``OAuth2Client/refresh(_:scopes:additionalFields:)``.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    let discovered = try await current()
    let response = try await discovered.oauth.refresh(credential)
    // The refresh token is spent: from here on nothing throws, every problem is reported.
    guard case .string(let fresh)? = response.raw["id_token"], !fresh.isEmpty else {
      return RefreshOutcome(credential: response.credential)
    }
    let previous: StoredIDToken?
    do {
      previous = try credential.idToken.map { try discovered.validator.storedClaims($0.revealed) }
    } catch {
      return RefreshOutcome(
        credential: response.credential,
        problem: .identityMismatch(
          AuthError(
            .invalidToken,
            "The session's stored ID token cannot be read, so the refreshed one cannot be shown "
              + "to name the same account (OIDC Core §12.2).",
            provider: id, underlying: error)))
    }
    let mismatch = AuthError(
      .invalidToken,
      "The refreshed ID token names another issuer, subject or audience than the session's "
        + "(OIDC Core §12.2).",
      provider: id)
    do {
      let issued = try await discovered.validator.validate(
        fresh, nonce: nil, accessToken: response.credential.accessToken.revealed)
      if let previous,
        !StoredIDToken(claims: issued.claims.objectValue ?? [:]).sameAccount(
          as: previous)
      {
        return RefreshOutcome(credential: response.credential, problem: .identityMismatch(mismatch))
      }
      return RefreshOutcome(credential: response.credential)
    } catch {
      var error = error
      if error.provider == nil { error.provider = id }
      let claimed = StoredIDToken.decoding(fresh)
      let namesAnotherAccount =
        Self.identityReasons.contains(error.joseError?.reason ?? "")
        || (previous.map { previous in claimed.map { !$0.sameAccount(as: previous) } ?? false }
          ?? false)
      if namesAnotherAccount {
        return RefreshOutcome(
          credential: response.credential,
          problem: .identityMismatch(
            AuthError(
              .invalidToken, mismatch.message + " " + error.message, provider: id,
              underlying: error)))
      }
      // Keep the new access and refresh tokens with the ID token that was verified.
      var kept = response.credential
      kept.idToken = credential.idToken
      return RefreshOutcome(credential: kept, problem: .unverified(error))
    }
  }

  /// ID-token rejections that say the token is about another issuer or client.
  static let identityReasons: Set<JOSEError.Reason> = [
    .issuerMismatch, .audienceMismatch, .authorizedPartyMismatch,
  ]

  /// Revokes the refresh token (which ends the grant) and then the access token, when the
  /// provider has a revocation endpoint.
  public func revoke(_ credential: Credential) async throws {
    let discovered = try await current()
    guard discovered.metadata.revocationEndpoint != nil else {
      throw AuthError(.unsupported, "The provider has no revocation endpoint.", provider: id)
    }
    if let refreshToken = credential.refreshToken {
      try await discovered.oauth.revoke(refreshToken, hint: .refreshToken)
    }
    try await discovered.oauth.revoke(credential.accessToken, hint: .accessToken)
  }

}
