import Foundation

extension OAuth2Client {
  /// Exchanges an authorization code for tokens (RFC 6749 §4.1.3, RFC 7636 §4.5).
  ///
  /// Sends `grant_type=authorization_code`, `code`, the pending login's exact `redirect_uri`
  /// and `code_verifier`, with the configured client authentication.
  ///
  /// ```swift
  /// let code = try client.validateCallback(callback, pending: pending)
  /// let tokens = try await client.exchangeCode(code, pending: pending)
  /// ```
  ///
  /// - Parameters:
  ///   - code: The code returned by ``validateCallback(_:pending:)``.
  ///   - pending: The pending login the code belongs to.
  ///   - additionalFields: Provider-specific form fields, appended in order.
  /// - Throws: ``AuthError`` (see ``requestToken(grantType:fields:requestedScopes:)``) or
  ///   `CancellationError`.
  public func exchangeCode(
    _ code: String, pending: PendingLogin, additionalFields: [(String, String)] = []
  ) async throws -> OAuth2TokenResponse {
    var fields = [("code", code), ("redirect_uri", pending.redirectURI)]
    if let verifier = pending.codeVerifier { fields.append(("code_verifier", verifier.revealed)) }
    let requested = pending.extra[PendingLogin.requestedScopeKey].map {
      OAuth2TokenResponse.scopes($0, separator: configuration.scopeSeparator)
    }
    return try await requestToken(
      grantType: "authorization_code", fields: fields + additionalFields,
      requestedScopes: requested ?? configuration.scopes)
  }

  /// Validates the callback and exchanges its code, for callers whose pending-login store has
  /// already checked and consumed `pending`.
  ///
  /// ```swift
  /// let tokens = try await client.completeAuthorization(callback, pending: pending)
  /// ```
  public func completeAuthorization(
    _ callback: AuthorizationCallback, pending: PendingLogin
  ) async throws -> OAuth2TokenResponse {
    let code = try validateCallback(callback, pending: pending)
    return try await exchangeCode(code, pending: pending)
  }

  /// Spends the credential's refresh token (RFC 6749 §6) and returns the new tokens.
  ///
  /// Client authentication is sent on refresh too (X rejects confidential clients without
  /// it). When the response has no new refresh token (LINE, most servers that do not rotate),
  /// the old one is kept; when it has no ID token (Glewlwyd, LINE), the old one is kept. When
  /// it has no `scope`, the previous scopes are assumed.
  ///
  /// ```swift
  /// let refreshed = try await client.refresh(credential)
  /// try await store.save(refreshed.credential)   // persist before use: the old token may be dead
  /// ```
  ///
  /// - Parameters:
  ///   - credential: The credential to refresh.
  ///   - scopes: A narrower `scope` to request, if any.
  ///   - additionalFields: Provider-specific form fields.
  /// - Throws: ``AuthError/Code/refreshTokenInvalid`` (reason ``SignOutReason/accessTokenExpired``)
  ///   when the credential has no refresh token; otherwise as
  ///   ``requestToken(grantType:fields:requestedScopes:)``. Classify failures with
  ///   ``RefreshFailure/oauth2(_:refreshTokenInvalidWhen:)``.
  public func refresh(
    _ credential: Credential, scopes: [String]? = nil, additionalFields: [(String, String)] = []
  ) async throws -> OAuth2TokenResponse {
    guard let refreshToken = credential.refreshToken, !refreshToken.isEmpty else {
      throw AuthError(
        .refreshTokenInvalid, "The credential has no refresh token, so it cannot be refreshed.",
        provider: provider, signOutReason: .accessTokenExpired)
    }
    var fields = [("refresh_token", refreshToken.revealed)]
    if let scopes, !scopes.isEmpty {
      fields.append(("scope", scopes.joined(separator: configuration.scopeSeparator)))
    }
    var response = try await requestToken(
      grantType: "refresh_token", fields: fields + additionalFields,
      requestedScopes: scopes ?? credential.scopes)
    if response.credential.refreshToken == nil {
      response.credential.refreshToken = refreshToken
    }
    if response.credential.idToken == nil {
      response.credential.idToken = credential.idToken
    }
    return response
  }

  /// Sends any grant to the token endpoint with client authentication and parses the result:
  /// the building block of the other token methods, and of provider-specific grants
  /// (`client_credentials`, token exchange, ...).
  ///
  /// ```swift
  /// let app = try await client.requestToken(grantType: "client_credentials", fields: [])
  /// ```
  ///
  /// - Parameters:
  ///   - grantType: The `grant_type`.
  ///   - fields: The grant's other form fields, in order.
  ///   - requestedScopes: The scopes to assume when the response has no `scope`.
  /// - Throws: `CancellationError`, or ``AuthError``:
  ///   ``AuthError/Code/serverUnavailable`` for 5xx and 429 (transient, with
  ///   ``AuthError/retryAfter``); ``AuthError/Code/providerError`` with ``AuthError/oauth`` for
  ///   an RFC 6749 §5.2 error body (whatever the status, e.g. Glewlwyd's 403 `invalid_code`);
  ///   ``AuthError/Code/invalidResponse`` for an empty, HTML, truncated or otherwise
  ///   unexpected body, or a success without `access_token`; the transport's
  ///   ``AuthError/Code/network`` and ``AuthError/Code/timedOut``; and
  ///   ``AuthError/Code/configuration`` when the client secret is missing.
  ///   Messages never contain tokens.
  public func requestToken(
    grantType: String, fields: [(String, String)], requestedScopes: [String] = []
  ) async throws -> OAuth2TokenResponse {
    let operation = "The token request (\(ErrorText.excerpt(grantType, limit: 80)))"
    let fields = [("grant_type", grantType)] + fields
    return try await maskingSecrets(of: fields) {
      let response = try await post(
        to: configuration.tokenEndpoint, fields: fields, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess else {
        throw response.oauth2Failure(operation, provider: provider, now: now)
      }
      return try OAuth2TokenResponse(
        response: response, receivedAt: now, requestedScopes: requestedScopes,
        scopeSeparator: configuration.scopeSeparator, operation: operation, provider: provider)
    }
  }
}
