import Foundation

extension DescribedProvider {
  /// Verifies an ID token with the description's rules: its signature (JWKS or the client
  /// secret), algorithms, issuer templates, the client id and
  /// ``DescribedProviderConfiguration/audiences``, the nonce, `at_hash` and
  /// ``IDTokenRules/maximumAge``; then the configuration's
  /// ``DescribedProviderConfiguration/requiredClaims``.
  func validateIDToken(
    _ token: String, nonce: String?, accessToken: String?, refusingUnexpectedNonce: Bool = false,
    maxAge: TimeInterval? = nil
  ) async throws -> VerifiedJWT {
    let verified = try await validator(for: token).validate(
      token, nonce: nonce, maxAge: maxAge, accessToken: accessToken,
      refusingUnexpectedNonce: refusingUnexpectedNonce)
    try checkRequiredClaims(verified.claims)
    return verified
  }

  /// The claims of an ID token verified when it was stored, read again without its
  /// signature (the provider may have rotated the key since): its issuer, audience and
  /// subject are checked, and its payload is read with numbers kept exact.
  func storedIDTokenClaims(_ token: String) throws(AuthError) -> DescribedJSON {
    _ = try validator(for: token).storedClaims(token)
    guard let jws = try? CompactJWS(parsing: token),
      let claims = DescribedJSON(parsing: jws.payload), case .object = claims
    else {
      throw AuthError(.invalidToken, "The stored ID token cannot be read.", provider: id)
    }
    return claims
  }

  /// A validator for `token`: the issuer templates with the settings substituted, and
  /// `{tenantid}` with the token's own tenant claim (``IDTokenRules/tenantClaim``), which
  /// must equal every setting that is not a multi-tenant value.
  func validator(for token: String) throws(AuthError) -> IDTokenValidator {
    guard let rules = description.idToken else {
      throw AuthError(
        .unsupported, "\(description.displayName) issues no ID tokens.", provider: id)
    }
    let algorithms = Set(rules.algorithms.compactMap(JWSAlgorithm.init(rawValue:)))
    guard !algorithms.isEmpty, !rules.issuers.isEmpty else {
      throw AuthError(
        .configuration,
        "The \(description.displayName) description names no known ID-token algorithm or no "
          + "issuer.",
        provider: id)
    }
    let issuers = try issuers(for: token, rules: rules)
    var settings = IDTokenValidator.Configuration(
      issuer: issuers[0], clientID: configuration.clientID, allowedAlgorithms: algorithms,
      leeway: configuration.leeway, maximumTokenAge: rules.maximumAge.map(TimeInterval.init),
      provider: id)
    settings.alternativeIssuers = Set(issuers.dropFirst())
    settings.alternativeAudiences = Set(configuration.audiences)
    let resolver: any JWTKeyResolver
    switch rules.verification {
    case .jwks, .keyIDSelects:
      guard let keys else {
        throw AuthError(
          .configuration,
          "The \(description.displayName) description verifies ID tokens with a JWKS but its "
            + "keys endpoint '\(rules.keysEndpoint ?? "")' is missing or does not form.",
          provider: id)
      }
      resolver = rules.verification == .jwks ? keys : keyIDSelectedResolver(keys: keys)
    case .clientSecretHS256:
      guard let secret = configuration.clientSecret else {
        throw AuthError(
          .configuration,
          "\(description.displayName) ID tokens are signed with the client secret "
            + "(clientSecret), and none is configured.",
          provider: id)
      }
      resolver = HMACSecretResolver(secret: secret, algorithm: .hs256)
    }
    return IDTokenValidator(configuration: settings, keys: resolver, clock: clock)
  }

  /// The issuers accepted for `token`, templates substituted.
  private func issuers(for token: String, rules: IDTokenRules) throws(AuthError) -> [String] {
    var tenantID: String?
    if rules.issuers.contains(where: { $0.contains("{tenantid}") }) {
      tenantID = try self.tenantID(of: token, rules: rules)
    }
    return rules.issuers.map { template in
      var issuer = template
      for (name, value) in configuration.parameters {
        issuer = issuer.replacingOccurrences(of: "{\(name)}", with: value)
      }
      if let tenantID { issuer = issuer.replacingOccurrences(of: "{tenantid}", with: tenantID) }
      return issuer
    }
  }

  /// The token's tenant claim, read before verification only to choose the issuer it must
  /// carry (the signature check that follows covers it). A setting that is not one of
  /// ``IDTokenRules/multiTenantValues`` is a tenant id, and the claim must equal it.
  private func tenantID(of token: String, rules: IDTokenRules) throws(AuthError) -> String {
    let claims = (try? CompactJWS(parsing: token)).flatMap { DescribedJSON(parsing: $0.payload) }
    guard let name = rules.tenantClaim, let tenant = claims?[name]?.stringValue,
      DescribedProviderConfiguration.isPathSafe(tenant)
    else {
      throw AuthError(
        .invalidToken,
        "The \(description.displayName) ID token has no usable '\(rules.tenantClaim ?? "tid")' "
          + "claim, so its issuer cannot be checked.",
        provider: id)
    }
    for (setting, value) in configuration.parameters
    where !rules.multiTenantValues.contains(value) && value != tenant {
      throw AuthError(
        .invalidToken,
        "The \(description.displayName) ID token is from tenant '\(tenant)', not the "
          + "configured '\(setting)' '\(value)'.",
        provider: id)
    }
    return tenant
  }
}
