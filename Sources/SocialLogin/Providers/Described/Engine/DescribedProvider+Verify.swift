import Foundation

extension DescribedProvider {
  /// Verifies a token an app sent.
  ///
  /// - An ID token: verified with the description's rules (its nonce; a token carrying a
  ///   nonce is refused without one). Its audience is proven: the client id or one of
  ///   ``DescribedProviderConfiguration/audiences``.
  /// - An access token: through the description's ``AccessTokenCheck``. Where the answer
  ///   names the app (Kakao's `app_id`) it must equal ``DescribedProviderConfiguration/appID``
  ///   (without an app id configured, ``AuthError/Code/configuration`` names the setting);
  ///   where it does not (NAVER), the identity says the audience cannot be proven.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` for a token that is not valid or is another
  ///   app's; ``AuthError/Code/unsupported`` for a kind of token the description cannot check.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    switch token {
    case .idToken(let idToken, let nonce):
      return try await verifyIDToken(idToken.revealed, nonce: nonce?.revealed)
    case .accessToken(let accessToken):
      return try await verifyAccessToken(accessToken)
    case .oauth1:
      throw AuthError(
        .unsupported, "\(description.displayName) does not use OAuth 1.0a.", provider: id)
    }
  }

  private func verifyIDToken(_ token: String, nonce: String?) async throws -> VerifiedIdentity {
    let verified = try await validateIDToken(
      token, nonce: nonce, accessToken: nil, refusingUnexpectedNonce: true)
    guard let jws = try? CompactJWS(parsing: token),
      let claims = DescribedJSON(parsing: jws.payload),
      let subject = claims["sub"]?.identifierText
    else {
      throw AuthError(.invalidToken, "The ID token has no subject.", provider: id)
    }
    let identity: Identity
    if description.identity.endpoint == nil {
      identity = try DescribedAnswers.identity(
        from: claims, rules: description.identity, provider: id,
        source: "The \(description.displayName) ID token")
    } else {
      var standard = Identity(
        claims: verified.claims.objectValue ?? [:], subject: subject, provider: id)
      standard.name = standard.name ?? claims["nickname"]?.stringValue
      standard.rawClaims = claims.jsonValue
      identity = standard
    }
    let accepted = [configuration.clientID] + configuration.audiences
    let audience = verified.audiences.first { accepted.contains($0) } ?? configuration.clientID
    return VerifiedIdentity(
      identity: identity, expiresAt: verified.expiresAt, audience: .proven(audience: audience))
  }

  private func verifyAccessToken(_ token: Secret) async throws -> VerifiedIdentity {
    guard let check = description.accessTokenCheck else {
      throw AuthError(
        .unsupported,
        "\(description.displayName) offers no way to check an access token here; verify an ID "
          + "token instead.",
        provider: id)
    }
    if check.tokenParameter != nil { return try await verifyAtTokenEndpoint(token, check: check) }
    let answer = try await getJSON(
      try endpoint(check.endpoint), accessToken: token,
      operation: "The \(description.displayName) access token check")
    let checked = try DescribedAnswers.tokenCheck(answer, check: check, provider: id)
    let expiresAt = answer["expires_in"]?.positiveSeconds(allowingString: true).map {
      clock.wallTime.addingTimeInterval($0)
    }
    let audience: AudienceCheck
    if let appPointer = check.appID {
      guard let expected = configuration.appID else {
        throw AuthError(
          .configuration,
          "Set DescribedProviderConfiguration.appID to the \(description.displayName) app id: "
            + "the token check's '\(appPointer)' proves a token is this app's only against it.",
          provider: id)
      }
      guard checked.appID == expected else {
        throw AuthError(
          .invalidToken,
          "The access token was issued to \(description.displayName) app "
            + "'\(ErrorText.excerpt(checked.appID ?? "unknown", limit: 40))', not '\(expected)'.",
          provider: id)
      }
      audience = .proven(audience: expected)
    } else {
      audience = .unprovable(
        reason:
          "\(description.displayName)'s answer does not say which app the access token was "
          + "issued to.")
    }
    let rules = description.identity
    let identity: Identity
    if check.endpoint == rules.endpoint {
      identity = try DescribedAnswers.identity(
        from: answer, rules: rules, provider: id,
        source: "The \(description.displayName) profile")
    } else {
      identity = try await fetchIdentity(
        for: Credential(accessToken: token, issuedAt: clock.wallTime))
      guard identity.subject == checked.subject else {
        throw AuthError(
          .invalidToken,
          "The \(description.displayName) profile names another user than the token check.",
          provider: id)
      }
    }
    return VerifiedIdentity(identity: identity, expiresAt: expiresAt, audience: audience)
  }
}
