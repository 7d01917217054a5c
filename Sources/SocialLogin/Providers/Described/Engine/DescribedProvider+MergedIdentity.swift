import Foundation

extension DescribedProvider {
  /// The identity read from the ID token's claims completed by the profile's (the profile's
  /// value wins), for ``IdentityRules/IDTokenClaimsUse/mergeWithProfile``: OpenID Connect's userinfo
  /// completes an ID token, and either may carry a claim (Google's `hd`). The subjects were
  /// compared before.
  static func mergedIdentity(
    _ tokenClaims: DescribedJSON, profile: DescribedJSON, rules: IdentityRules,
    provider: ProviderID, source: String
  ) throws(AuthError) -> Identity {
    guard let token = tokenClaims.objectValue, let answer = profile.objectValue else {
      return try DescribedAnswers.identity(
        from: profile, rules: rules, provider: provider, source: source)
    }
    return try DescribedAnswers.identity(
      from: .object(token.merging(answer) { _, fromProfile in fromProfile }), rules: rules,
      provider: provider, source: source)
  }
}
