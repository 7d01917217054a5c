import Foundation

/// How the SDK reads Apple's answers (`400 {"error": …}`, documented codes only).
///
/// | Apple answer | ``AuthError`` | session |
/// |---|---|---|
/// | `invalid_grant` on refresh: the refresh token was revoked (Apple's refresh tokens do not expire by time) | ``AuthError/Code/providerError`` | signed out: ``SignOutReason/refreshTokenRevoked`` (after re-reading the store) |
/// | `invalid_grant` on a code exchange: the code expired (five minutes), was used, or was revoked | ``AuthError/Code/providerError`` | no session is made |
/// | `invalid_client`: client id unknown, client secret expired, malformed or badly signed, redirect mismatch | ``AuthError/Code/configuration`` naming the settings | degraded, never signed out: the app's settings are wrong, not the user's token |
/// | `invalid_request`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope` | ``AuthError/Code/configuration`` | degraded, never signed out: the request, not the user |
/// | 5xx, 429 (with `Retry-After`), network failures, resets | transient | degraded, retried |
/// | HTML, empty, truncated or unknown bodies | ``AuthError/Code/invalidResponse`` | degraded (not an answer) |
enum AppleAPIError {
  /// The codes that say the service's request or settings are wrong, never the user's grant.
  static let applicationErrors: Set<String> = [
    "invalid_client", "invalid_request", "unauthorized_client", "unsupported_grant_type",
    "invalid_scope",
  ]

  /// `error` with Apple's application errors turned into ``AuthError/Code/configuration``
  /// naming what to check; others as they are.
  static func blamingConfiguration(_ error: AuthError) -> AuthError {
    guard !error.isOutage, let code = error.oauth?.error, applicationErrors.contains(code) else {
      return error
    }
    var blamed = error
    blamed.code = .configuration
    blamed.signOutReason = nil
    if code == "invalid_client" {
      blamed.message +=
        " Apple does not accept the client id with the client secret: check the client id "
        + "(AppleConfiguration.clientIDs), the team id, the key id and the .p8 key it "
        + "belongs to, the redirect URI registered for the Services ID, and the clock. This "
        + "is not a problem with a user's token."
    } else {
      blamed.message += " The request does not fit the app's Sign in with Apple settings."
    }
    return blamed
  }

  /// See the table above: only `invalid_grant` signs out.
  static func classify(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      if let classified = RefreshFailure.alreadyClassified(
        error, invalidReason: .refreshTokenRevoked)
      {
        return classified
      }
      if error.oauth?.error == "invalid_grant" {
        return .refreshTokenInvalid(.refreshTokenRevoked)
      }
      // invalid_client and the other application errors, unverifiable ID tokens, anything
      // else: not a verdict on the user's grant.
      return .transient(retryAfter: error.retryAfter)
    }
  }
}

extension AppleProvider {
  /// Apple's rules (`AppleAPIError`): `invalid_grant` means the refresh token was revoked;
  /// `invalid_client` and every other answer degrade and keep the session.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    AppleAPIError.classify(error)
  }
}
