import Foundation

/// Marks an ``AuthError`` as a ``ClaimRequirement`` refusal: the token is valid but names an
/// account the configuration does not admit, which a refresh reports as
/// ``RefreshOutcome/Problem/identityMismatch(_:)``.
struct RequiredClaimMismatch: Error, Sendable {
  /// The claim.
  let claim: String
}

extension DescribedProvider {
  /// Checks the configuration's ``DescribedProviderConfiguration/requiredClaims`` on the
  /// claims of an ID token that verified: each claim must be a string equal (letter case
  /// ignored) to one of its allowed values.
  ///
  /// - Throws: The rule's ``ClaimRequirement/errorCode``, with ``RequiredClaimMismatch`` as
  ///   the underlying error.
  func checkRequiredClaims(_ claims: JSONValue) throws(AuthError) {
    for rule in configuration.requiredClaims {
      let allowed = rule.allowedValues.map { $0.lowercased() }
      let listed = rule.allowedValues.map { ErrorText.excerpt($0, limit: 253) }
        .joined(separator: ", ")
      guard let value = claims[rule.claim]?.stringValue, !value.isEmpty else {
        throw AuthError(
          rule.errorCode,
          "The \(description.displayName) ID token has no '\(rule.claim)'; this service admits "
            + "'\(rule.claim)' \(listed) only.",
          provider: id, underlying: RequiredClaimMismatch(claim: rule.claim))
      }
      guard allowed.contains(value.lowercased()) else {
        throw AuthError(
          rule.errorCode,
          "The \(description.displayName) ID token's '\(rule.claim)' is "
            + "'\(ErrorText.excerpt(value, limit: 253))'; this service admits \(listed) only.",
          provider: id, underlying: RequiredClaimMismatch(claim: rule.claim))
      }
    }
  }
}

extension AuthError {
  /// Whether the error refused a token for a ``ClaimRequirement``.
  var isRequiredClaimMismatch: Bool { underlying is RequiredClaimMismatch }
}
