/// How a described provider's RFC 7009 revocation (``RevocationStyle/rfc7009``) differs from
/// the default of revoking the refresh token and then the access token.
///
/// ```swift
/// google.revocationRules = RevocationRules(oneCallEndsGrant: true, alreadyRevoked: ["invalid_token"])
/// ```
public struct RevocationRules: Hashable, Sendable, Codable {
  /// Whether one call ends the whole grant (Google): the refresh token when the credential
  /// has one, else the access token, and nothing more.
  public var oneCallEndsGrant: Bool
  /// Error codes that say the token is already expired or revoked (Google's `400
  /// invalid_token`): the grant is gone, which is what was asked, so they count as done.
  public var alreadyRevoked: [String]

  /// Creates the rules; by default both tokens are revoked and every error is thrown.
  public init(oneCallEndsGrant: Bool = false, alreadyRevoked: [String] = []) {
    self.oneCallEndsGrant = oneCallEndsGrant
    self.alreadyRevoked = alreadyRevoked
  }
}
