import Foundation

extension LINEProvider {
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
    switch token {
    case .idToken(let idToken, let nonce):
      let verified = try await validator.validate(
        idToken.revealed, nonce: nonce?.revealed, refusingUnexpectedNonce: true)
      let claims = verified.claims.objectValue ?? [:]
      guard let subject = verified.subject, !subject.isEmpty else {
        throw AuthError(.invalidToken, "The LINE ID token has no subject.", provider: .line)
      }
      return VerifiedIdentity(
        identity: Identity(claims: claims, subject: subject, provider: .line),
        expiresAt: claims["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
        audience: .proven(audience: configuration.channelID))
    case .accessToken(let accessToken):
      let info = try await verifyAccessToken(accessToken)
      let profile = try await self.profile(accessToken)
      return VerifiedIdentity(
        identity: try Self.identity(profile: profile, idTokenClaims: [:]),
        expiresAt: info.expiresAt, scopes: info.scopes,
        audience: .proven(audience: configuration.channelID))
    case .oauth1:
      throw AuthError(.unsupported, "LINE does not use OAuth 1.0a.", provider: .line)
    }
  }

  /// `GET /oauth2/v2.1/verify?access_token=…` → `{scope, client_id, expires_in}`.
  func verifyAccessToken(_ accessToken: Secret) async throws -> (
    expiresAt: Date, scopes: [String]
  ) {
    let operation = "The LINE access-token verification"
    let object: [String: JSONValue]
    do {
      object = try await get(
        configuration.verifyEndpoint, query: [("access_token", accessToken.revealed)],
        operation: operation)
    } catch var error as AuthError where error.code == .providerError && error.oauth != nil {
      // 400 {"error":"invalid_request","error_description":"access token expired"}: LINE's
      // definitive "this token is not valid".
      error.code = .invalidToken
      error.signOutReason = .accessRevoked
      throw error
    }
    let clientID = object["client_id"]?.stringValue
    guard clientID == configuration.channelID else {
      throw AuthError(
        .invalidToken,
        "The LINE access token was issued to another channel "
          + "('\(ErrorText.excerpt(clientID ?? "none", limit: 40))'), not to channel "
          + "\(configuration.channelID).",
        provider: .line)
    }
    let expiresIn = object["expires_in"].flatMap(OAuth2TokenResponse.seconds)
    guard let expiresIn, expiresIn > 0 else {
      throw AuthError(
        .invalidToken, "LINE says the access token has expired (expires_in ≤ 0).",
        provider: .line)
    }
    let scopes = object["scope"]?.stringValue.map { OAuth2TokenResponse.scopes($0, separator: " ") }
    return (clock.wallTime.addingTimeInterval(expiresIn), scopes ?? [])
  }
}
