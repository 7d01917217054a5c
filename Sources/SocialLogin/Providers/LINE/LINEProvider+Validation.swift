import Foundation

extension LINEProvider {
  /// Asks LINE for a stateless channel access token (`POST /oauth2/v3/token`,
  /// `grant_type=client_credentials` with the channel id and secret) and throws the token
  /// away: LINE issues one only for the right pair.
  ///
  /// ```swift
  /// let check = try await line.validateConfiguration()  // .ok
  /// ```
  ///
  /// - Returns: ``ConfigurationCheck/ok``, or ``ConfigurationCheck/notCheckable(reason:)``
  ///   without a channel secret (a backend that only verifies access tokens and ES256 ID
  ///   tokens) or when LINE refuses the request for another reason than the credentials.
  /// - Throws: ``AuthError/Code/configuration`` naming ``LINEConfiguration/channelID`` and
  ///   ``LINEConfiguration/channelSecret`` when LINE rejects them (`invalid_client`);
  ///   transient errors when LINE could not be asked.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    guard let secret = configuration.channelSecret, !secret.isEmpty else {
      return .notCheckable(
        reason: "No LINE channel secret is configured (verifying access tokens and ES256 ID "
          + "tokens needs the channel id alone), so there are no credentials to check.")
    }
    let operation = "The LINE configuration check (channel access token)"
    do {
      let (response, now) = try await engine.get().postForm(
        to: configuration.channelTokenEndpoint, fields: [("grant_type", "client_credentials")],
        operation: operation)
      guard response.isSuccess else {
        // `invalid_client` becomes a configuration error naming both settings.
        let error = Self.namingSettings(
          DescribedAnswers.failure(
            response, object: DescribedAnswers.object(of: response),
            description: .line, operation: operation, now: now))
        if error.code == .configuration || error.isTransient { throw error }
        // Any other refusal (a channel type LINE issues no such token to, another grant
        // policy) says nothing against the secret.
        return .notCheckable(
          reason: "LINE issued no channel access token for this channel ("
            + ErrorText.excerpt(
              error.oauth?.error ?? error.providerCode ?? "HTTP \(response.status)", limit: 40)
            + "), so "
            + "its secret could not be checked without a login.")
      }
      return .ok
    } catch let error as AuthError {
      throw error.masking([secret.revealed])
    }
  }
}
