import Foundation

extension FirebaseProvider {
  /// Spends the Firebase refresh token at Secure Token (`grant_type=refresh_token`) and returns
  /// the new ID token (also the access token), refresh token and expiry.
  ///
  /// Secure Token answers with snake_case names (`id_token`, `refresh_token`, `expires_in` as a
  /// string, `user_id`), unlike sign-in's camelCase ones. A response for another user than the
  /// one the old ID token names is refused.
  ///
  /// - Throws: ``AuthError``: ``AuthError/Code/refreshTokenInvalid`` for `TOKEN_EXPIRED` and
  ///   `INVALID_REFRESH_TOKEN`, ``AuthError/Code/userDisabled``, ``AuthError/Code/userNotFound``,
  ///   transient codes for quota errors, 5xx and network failures; ``AuthError/Code/invalidToken``
  ///   for tokens issued to another user.
  public func refresh(_ credential: Credential) async throws -> Credential {
    try await spendRefreshToken(credential).get()
  }

  /// ``refresh(_:)`` for sessions: tokens that Secure Token issued for another user than the
  /// session's (its `user_id` against the old ID token's) are reported as
  /// ``RefreshOutcome/Problem/identityMismatch(_:)``, so the session signs out with
  /// ``SignOutReason/identityMismatch`` instead of storing them as this user's or replaying the
  /// spent refresh token later.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    guard let refreshToken = credential.refreshToken, !refreshToken.isEmpty else {
      throw AuthError(
        .refreshTokenInvalid, "The Firebase session has no refresh token.", provider: .firebase,
        signOutReason: .refreshTokenExpired)
    }
    let operation = "Firebase token refresh"
    var request = TransportRequest.form(
      url: try configuration.secureToken(),
      fields: [("grant_type", "refresh_token"), ("refresh_token", refreshToken.revealed)])
    request.timeout = configuration.requestTimeout
    let secrets = [refreshToken.revealed]
    let (object, response) = try await send(request, operation: operation, secrets: secrets)
    let fields = FirebaseFields(object, operation: operation)
    do throws(AuthError) {
      let idToken = try fields.requiredString("id_token")
      let newRefreshToken = try fields.requiredString("refresh_token")
      let expiresIn = try fields.lifetime("expires_in")
      let issued = self.credential(
        idToken: idToken, refreshToken: newRefreshToken, expiresIn: expiresIn, response: response)
      if let userID = fields.string("user_id"),
        let previous = Self.unverifiedUserID(of: credential.idToken ?? credential.accessToken),
        Array(userID.utf8) != Array(previous.utf8)
      {
        return RefreshOutcome(
          credential: issued,
          problem: .identityMismatch(
            AuthError(
              .invalidToken, "\(operation) answered with tokens for another user.",
              provider: .firebase)))
      }
      return RefreshOutcome(credential: issued)
    } catch {
      throw error.masking(secrets)
    }
  }

  /// The `user_id` (or `sub`) of an ID token, read without verifying it: only to check that a
  /// refresh answered for the same user.
  static func unverifiedUserID(of token: Secret) -> String? {
    guard let jws = try? CompactJWS(parsing: token.revealed),
      let claims = try? JSONValue(parsing: jws.payload)
    else { return nil }
    return claims["user_id"]?.stringValue ?? claims["sub"]?.stringValue
  }
}
