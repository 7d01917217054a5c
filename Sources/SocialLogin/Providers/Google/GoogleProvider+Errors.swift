import Foundation

extension AuthError.Code {
  /// A Google account outside ``GoogleConfiguration/hostedDomains``: its ID token names
  /// another Workspace domain in `hd`, or none (a consumer account). The user is refused,
  /// not the token: sign in with an account of the allowed domain.
  public static let hostedDomainMismatch = AuthError.Code(rawValue: "hosted_domain_mismatch")
}

extension GoogleProvider {
  /// Google's refresh answers: `invalid_grant` (the user revoked access, the token expired
  /// after six months unused, the password changed, or the grant was replaced) signs out with
  /// ``SignOutReason/refreshTokenRevoked``. Everything else keeps the session, degraded:
  /// `invalid_client` and `unauthorized_client` (the app's settings, not the user's token),
  /// 5xx, 429, network failures, and answers that are not an OAuth error (HTML, empty,
  /// truncated bodies).
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    switch RefreshFailure.rfc6749(error) {
    case .refreshTokenInvalid(.refreshTokenExpired) where (error as? AuthError)?.oauth != nil:
      return .refreshTokenInvalid(.refreshTokenRevoked)
    case .terminal(.providerRejected):
      return .transient(retryAfter: (error as? AuthError)?.retryAfter)
    case let verdict:
      return verdict
    }
  }
}
