import Foundation

/// Which kind of token is being revoked (RFC 7009 §2.1 `token_type_hint`); a hint only.
///
/// ```swift
/// try await client.revoke(refreshToken, hint: .refreshToken)
/// ```
public struct TokenTypeHint: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
  /// The hint as sent.
  public let rawValue: String
  /// Creates a hint.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Creates a hint from a literal.
  public init(stringLiteral value: String) { rawValue = value }

  /// `access_token`.
  public static let accessToken: TokenTypeHint = "access_token"
  /// `refresh_token`.
  public static let refreshToken: TokenTypeHint = "refresh_token"
}

extension OAuth2Client {
  /// Revokes a token at the RFC 7009 revocation endpoint.
  ///
  /// Sends `token` and `token_type_hint` with client authentication. Any 2xx answer is success,
  /// including the 200 a server gives for tokens it does not know (RFC 7009 §2.2).
  ///
  /// ```swift
  /// if let refreshToken = credential.refreshToken {
  ///   try await client.revoke(refreshToken, hint: .refreshToken)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - token: The access or refresh token.
  ///   - hint: The token's type, if known.
  ///   - additionalFields: Provider-specific form fields.
  /// - Throws: ``AuthError/Code/unsupported`` without a revocation endpoint;
  ///   ``AuthError/Code/unsupportedTokenType`` for `unsupported_token_type`;
  ///   ``AuthError/Code/serverUnavailable`` (transient, with ``AuthError/retryAfter``) for 503,
  ///   other 5xx and 429; otherwise as ``requestToken(grantType:fields:requestedScopes:)``.
  public func revoke(
    _ token: Secret, hint: TokenTypeHint? = nil, additionalFields: [(String, String)] = []
  ) async throws {
    guard let endpoint = configuration.revocationEndpoint else {
      throw AuthError(
        .unsupported, "This provider has no token revocation endpoint configured.",
        provider: provider)
    }
    let operation = "The revocation request"
    var fields = [("token", token.revealed)]
    if let hint { fields.append(("token_type_hint", hint.rawValue)) }
    fields += additionalFields
    try await maskingSecrets(of: fields) {
      let response = try await post(to: endpoint, fields: fields, operation: operation)
      guard !response.isSuccess else { return }
      var error = response.oauth2Failure(operation, provider: provider, now: clock.wallTime)
      if error.oauth?.error == "unsupported_token_type" {
        error.code = .unsupportedTokenType
        error.message =
          "The revocation endpoint does not revoke "
          + (hint.map { "tokens of type '\($0.rawValue)'" } ?? "this type of token") + "."
      }
      throw error
    }
  }
}
