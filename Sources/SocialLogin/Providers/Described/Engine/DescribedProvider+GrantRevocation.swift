import Foundation

extension DescribedProvider {
  /// The OAuth client with the description's `revoke` endpoint as its RFC 7009 endpoint.
  func revocationClient() throws(AuthError) -> OAuth2Client {
    var settings = try oauth.get().configuration
    settings.revocationEndpoint = try endpoint("revoke")
    return OAuth2Client(provider: id, configuration: settings, transport: transport, clock: clock)
  }

  /// RFC 7009 revocation as the description's ``ProviderDescription/revocationRules`` say:
  /// one call with the refresh token (else the access token) when one call ends the grant,
  /// both tokens otherwise; an error code the rules list as "already revoked" counts as done.
  func revokeByRules(_ credential: Credential) async throws {
    let rules = description.revocationRules ?? RevocationRules()
    let client = try revocationClient()
    do {
      if let refreshToken = credential.refreshToken {
        try await client.revoke(refreshToken, hint: .refreshToken)
        if rules.oneCallEndsGrant { return }
      }
      try await client.revoke(credential.accessToken, hint: .accessToken)
    } catch let error as AuthError
      where error.oauth.map({ rules.alreadyRevoked.contains($0.error) }) == true
    {
      return
    }
  }
}
