import Foundation

extension FacebookProvider {
  /// Asks Facebook for an app access token (`grant_type=client_credentials` on
  /// ``FacebookConfiguration/accessTokenEndpoint``) with the app id and secret, and throws
  /// away the token: Graph answers only when both are right.
  ///
  /// ```swift
  /// let check = try await facebook.validateConfiguration()  // .ok
  /// ```
  ///
  /// - Returns: ``ConfigurationCheck/ok``, or ``ConfigurationCheck/notCheckable(reason:)``
  ///   without an app secret (a backend that only verifies Limited Login ID tokens).
  /// - Throws: ``AuthError/Code/configuration`` naming ``FacebookConfiguration/appID`` or
  ///   ``FacebookConfiguration/appSecret`` when Graph rejects them; transient errors when
  ///   Facebook could not be asked.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    guard let appSecret = configuration.appSecret, !appSecret.isEmpty else {
      return .notCheckable(
        reason: "No Facebook app secret is configured (verifying Limited Login ID tokens "
          + "needs the app id alone), so there are no credentials to check.")
    }
    let operation = "The Facebook configuration check (app access token)"
    _ = try await tokenRequest(
      [
        ("client_id", configuration.appID), ("client_secret", appSecret.revealed),
        ("grant_type", "client_credentials"),
      ], operation: operation)
    return .ok
  }
}
