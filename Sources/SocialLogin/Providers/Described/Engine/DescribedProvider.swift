import Foundation

/// A login provider run from a ``ProviderDescription``: Kakao, NAVER, Yahoo! JAPAN, GitHub,
/// Microsoft, or one you describe.
///
/// Every login sends PKCE S256 and `state`, and a nonce whenever the description has
/// ID-token rules. Token answers, errors, identities, refresh-token rotation, revocation and
/// the verification of tokens an app sends all follow the description; see
/// <doc:DescribingAProvider>.
///
/// ```swift
/// let kakao = DescribedProvider(
///   configuration: try DescribedProviderConfiguration(
///     .kakao, clientID: restAPIKey, clientSecret: Secret(secret)))
/// let client = try LoginClient(providers: [kakao], store: store)
/// ```
public actor DescribedProvider: LoginProvider, DeviceLoginProvider {
  /// The description, the client and its settings.
  public nonisolated let configuration: DescribedProviderConfiguration
  /// What the description offers: PKCE always; refresh unless refresh tokens are
  /// ``RefreshRules/Rotation/unsupported``; revocation unless ``RevocationStyle/none``;
  /// OpenID Connect with ID-token rules; the device grant with a device endpoint.
  public nonisolated let capabilities: ProviderCapabilities

  let transport: any HTTPTransport
  let clock: any AuthClock
  /// The OAuth 2.0 engine for the authorization request, the callback and client
  /// authentication; `nil` when the description's authorize or token URL does not form
  /// (every call then throws the configuration error saved here).
  let oauth: Result<OAuth2Client, AuthError>
  /// The ID-token keys, when the description verifies ID tokens against a JWKS.
  let keys: JWKSCache?
  /// Every endpoint's URL, formed once from the configuration (templates filled, overrides
  /// and the emulator applied): the configuration is a constant, so no request forms it
  /// again. A name missing here has no usable URL.
  let endpointURLs: [String: URL]

  /// The provider's id: the description's.
  public nonisolated var id: ProviderID { configuration.description.id }

  /// Creates a provider.
  ///
  /// - Parameters:
  ///   - configuration: The description, client id, secret and settings.
  ///   - transport: How to reach the provider.
  ///   - clock: Time for token expiry and ID-token checks.
  public init(
    configuration: DescribedProviderConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    let description = configuration.description
    var capabilities: ProviderCapabilities = [.pkce]
    if description.refresh.rotation != .unsupported { capabilities.insert(.refresh) }
    if description.refresh.rotation == .always { capabilities.insert(.rotatesRefreshTokens) }
    if description.revocation != .none { capabilities.insert(.revocation) }
    if description.idToken != nil { capabilities.insert(.openIDConnect) }
    if description.deviceEndpoint != nil { capabilities.insert(.deviceGrant) }
    self.capabilities = capabilities
    var endpointURLs: [String: URL] = [:]
    for endpoint in description.endpoints {
      endpointURLs[endpoint.name] = configuration.url(endpoint.name)
    }
    self.endpointURLs = endpointURLs
    oauth = Result { () throws(AuthError) -> OAuth2Client in
      try Self.makeOAuthClient(configuration, transport: transport, clock: clock)
    }
    if let rules = description.idToken,
      rules.verification == .jwks || rules.verification == .keyIDSelects,
      let name = rules.keysEndpoint, let url = configuration.url(name)
    {
      keys = JWKSCache(url: url, transport: transport, clock: clock)
    } else {
      keys = nil
    }
  }

  private static func makeOAuthClient(
    _ configuration: DescribedProviderConfiguration, transport: any HTTPTransport,
    clock: any AuthClock
  ) throws(AuthError) -> OAuth2Client {
    let description = configuration.description
    let authorize = try endpoint("authorize", of: configuration)
    let token = try endpoint("token", of: configuration)
    let authentication: OAuth2Configuration.ClientAuthentication
    switch (description.client.authentication, configuration.clientSecret) {
    case (.clientSecretBasic, .some): authentication = .clientSecretBasic
    case (.clientSecretPost, .some): authentication = .clientSecretPost
    default: authentication = .none
    }
    let rules = description.authorization
    return OAuth2Client(
      provider: description.id,
      configuration: OAuth2Configuration(
        clientID: configuration.clientID, clientSecret: configuration.clientSecret,
        clientAuthentication: authentication, authorizationEndpoint: authorize,
        tokenEndpoint: token,
        scopes: rules.sendsScope ? configuration.effectiveScopes : [],
        scopeSeparator: rules.scopeSeparator, pkce: .s256,
        usesNonce: description.idToken != nil,
        additionalAuthorizationParameters: Self.authorizationParameters(of: configuration),
        pendingLoginLifetime: configuration.runtime.pendingLoginLifetime ?? 600,
        requestTimeout: configuration.runtime.requestTimeout ?? .seconds(30)),
      transport: transport, clock: clock)
  }

  /// The URL of the description's endpoint `name`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming the endpoint when the description
  ///   lacks it or its URL does not form.
  static func endpoint(
    _ name: String, of configuration: DescribedProviderConfiguration
  ) throws(AuthError) -> URL {
    guard let url = configuration.url(name) else {
      let description = configuration.description
      throw AuthError(
        .configuration,
        "The \(description.displayName) description has no usable endpoint '\(name)' "
          + "(missing, or its URL does not form with the client id and settings).",
        provider: description.id)
    }
    return url
  }

  func endpoint(_ name: String) throws(AuthError) -> URL {
    guard let url = endpointURLs[name] else { return try Self.endpoint(name, of: configuration) }
    return url
  }

  var description: ProviderDescription { configuration.description }

  /// Builds the authorization request: PKCE S256, `state`, a nonce when ID tokens come, the
  /// scopes joined with the description's separator (none when it sends no `scope`).
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    try oauth.get().makeAuthorizationRequest(redirectURI: redirectURI)
  }

  /// Validates the callback, exchanges the code and verifies the ID token when one came (it
  /// must when the description's ``IDTokenRules/requiredOnLogin`` says so).
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    let client = try oauth.get()
    let code = try client.validateCallback(callback, pending: pending)
    var fields = [("code", code), ("redirect_uri", pending.redirectURI)]
    if let verifier = pending.codeVerifier { fields.append(("code_verifier", verifier.revealed)) }
    fields += configuration.runtime.exchangeFields.map { ($0.name, $0.value) }
    let requested = pending.extra[PendingLogin.requestedScopeKey].map {
      OAuth2TokenResponse.scopes($0, separator: description.authorization.scopeSeparator)
    }
    var credential = try await requestToken(
      grantType: "authorization_code", fields: fields,
      requestedScopes: requested ?? configuration.effectiveScopes)
    try await checkLoginIDToken(
      credential, nonce: pending.nonce?.revealed,
      requestedScopes: requested ?? configuration.effectiveScopes)
    try keepCallbackParameters(callback, in: &credential)
    return credential
  }

  /// Verifies a login's ID token, or refuses a login without one that the description
  /// requires.
  func checkLoginIDToken(
    _ credential: Credential, nonce: String?, requestedScopes: [String]? = nil
  ) async throws {
    guard let rules = description.idToken else { return }
    guard let idToken = credential.idToken else {
      let required = rules.requiredWithScope.map { requestedScopes?.contains($0) == true }
      guard !(required ?? rules.requiredOnLogin) else {
        throw AuthError(
          .invalidResponse, "The \(description.displayName) token answer has no id_token.",
          provider: id)
      }
      return
    }
    _ = try await validateIDToken(
      idToken.revealed, nonce: nonce, accessToken: credential.accessToken.revealed,
      maxAge: configuration.runtime.maxAge.map(TimeInterval.init))
  }

  /// Spends the refresh token; see ``spendRefreshToken(_:)``.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// Spends the refresh token. An answer without a refresh token keeps the session's and its
  /// expiry, whatever the rotation rule; an answer without an ID token keeps the session's. A
  /// new ID token is verified and must name the same issuer, subject and audience as the
  /// session's; when it cannot be verified the new access and refresh tokens are kept with
  /// the old ID token (``RefreshOutcome/Problem/unverified(_:)``).
  ///
  /// - Throws: ``AuthError/Code/refreshTokenInvalid`` when the description's refresh tokens
  ///   are ``RefreshRules/Rotation/unsupported`` or the credential has none; otherwise the
  ///   token endpoint's error (classify it with ``classifyRefreshFailure(_:)``).
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    guard description.refresh.rotation != .unsupported,
      let refreshToken = credential.refreshToken, !refreshToken.isEmpty
    else {
      throw AuthError(
        .refreshTokenInvalid,
        "The \(description.displayName) credential has no refresh token, so it cannot be "
          + "refreshed.",
        provider: id, signOutReason: .accessTokenExpired)
    }
    let answer = try await requestToken(
      grantType: "refresh_token", fields: [("refresh_token", refreshToken.revealed)],
      requestedScopes: credential.scopes)
    let merged = DescribedAnswers.merging(refreshed: answer, into: credential)
    guard let fresh = answer.idToken else { return RefreshOutcome(credential: merged) }
    return await checkRefreshedIDToken(fresh.revealed, merged: merged, previous: credential)
  }

  private func checkRefreshedIDToken(_ fresh: String, merged: Credential, previous: Credential)
    async -> RefreshOutcome
  {
    let before = previous.idToken.flatMap { StoredIDToken.decoding($0.revealed) }
    do {
      let issued = try await validateIDToken(
        fresh, nonce: nil, accessToken: merged.accessToken.revealed)
      if let before,
        !StoredIDToken(claims: issued.claims.objectValue ?? [:]).sameAccount(as: before)
      {
        return RefreshOutcome(
          credential: merged,
          problem: .identityMismatch(
            AuthError(
              .invalidToken,
              "The refreshed ID token names another issuer, subject or audience than the "
                + "session's (OIDC Core §12.2).",
              provider: id)))
      }
      return RefreshOutcome(credential: merged)
    } catch {
      let reason = (error as? AuthError)?.joseError?.reason
      let authError =
        (error as? AuthError)
        ?? AuthError(.invalidToken, "The refreshed ID token failed verification.", provider: id)
      let namesAnother =
        [.issuerMismatch, .audienceMismatch, .authorizedPartyMismatch].contains(reason)
        || (error as? AuthError)?.isRequiredClaimMismatch == true
        || (before.map { before in
          StoredIDToken.decoding(fresh).map { !$0.sameAccount(as: before) }
            ?? false
        } ?? false)
      if namesAnother {
        return RefreshOutcome(credential: merged, problem: .identityMismatch(authError))
      }
      var kept = merged
      kept.idToken = previous.idToken
      return RefreshOutcome(credential: kept, problem: .unverified(authError))
    }
  }

  /// What a failed refresh means, by the description's ``ErrorDialect``: its sign-out codes
  /// sign out, its configuration and transient codes keep the session, other codes sign out
  /// when ``ErrorDialect/otherCodesSignOut`` says so; outages and answers that are not a
  /// well-formed provider error keep the session.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    DescribedAnswers.refreshFailure(error, dialect: configuration.description.errors)
  }

  /// Sends a grant to the token endpoint with the description's client authentication and
  /// `Accept` rule, and reads the answer with ``DescribedAnswers``.
  func requestToken(
    grantType: String, fields: [(String, String)], requestedScopes: [String]
  ) async throws -> Credential {
    let response = try await postToToken(grantType: grantType, fields: fields)
    do {
      return try DescribedAnswers.tokenAnswer(
        response.response, description: description, receivedAt: response.receivedAt,
        requestedScopes: requestedScopes,
        operation: "The \(description.displayName) token request (\(grantType))")
    } catch {
      var secrets = fields.filter { Redaction.isSecretName($0.0) }.map(\.1)
      if let secret = configuration.clientSecret { secrets.append(secret.revealed) }
      throw error.masking(secrets)
    }
  }

  /// POSTs an authenticated form to the token endpoint; the answer whatever its status.
  func postToToken(grantType: String, fields: [(String, String)]) async throws
    -> (response: TransportResponse, receivedAt: Date)
  {
    try await postForm(
      to: try endpoint("token"), fields: [("grant_type", grantType)] + fields,
      operation: "The \(description.displayName) token request (\(grantType))")
  }

  /// POSTs `fields` with client authentication to `url`, masking every secret sent in any
  /// error.
  func postForm(to url: URL, fields: [(String, String)], operation: String) async throws
    -> (response: TransportResponse, receivedAt: Date)
  {
    let client = try tokenClient(sending: fields)
    let (sent, headers) = try client.authenticated(fields)
    var request = TransportRequest.form(url: url, fields: sent, headers: headers)
    request.timeout = client.configuration.requestTimeout
    if description.tokenAnswer.acceptsJSON { request.headers["Accept"] = "application/json" }
    do {
      let response = try await transport.send(request, operation: operation, provider: id)
      return (response, clock.wallTime)
    } catch let error as AuthError {
      var secrets = fields.filter { Redaction.isSecretName($0.0) }.map(\.1)
      if let secret = configuration.clientSecret { secrets.append(secret.revealed) }
      throw error.masking(secrets)
    }
  }

  /// GETs `url` with the access token as a bearer token and reads the JSON answer.
  func getJSON(_ url: URL, accessToken: Secret, operation: String) async throws
    -> DescribedJSON
  {
    let request = TransportRequest(
      url: url,
      headers: ["Authorization": "Bearer \(accessToken.revealed)", "Accept": "application/json"],
      timeout: configuration.runtime.requestTimeout ?? .seconds(15))
    let response = try await transport.send(request, operation: operation, provider: id)
    if description.errors.shape == .rfc6749OrMessage {
      return try DescribedAnswers.messageShapedAnswer(
        response, description: description, operation: operation, now: clock.wallTime)
    }
    return try DescribedAnswers.apiAnswer(
      response, provider: id, operation: operation, now: clock.wallTime)
  }
}
