import Foundation

extension FacebookProvider {
  /// What `debug_token` said about a valid token of this app.
  struct Inspection: Sendable {
    /// The user the token belongs to.
    var userID: String
    /// The expiry; `nil` for `expires_at: 0` ("never") or when absent.
    var expiresAt: Date?
    /// `data_access_expires_at` as sent (seconds since 1970), when present and not 0.
    var dataAccessExpiresAt: String?
    /// The granted permissions, when listed.
    var scopes: [String]?
  }

  /// Asks `debug_token` (with the app token and its `appsecret_proof`) about `token` and
  /// requires `is_valid: true` and `app_id` equal to this app.
  ///
  /// Facebook answers an expired or invalid token with **HTTP 200** and `data.is_valid: false`
  /// (its `data.error` spells the subcode `subcode`): that becomes
  /// ``AuthError/Code/invalidToken`` with the reason of `FacebookGraphError`.
  func inspect(_ token: Secret) async throws -> Inspection {
    let operation = "The Facebook token inspection (debug_token)"
    let object: [String: JSONValue]
    do {
      object = try await graph(
        configuration.debugTokenEndpoint, query: [("input_token", token.revealed)],
        token: try appAccessToken(for: operation), operation: operation)
    } catch let error as AuthError where error.code == .invalidToken {
      // debug_token reports the inspected token's problems in `data` (HTTP 200, is_valid:
      // false); a top-level 190/102 is about its own access_token: the app token
      // `{app-id}|{app-secret}`, which only a wrong app secret (or id) makes invalid.
      throw FacebookGraphError.configurationError(
        "appSecret", operation: operation, status: error.httpStatus,
        code: error.providerCode.flatMap { Int($0) },
        subcode: error.providerSubcode.flatMap { Int($0) })
    }
    guard let data = object["data"]?.objectValue else {
      throw AuthError(
        .invalidResponse, "\(operation) answered without a 'data' object.", provider: .facebook)
    }
    guard data["is_valid"]?.boolValue == true else {
      var error = FacebookGraphError.error(
        data["error"]?.objectValue ?? [:], status: 200, operation: operation, retryAfter: nil)
      if error.code != .serverUnavailable {
        // is_valid: false is Facebook's definitive answer, whatever the error object says.
        error.code = .invalidToken
        error.signOutReason =
          error.signOutReason
          ?? FacebookGraphError.signOutReason(
            subcode: data["error"]?["subcode"].flatMap(FacebookGraphError.integer))
        error.message = "Facebook says the token is not valid (is_valid: false). " + error.message
      }
      throw error
    }
    let appID = data["app_id"]?.stringValue ?? data["app_id"]?.int64Value.map(String.init)
    guard appID == configuration.appID else {
      throw AuthError(
        .invalidToken,
        "The Facebook token was issued to another app ('\(ErrorText.excerpt(appID ?? "none", limit: 40))'), "
          + "not to app \(configuration.appID).",
        provider: .facebook)
    }
    let userID = data["user_id"]?.stringValue ?? data["user_id"]?.int64Value.map(String.init)
    guard let userID, !userID.isEmpty else {
      throw AuthError(
        .invalidToken, "\(operation): the token belongs to no user (an app or page token?).",
        provider: .facebook)
    }
    let expiresAt = data["expires_at"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
    let dataAccess = data["data_access_expires_at"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
    return Inspection(
      userID: userID,
      expiresAt: expiresAt.map { Date(timeIntervalSince1970: $0) },
      dataAccessExpiresAt: dataAccess.map { JWTClaimsPolicy.seconds($0) },
      scopes: data["scopes"]?.arrayValue?.compactMap { $0.stringValue })
  }

  /// Verifies a token a mobile app sent.
  ///
  /// - `.accessToken`: `debug_token` proves it is valid and was issued to this app, then `/me`
  ///   says who it is (its `id` must be the token's `user_id`). The audience is proven.
  /// - `.idToken`: a Limited Login (OpenID Connect) ID token: `RS256` with a key from the
  ///   JWKS, `aud` equal to the app id, `nonce` equal to the one given, unexpired, and an
  ///   issuer that passes ``FacebookConfiguration/limitedLoginIssuer`` (by default any
  ///   `https` issuer on `facebook.com` or a subdomain, as Facebook's iOS SDK checks). It
  ///   needs the app id alone: a configuration without ``FacebookConfiguration/appSecret``
  ///   verifies ID tokens (access tokens need the secret, for `debug_token`).
  ///
  /// ```swift
  /// let verified = try await facebook.verify(.idToken(Secret(jwt), nonce: nonce))
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` for an invalid token or one issued to another
  ///   app; transient errors when Facebook could not answer.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    switch token {
    case .accessToken(let accessToken):
      let inspection = try await inspect(accessToken)
      let identity = try await fetchIdentity(for: Credential(accessToken: accessToken))
      guard identity.subject == inspection.userID else {
        throw AuthError(
          .invalidToken, "/me names another user than debug_token's user_id.",
          provider: .facebook)
      }
      return VerifiedIdentity(
        identity: identity, expiresAt: inspection.expiresAt, scopes: inspection.scopes ?? [],
        audience: .proven(audience: configuration.appID))
    case .idToken(let idToken, let nonce):
      let jwt = try await validateLimitedLogin(idToken, nonce: nonce?.revealed)
      guard let subject = jwt.subject, !subject.isEmpty else {
        throw AuthError(.invalidToken, "The ID token has no subject.", provider: .facebook)
      }
      let claims = jwt.claims.objectValue ?? [:]
      let expiresAt = claims["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
      return VerifiedIdentity(
        identity: Identity(claims: claims, subject: subject, provider: .facebook),
        expiresAt: expiresAt, audience: .proven(audience: configuration.appID))
    case .oauth1:
      throw AuthError(.unsupported, "Facebook does not use OAuth 1.0a.", provider: .facebook)
    }
  }

  /// Verifies a Limited Login ID token (signature, time claims, audience, nonce, issuer).
  func validateLimitedLogin(_ idToken: Secret, nonce: String?) async throws(AuthError)
    -> VerifiedJWT
  {
    var policy = JWTClaimsPolicy(
      issuer: configuration.limitedLoginIssuer, audience: configuration.appID, nonce: nonce,
      leeway: configuration.leeway, requiredClaims: ["iss", "sub", "aud", "exp", "iat"])
    policy.rejectsUntrustedAudiences = true
    policy.requiresAuthorizedPartyForMultipleAudiences = true
    policy.refusesUnexpectedNonce = true
    let validator = JWTValidator(
      allowedAlgorithms: [.rs256], policy: policy, clock: clock, provider: .facebook)
    let jwt = try await validator.validate(idToken.revealed, resolver: keys)
    if configuration.limitedLoginIssuer == nil {
      let issuer = jwt.issuer ?? ""
      guard Self.isFacebookIssuer(issuer) else {
        throw AuthError(
          .invalidToken,
          "The ID token's issuer '\(ErrorText.excerpt(issuer, limit: 100))' is not Facebook "
            + "(an https URL on facebook.com or a subdomain).",
          provider: .facebook)
      }
    }
    return jwt
  }

  /// §7: an `https` issuer whose host is `facebook.com` or ends in `.facebook.com`.
  static func isFacebookIssuer(_ issuer: String) -> Bool {
    guard let components = URLComponents(string: issuer), components.scheme == "https",
      components.user == nil, components.password == nil, components.port == nil,
      let host = components.host?.lowercased()
    else { return false }
    return host == "facebook.com" || host.hasSuffix(".facebook.com")
  }
}
