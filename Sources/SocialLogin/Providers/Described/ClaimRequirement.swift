/// A claim every ID token a described provider accepts must carry, with one of the allowed
/// values: Google's `hd` for ``GoogleConfiguration/hostedDomains``.
///
/// The rule is checked on every ID token the engine verifies (a login's, a refresh's, a
/// device login's and one an app sends), because a request parameter that asks the provider
/// for such accounts (Google's `hd` hint) only preselects them: anyone can remove it from
/// the URL.
///
/// ```swift
/// var configuration = try DescribedProviderConfiguration(.google, clientID: id)
/// configuration.requiredClaims = [
///   ClaimRequirement(claim: "hd", allowedValues: ["example.com"], errorCode: .hostedDomainMismatch)
/// ]
/// ```
public struct ClaimRequirement: Hashable, Sendable {
  /// The claim's name (`hd`).
  public var claim: String
  /// The values accepted, compared without letter case; an empty list accepts none.
  public var allowedValues: [String]
  /// The code of the error a token without the claim, or with another value, is refused with.
  public var errorCode: AuthError.Code

  /// Creates the rule.
  ///
  /// - Parameters:
  ///   - claim: The claim's name.
  ///   - allowedValues: The accepted values (letter case ignored).
  ///   - errorCode: What a refusal is thrown as; ``AuthError/Code/invalidToken`` by default.
  public init(claim: String, allowedValues: [String], errorCode: AuthError.Code = .invalidToken) {
    self.claim = claim
    self.allowedValues = allowedValues
    self.errorCode = errorCode
  }
}
