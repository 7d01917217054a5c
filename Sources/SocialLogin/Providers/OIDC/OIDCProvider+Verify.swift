import Foundation

extension OIDCProvider {
  /// Verifies an ID token (with its nonce), or an access token with a proven audience: RFC 7662
  /// introspection when discovery advertises it (and the client has a secret), else an RFC 9068
  /// JWT access token; otherwise ``AuthError/Code/unsupported`` says why the audience cannot be
  /// proven.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    let discovered = try await current()
    switch token {
    case .idToken(let idToken, let nonce):
      let verified = try await discovered.validator.validate(
        idToken.revealed, nonce: nonce?.revealed, refusingUnexpectedNonce: true)
      guard let subject = verified.subject, !subject.isEmpty else {
        throw AuthError(.invalidToken, "The ID token has no subject.", provider: id)
      }
      return VerifiedIdentity(
        identity: Identity(
          claims: verified.claims.objectValue ?? [:], subject: subject, provider: id),
        expiresAt: verified.expiresAt, audience: .proven(audience: configuration.clientID))
    case .accessToken(let accessToken):
      return try await verifyAccessToken(accessToken, discovered: discovered)
    case .oauth1:
      throw AuthError(.unsupported, "OpenID Connect providers do not use OAuth 1.0a.", provider: id)
    }
  }

  /// Verifies an access token that an app obtained itself, proving that it was issued to this
  /// client, not only whose it is: userinfo answers for a token of any client of the provider,
  /// so trusting it alone would let another app's token sign its user in here (token
  /// substitution).
  ///
  /// 1. When discovery advertises an `introspection_endpoint` and the client can authenticate
  ///    to it (a client secret), RFC 7662 introspection: the token must be `active`, its
  ///    `client_id` must be this client (a token without `client_id` must name this client in
  ///    `aud`), and its `iss`, if given, the issuer.
  /// 2. Otherwise, when the token is an RFC 9068 JWT access token (`typ` `at+jwt`): its
  ///    signature must verify with the provider's JWKS, `iss` must be the issuer, it must not
  ///    be expired, and its `client_id` (or, without one, its `aud`) must be this client.
  /// 3. Otherwise ``AuthError/Code/unsupported``, saying why the audience cannot be proven.
  ///
  /// The identity comes from userinfo when offered (its `sub` must be the token's), else from
  /// the token's own claims.
  func verifyAccessToken(_ token: Secret, discovered: Discovered) async throws
    -> VerifiedIdentity
  {
    let canIntrospect = !(configuration.clientSecret?.isEmpty ?? true)
    if let endpoint = discovered.metadata.introspectionEndpoint, canIntrospect {
      return try await introspected(token, at: endpoint, discovered: discovered)
    }
    if Self.isJWTAccessToken(token) {
      return try await verifiedJWTAccessToken(token, discovered: discovered)
    }
    let why =
      discovered.metadata.introspectionEndpoint == nil
      ? "the provider advertises no introspection_endpoint"
      : "introspection needs client authentication and this client has no secret"
    throw AuthError(
      .unsupported,
      "Cannot prove that the access token was issued to '\(configuration.clientID)': \(why), "
        + "and the token is not an RFC 9068 JWT access token (typ at+jwt). Verify an ID token "
        + "instead.",
      provider: id)
  }

  private func introspected(_ token: Secret, at endpoint: URL, discovered: Discovered)
    async throws -> VerifiedIdentity
  {
    let info = try await discovered.oauth.introspect(token, at: endpoint, hint: .accessToken)
    guard info.isActive else {
      throw AuthError(
        .invalidToken, "The provider says the access token is not active.", provider: id)
    }
    if let issuer = info.issuer, issuer != discovered.metadata.issuer {
      throw AuthError(
        .invalidToken, "The access token was issued by '\(issuer)', not this provider.",
        provider: id)
    }
    try checkIssuedToUs(clientID: info.clientID, audiences: info.audiences, source: "Introspection")
    let identity = try await identity(
      subject: info.subject, tokenClaims: info.claims, accessToken: token, discovered: discovered)
    return VerifiedIdentity(
      identity: identity, expiresAt: info.expiresAt, scopes: info.scopes,
      audience: .proven(audience: configuration.clientID))
  }

  /// Proves the token is this client's: its `client_id` must be ours; a token without one
  /// must name us in `aud`; a token with neither cannot be proven.
  private func checkIssuedToUs(clientID owner: String?, audiences: [String], source: String)
    throws(AuthError)
  {
    let clientID = configuration.clientID
    if let owner {
      guard owner == clientID else {
        throw AuthError(
          .invalidToken,
          "The access token was issued to client '\(owner)', not '\(clientID)'.", provider: id)
      }
    } else if audiences.isEmpty {
      throw AuthError(
        .unsupported,
        "\(source) names neither the token's client_id nor its aud: the audience cannot be "
          + "proven.",
        provider: id)
    } else if !audiences.contains(clientID) {
      throw AuthError(
        .invalidToken, "The access token is not meant for '\(clientID)' (aud).", provider: id)
    }
  }

  private func verifiedJWTAccessToken(_ token: Secret, discovered: Discovered) async throws
    -> VerifiedIdentity
  {
    // RFC 9068 §4: signature, iss, exp; `aud` names the resource (Glewlwyd puts the scope
    // there), `client_id` the client, so the client is checked below like introspection's.
    let policy = JWTClaimsPolicy(
      issuer: discovered.metadata.issuer, leeway: configuration.leeway,
      requiredClaims: ["iss", "sub", "aud", "exp"])
    let validator = JWTValidator(
      allowedAlgorithms: configuration.allowedAlgorithms, policy: policy, clock: clock,
      provider: id)
    var verified: VerifiedJWT
    do {
      verified = try await validator.validate(token.revealed, resolver: discovered.keys)
    } catch {
      var error = error
      if error.provider == nil { error.provider = id }
      throw error
    }
    let claims = verified.claims.objectValue ?? [:]
    try checkIssuedToUs(
      clientID: claims["client_id"]?.stringValue, audiences: verified.audiences,
      source: "The JWT access token")
    let identity = try await identity(
      subject: verified.subject, tokenClaims: claims, accessToken: token, discovered: discovered)
    return VerifiedIdentity(
      identity: identity, expiresAt: verified.expiresAt,
      scopes: claims["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) } ?? [],
      audience: .proven(audience: configuration.clientID))
  }

  /// Whether `token` is a compact JWS whose header says `typ` `at+jwt` (RFC 9068 §2.1).
  static func isJWTAccessToken(_ token: Secret) -> Bool {
    guard let jws = try? CompactJWS(parsing: token.revealed),
      let type = jws.header.type?.lowercased()
    else { return false }
    return type == "at+jwt" || type == "application/at+jwt"
  }

  /// Who the token's user is: userinfo when offered (its `sub` must be the token's), else the
  /// token's claims.
  private func identity(
    subject: String?, tokenClaims: [String: JSONValue], accessToken: Secret,
    discovered: Discovered
  ) async throws -> Identity {
    guard let userinfo = discovered.metadata.userinfoEndpoint else {
      guard let subject, !subject.isEmpty else {
        throw AuthError(
          .invalidResponse, "Neither the token nor userinfo named the user.", provider: id)
      }
      return Identity(claims: tokenClaims, subject: subject, provider: id)
    }
    let info = try await fetchUserinfo(userinfo, accessToken: accessToken)
    guard let infoSubject = info["sub"]?.stringValue, !infoSubject.isEmpty,
      subject == nil || infoSubject == subject
    else {
      throw AuthError(
        .invalidToken, "The userinfo 'sub' does not match the access token's subject.",
        provider: id)
    }
    return Identity(claims: info, subject: infoSubject, provider: id)
  }
}
