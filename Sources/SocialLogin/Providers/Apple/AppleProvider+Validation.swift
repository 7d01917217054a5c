import Foundation

extension AppleProvider {
  /// Asks Apple whether it accepts the client secret of every configured client id: a token
  /// request with a code that cannot exist. Apple checks the client first, so `invalid_grant`
  /// (the code) proves the client id, team id, key id and `.p8` right, and `invalid_client`
  /// proves one of them wrong. No user's token is involved.
  ///
  /// ```swift
  /// let check = try await apple.validateConfiguration()  // .ok
  /// ```
  ///
  /// - Returns: ``ConfigurationCheck/ok``, or ``ConfigurationCheck/notCheckable(reason:)``
  ///   without a `.p8` key (a backend that only verifies identity tokens).
  /// - Throws: ``AuthError/Code/configuration`` naming the settings when Apple rejects the
  ///   client; transient errors when Apple could not be asked.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    guard configuration.privateKey != nil else {
      return .notCheckable(
        reason: "No Apple private key (.p8) is configured: this configuration only verifies "
          + "identity tokens, so there is no client secret to check.")
    }
    for clientID in configuration.clientIDs {
      do {
        _ = try await requestingToken(clientID) { client in
          try await client.requestToken(
            grantType: "authorization_code",
            fields: [("code", "sociallogin-configuration-check")])
        }
      } catch let error as AuthError where error.oauth?.error == "invalid_grant" {
        continue  // the client was accepted; the made-up code was not
      }
    }
    return .ok
  }
}
