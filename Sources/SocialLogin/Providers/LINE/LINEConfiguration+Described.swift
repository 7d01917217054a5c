import Foundation

extension LINEConfiguration {
  /// The engine's configuration: ``ProviderDescription/line`` with the channel, the scopes,
  /// every endpoint as this configuration resolves it (overrides and the emulator already
  /// applied, so the engine reads no environment), and the prompts and secret rules.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for a channel id or secret emptied after the
  ///   configuration was created.
  func described() throws(AuthError) -> DescribedProviderConfiguration {
    var described = try DescribedProviderConfiguration(
      .line, clientID: channelID, clientSecret: channelSecret, environment: [:])
    described.emulatorHost = nil
    let endpoints = [
      ("authorize", authorizeEndpoint), ("token", tokenEndpoint), ("verify", verifyEndpoint),
      ("profile", profileEndpoint), ("revoke", revokeEndpoint), ("jwks", jwksEndpoint),
      ("channel_token", channelTokenEndpoint),
    ]
    for (name, url) in endpoints { try described.setEndpoint(name, to: url) }
    described.scopes = scopes
    described.leeway = leeway
    described.authorizationParameters = authorizationParameters
    described.runtime = DescribedRuntimeOptions(
      exchangeFields: idTokenKeyTypeFields.map {
        AuthorizationRules.Parameter(name: $0.0, value: $0.1)
      },
      maxAge: maxAge, sendsSecretOnRefreshAndRevocation: sendsClientSecretOnRefresh,
      pendingLoginLifetime: pendingLoginLifetime, requestTimeout: requestTimeout)
    return described
  }
}
