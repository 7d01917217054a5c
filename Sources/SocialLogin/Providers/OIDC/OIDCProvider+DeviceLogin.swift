import Foundation

extension OIDCProvider: DeviceLoginProvider {
  /// Asks the discovered `device_authorization_endpoint` for a device code (RFC 8628 §3.1).
  ///
  /// - Throws: ``AuthError/Code/unsupported`` naming the issuer when discovery lists no
  ///   device authorization endpoint; otherwise as
  ///   ``OAuth2Client/requestDeviceAuthorization(scopes:additionalFields:)``.
  public func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization {
    let discovered = try await current()
    guard discovered.metadata.deviceAuthorizationEndpoint != nil else {
      throw AuthError(
        .unsupported,
        "The issuer \(configuration.issuer.absoluteString) offers no device login (its "
          + "discovery document has no device_authorization_endpoint).",
        provider: id)
    }
    return try await discovered.oauth.requestDeviceAuthorization(scopes: scopes)
  }

  /// Polls the token endpoint once; on approval verifies the ID token (signature, issuer,
  /// audience, expiry, `at_hash`; a device login has no nonce) before the credential is
  /// returned.
  public func pollDeviceLogin(_ authorization: DeviceAuthorization) async throws
    -> DevicePollResult<Credential>
  {
    let discovered = try await current()
    switch try await discovered.oauth.pollDeviceTokenOnce(authorization) {
    case .pending:
      return .pending
    case .slowDown(let interval):
      return .slowDown(interval: interval)
    case .approved(let response):
      if authorization.scopes.contains("openid") || response.credential.idToken != nil {
        guard let idToken = response.credential.idToken else {
          throw AuthError(
            .invalidResponse,
            "The token response has no id_token although openid was requested.", provider: id)
        }
        _ = try await discovered.validator.validate(
          idToken.revealed, nonce: nil, accessToken: response.credential.accessToken.revealed)
      }
      return .approved(response.credential)
    }
  }
}
