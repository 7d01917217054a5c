import Foundation

extension RefreshFailure {
  /// Classifies a failed ``OAuth2Client/refresh(_:scopes:additionalFields:)`` the RFC 6749
  /// way, plus the quirks of real servers, with a hook for the provider's own rule.
  ///
  /// In order:
  /// 1. `isRefreshTokenInvalid(error)` → `.refreshTokenInvalid(.refreshTokenExpired)` (the
  ///    provider's rule, for example ``xRefreshTokenRejected(_:)``).
  /// 2. HTTP 400 with no OAuth error (an empty body: Glewlwyd's answer to a spent or reused
  ///    refresh token) → `.refreshTokenInvalid(.refreshTokenExpired)`.
  /// 3. Otherwise ``rfc6749(_:)``: transient failures (network, timeouts, 5xx, 429 with its
  ///    `Retry-After`) stay `.transient`; `invalid_grant` → `.refreshTokenInvalid`; other
  ///    OAuth errors → `.terminal`.
  ///
  /// ```swift
  /// nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
  ///   .oauth2(error, refreshTokenInvalidWhen: RefreshFailure.xRefreshTokenRejected)
  /// }
  /// ```
  public static func oauth2(
    _ error: any Error,
    refreshTokenInvalidWhen isRefreshTokenInvalid: (AuthError) -> Bool = { _ in false }
  ) -> RefreshFailure {
    guard let authError = error as? AuthError else { return rfc6749(error) }
    if !authError.isTransient, isRefreshTokenInvalid(authError) {
      return .refreshTokenInvalid(.refreshTokenExpired)
    }
    if authError.httpStatus == 400, authError.oauth == nil {
      return .refreshTokenInvalid(.refreshTokenExpired)
    }
    return rfc6749(authError)
  }

  /// X's answer to a spent, rotated-away or unknown refresh token: HTTP 400
  /// `invalid_request` with "Value passed for the token was invalid." (not `invalid_grant`).
  ///
  /// Pass it to ``oauth2(_:refreshTokenInvalidWhen:)`` from the X provider only: for other
  /// servers `invalid_request` means a malformed request.
  public static func xRefreshTokenRejected(_ error: AuthError) -> Bool {
    guard let oauth = error.oauth, oauth.error == "invalid_request",
      let description = oauth.errorDescription
    else { return false }
    return description.range(
      of: "Value passed for the token was invalid", options: .caseInsensitive) != nil
  }
}
