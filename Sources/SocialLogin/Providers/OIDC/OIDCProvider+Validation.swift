import Foundation

extension OIDCProvider {
  /// Refuses an empty client id: every flow of the provider needs one (it is the ID tokens'
  /// audience), and without it every user's ID token would fail its audience check.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming ``Configuration/clientID``.
  nonisolated func requireClientID() throws(AuthError) {
    guard configuration.clientID.isEmpty else { return }
    throw AuthError(
      .configuration,
      "The OpenID Connect client id (OIDCProvider.Configuration.clientID) is empty; set the "
        + "client id the provider issued to this app.",
      provider: id)
  }

  /// Checks what can be checked without a user: the client id is set, and the issuer's
  /// discovery document (or the configured metadata) is usable. The client secret is checked
  /// only by a token request, which needs a login.
  ///
  /// ```swift
  /// let check = try await corp.validateConfiguration()  // .notCheckable(reason: ...)
  /// ```
  ///
  /// - Returns: ``ConfigurationCheck/notCheckable(reason:)`` once discovery succeeded.
  /// - Throws: ``AuthError/Code/configuration`` for an empty client id; discovery's errors.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    _ = try await current()
    return .notCheckable(
      reason: "OpenID Connect defines no way to check a client's secret without a login; the "
        + "client id is set and the issuer's discovery document was read.")
  }
}
