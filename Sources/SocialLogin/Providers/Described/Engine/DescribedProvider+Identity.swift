import Foundation

extension DescribedProvider {
  /// The identity: from the profile endpoint (with the access token as a bearer token) when
  /// the description has one, else from the stored ID token's claims. When both an ID token
  /// and a profile are present their subjects must match. The email comes from the
  /// description's email list when it has one (the primary address, verified when the
  /// provider says so).
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    let rules = description.identity
    var tokenClaims: DescribedJSON?
    if let idToken = credential.idToken, description.idToken != nil {
      tokenClaims = try storedIDTokenClaims(idToken.revealed)
    }
    var identity: Identity
    if let name = rules.endpoint {
      let profile = try await getJSON(
        try endpoint(name), accessToken: credential.accessToken,
        operation: "The \(description.displayName) profile request")
      identity = try DescribedAnswers.identity(
        from: profile, rules: rules, provider: id,
        source: "The \(description.displayName) profile")
      if rules.idTokenClaims == .completeProfile, let tokenClaims {
        identity = DescribedAnswers.completing(identity, profile: profile, claims: tokenClaims)
      }
      if let tokenSubject = tokenClaims?["sub"]?.identifierText, tokenSubject != identity.subject {
        throw AuthError(
          .invalidResponse,
          "The \(description.displayName) profile names another user than the ID token.",
          provider: id)
      }
      if rules.idTokenClaims == .mergeWithProfile, let tokenClaims {
        identity = try Self.mergedIdentity(
          tokenClaims, profile: profile, rules: rules, provider: id,
          source: "The \(description.displayName) ID token and profile")
      }
    } else if let tokenClaims {
      identity = try DescribedAnswers.identity(
        from: tokenClaims, rules: rules, provider: id,
        source: "The \(description.displayName) ID token")
    } else {
      throw AuthError(
        .invalidResponse,
        "The \(description.displayName) credential has no ID token and the description no "
          + "profile endpoint: nothing names the user.",
        provider: id)
    }
    if let list = rules.emails {
      let answer = try await getJSON(
        try endpoint(list.endpoint), accessToken: credential.accessToken,
        operation: "The \(description.displayName) email request")
      if let primary = DescribedAnswers.primaryEmail(in: answer, rules: list) {
        identity.email = primary.address
        identity.emailVerified = primary.verified
      }
    }
    return identity
  }
}
