import Foundation

/// How the SDK reads LINE's two error shapes.
///
/// | LINE answer | ``AuthError`` | session |
/// |---|---|---|
/// | `{error:"invalid_grant"}` (any case) from the token endpoint | ``AuthError/Code/providerError`` | signed out: ``SignOutReason/refreshTokenExpired`` (after re-reading the store) |
/// | `{error:"invalid_client"}`: the channel id or secret is wrong | ``AuthError/Code/configuration`` naming ``LINEConfiguration/channelID`` and ``LINEConfiguration/channelSecret`` | degraded, never signed out: the app's settings are wrong, not the user's token |
/// | another `{error, error_description}` (`INVALID_REQUEST`, ...) | ``AuthError/Code/providerError`` | signed out: ``SignOutReason/providerRejected(code:)`` |
/// | 401, or `{error:"invalid_request"}` from verify (expired/revoked access token) | ``AuthError/Code/invalidToken`` | the access token is dead: ``SignOutReason/accessRevoked`` |
/// | `{message}` with another 4xx | ``AuthError/Code/providerError`` | signed out: ``SignOutReason/providerRejected(code:)`` `http_<status>` |
/// | 5xx, 429 (with `Retry-After`), `server_error`, `temporarily_unavailable` | ``AuthError/Code/serverUnavailable`` (transient) | degraded, retried |
/// | HTML, empty, truncated or unknown bodies | ``AuthError/Code/invalidResponse`` | degraded (not an answer) |
enum LINEAPIError {
  /// The error for a LINE response that did not succeed.
  static func failure(
    _ response: TransportResponse, operation: String, now: Date,
    unauthorizedIsInvalidToken: Bool = true
  ) -> AuthError {
    var error = response.oauth2Failure(operation, provider: .line, now: now)
    if error.isOutage { return error }
    if error.oauth?.error.lowercased() == "invalid_client" { return blamingCredentials(error) }
    let object = response.jsonObject
    if error.oauth == nil, let message = object?["message"]?.stringValue {
      error.code = .providerError
      error.providerCode = "http_\(response.status)"
      error.message =
        "\(operation) was rejected (HTTP \(response.status)): "
        + ErrorText.excerpt(message)
    }
    if unauthorizedIsInvalidToken, response.status == 401,
      error.oauth != nil || object?["message"] != nil
    {
      error.code = .invalidToken
      error.signOutReason = .accessRevoked
    }
    return error
  }

  /// An `invalid_client` answer as ``AuthError/Code/configuration`` naming the channel id and
  /// secret (LINE rejected the app's credentials, not the user's token); other errors as
  /// they are.
  static func blamingCredentials(_ error: AuthError) -> AuthError {
    guard !error.isOutage, error.oauth?.error.lowercased() == "invalid_client" else {
      return error
    }
    var blamed = error
    blamed.code = .configuration
    blamed.signOutReason = nil
    blamed.message +=
      " LINE does not accept the channel id (LINEConfiguration.channelID) with the channel "
      + "secret (LINEConfiguration.channelSecret): copy both from the channel's Basic settings "
      + "in the LINE Developers Console. This is not a problem with a user's token."
    return blamed
  }

  /// See the table above.
  static func classify(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      switch error.code {
      case .invalidToken:
        return .refreshTokenInvalid(error.signOutReason ?? .accessRevoked)
      case .refreshTokenInvalid:
        return .refreshTokenInvalid(error.signOutReason ?? .refreshTokenExpired)
      case .signedOut:
        return .terminal(error.signOutReason ?? .refreshTokenRevoked)
      case .providerError:
        if let oauth = error.oauth {
          let code = oauth.error.lowercased()
          if code == "invalid_grant" { return .refreshTokenInvalid(.refreshTokenExpired) }
          if code == "invalid_client" { return .transient(retryAfter: error.retryAfter) }
          return .terminal(.providerRejected(code: oauth.error))
        }
        return .terminal(.providerRejected(code: error.providerCode ?? error.code.rawValue))
      default:
        return .transient(retryAfter: error.retryAfter)
      }
    }
  }
}

extension LINEProvider {
  /// LINE's rules (`LINEAPIError`): `invalid_grant` means the refresh token is dead; other
  /// OAuth errors end the session with their code; 5xx, 429, network failures and bodies that
  /// are not an answer (HTML, empty, truncated) degrade.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    LINEAPIError.classify(error)
  }

  /// The same classification for a failed identity or verify call.
  public nonisolated func classifyFailure(_ error: any Error) -> RefreshFailure {
    LINEAPIError.classify(error)
  }
}
