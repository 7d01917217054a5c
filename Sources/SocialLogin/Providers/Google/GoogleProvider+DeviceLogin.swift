import Foundation

extension GoogleProvider: DeviceLoginProvider {
  /// Asks `https://oauth2.googleapis.com/device/code` for a device code ("OAuth for TV and
  /// Limited-Input Device Applications"). Google answers `verification_url` where RFC 8628
  /// says `verification_uri`, and no complete URI; both are read.
  ///
  /// Google allows only a limited scope set on this flow (sign-in: `openid email profile`)
  /// and only for clients of the type "TVs and Limited Input devices"; it answers
  /// `invalid_scope` or `invalid_client` otherwise, thrown as ``AuthError/Code/providerError``.
  public func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization {
    try await engine.startDeviceLogin(scopes: scopes)
  }

  /// Polls once (with the client secret: Google requires it on this flow); on approval the ID
  /// token is verified and the Workspace domain checked like a browser login's. Google has
  /// been seen answering `authorization_pending` with HTTP 428: the error value decides.
  public func pollDeviceLogin(_ authorization: DeviceAuthorization) async throws
    -> DevicePollResult<Credential>
  {
    let result = try await engine.pollDeviceLogin(authorization)
    if case .approved(let credential) = result, credential.idToken == nil,
      authorization.scopes.contains("openid")
    {
      throw AuthError(
        .invalidResponse, "The token response has no id_token although openid was requested.",
        provider: id)
    }
    return result
  }
}
