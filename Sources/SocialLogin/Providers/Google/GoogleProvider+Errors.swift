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
  /// `invalid_client` and `unauthorized_client` (the app's settings, not the user's token,
  /// thrown as ``AuthError/Code/configuration``), 5xx, 429, network failures, and answers
  /// that are not an OAuth error (HTML, empty, truncated bodies).
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    if (error as? AuthError)?.code == .configuration {
      return .transient(retryAfter: nil)
    }
    switch RefreshFailure.rfc6749(error) {
    case .refreshTokenInvalid(.refreshTokenExpired) where (error as? AuthError)?.oauth != nil:
      return .refreshTokenInvalid(.refreshTokenRevoked)
    case .terminal(.providerRejected):
      return .transient(retryAfter: (error as? AuthError)?.retryAfter)
    case let verdict:
      return verdict
    }
  }

  /// Google's `invalid_client` (the client id is unknown or the secret wrong) and
  /// `unauthorized_client` (the client may not use this grant) as
  /// ``AuthError/Code/configuration`` naming ``GoogleConfiguration/clientID`` and
  /// ``GoogleConfiguration/clientSecret``: the app's settings are wrong, not the user's token,
  /// so a session keeps its tokens and the operator learns what to fix. Other errors pass as
  /// they are.
  static func blamingClientCredentials(_ error: AuthError) -> AuthError {
    guard !error.isOutage, let code = error.oauth?.error.lowercased(),
      code == "invalid_client" || code == "unauthorized_client"
    else { return error }
    var blamed = error
    blamed.code = .configuration
    blamed.signOutReason = nil
    blamed.message +=
      " Google does not accept the client id (GoogleConfiguration.clientID) with the client "
      + "secret (GoogleConfiguration.clientSecret): copy both from the OAuth client in the "
      + "Google Cloud console (APIs & Services > Credentials). This is not a problem with a "
      + "user's token."
    return blamed
  }
}
