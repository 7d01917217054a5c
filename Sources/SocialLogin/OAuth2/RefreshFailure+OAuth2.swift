import Foundation

extension RefreshFailure {
  /// Classifies a failed ``OAuth2Client/refresh(_:scopes:additionalFields:)`` the RFC 6749
  /// way, with a hook for the provider's own documented answer to a dead refresh token.
  ///
  /// In order:
  /// 1. An outage (network, timeout, 5xx, 429, OAuth `temporarily_unavailable`) stays
  ///    `.transient`, whatever the provider's rule says.
  /// 2. `isRefreshTokenInvalid(error)` → `.refreshTokenInvalid(.refreshTokenExpired)`: the
  ///    provider's rule, for example ``xRefreshTokenRejected(_:)`` or an
  ///    ``RefreshTokenRejection`` of an ``OIDCProvider``.
  /// 3. Otherwise ``rfc6749(_:)``: only an OAuth error body signs out (`invalid_grant` →
  ///    `.refreshTokenInvalid`, other OAuth errors → `.terminal`); HTML pages, empty or
  ///    truncated bodies and other answers that are not the provider's verdict stay
  ///    `.transient`.
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
    if !authError.isOutage, isRefreshTokenInvalid(authError) {
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

/// An answer of a provider's token endpoint that, for that provider only, means the refresh
/// token is dead although it is not an OAuth `invalid_grant`.
///
/// The shared classifier (``RefreshFailure/rfc6749(_:)``) never signs a user out on such an
/// answer, because from an unknown server an empty 400 or an HTML page says nothing about the
/// token. Configure the rule on the provider whose documented behaviour it is:
///
/// ```swift
/// // Glewlwyd answers a spent or reused refresh token with HTTP 400 and an empty body.
/// let glewlwyd = OIDCProvider(
///   id: "glewlwyd",
///   configuration: .init(
///     issuer: issuer, clientID: "cli", refreshTokenRejections: [.emptyBadRequest]))
/// ```
public struct RefreshTokenRejection: Sendable {
  /// Whether `error` (a failed refresh) is this rule's answer.
  public let matches: @Sendable (AuthError) -> Bool

  /// A rule given by a predicate on the failed refresh's error (its ``AuthError/httpStatus``,
  /// ``AuthError/oauth``, ``AuthError/providerCode``, ``AuthError/responseBodySize``).
  public init(_ matches: @escaping @Sendable (AuthError) -> Bool) {
    self.matches = matches
  }

  /// HTTP 400 with an empty body and no OAuth error: Glewlwyd's answer to a spent, reused
  /// or revoked refresh token.
  public static let emptyBadRequest = RefreshTokenRejection { error in
    error.httpStatus == 400 && error.oauth == nil && error.responseBodySize == 0
  }

  /// X's HTTP 400 `invalid_request` "Value passed for the token was invalid."; see
  /// ``RefreshFailure/xRefreshTokenRejected(_:)``.
  public static let xInvalidToken = RefreshTokenRejection {
    RefreshFailure.xRefreshTokenRejected($0)
  }
}
