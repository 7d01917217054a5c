import Foundation

extension XProvider {
  /// OAuth 2.0 confidential clients: asks X's token endpoint for an app-only token
  /// (`grant_type=client_credentials`, HTTP Basic with the client id and secret) and throws
  /// the token away.
  ///
  /// ```swift
  /// let check = try await x.validateConfiguration()  // .ok for a confidential client
  /// ```
  ///
  /// - Returns: ``ConfigurationCheck/ok``; ``ConfigurationCheck/notCheckable(reason:)`` for a
  ///   public client (it has no secret, and X checks its client id only during a login), for
  ///   OAuth 1.0a, or when X does not offer the grant to this client
  ///   (`unsupported_grant_type`).
  /// - Throws: ``AuthError/Code/configuration`` naming ``Configuration/clientID`` and
  ///   ``Configuration/clientSecret`` when X rejects them; transient errors when X could not
  ///   be asked.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    guard case .oauth2(let client, let configuration, _) = engine else {
      return .notCheckable(
        reason: "X's OAuth 1.0a consumer key and secret are checked only when a login asks "
          + "for a request token.")
    }
    guard configuration.isConfidential else {
      return .notCheckable(
        reason: "The X client is public (no client secret): X checks its client id only "
          + "during a login.")
    }
    do {
      _ = try await client.requestToken(grantType: "client_credentials", fields: [])
      return .ok
    } catch let error as AuthError where !error.isTransient {
      switch error.oauth?.error {
      case "invalid_client", "unauthorized_client":
        throw Self.clientCredentialsError(error)
      case "unsupported_grant_type":
        return .notCheckable(
          reason: "X does not offer the client credentials grant to this client, so its "
            + "secret cannot be checked without a login.")
      default:
        throw error
      }
    }
  }
}
