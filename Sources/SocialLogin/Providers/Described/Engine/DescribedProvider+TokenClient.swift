extension DescribedProvider {
  /// The OAuth client that authenticates a form sent to the provider: the configured one,
  /// or, when ``DescribedRuntimeOptions/sendsSecretOnRefreshAndRevocation`` is off, one that
  /// sends `client_id` alone for a refresh (`grant_type=refresh_token`) or a revocation (a
  /// form without `grant_type`): LINE's mobile channels have no use for the secret there.
  func tokenClient(sending fields: [(String, String)]) throws(AuthError) -> OAuth2Client {
    let client = try oauth.get()
    let grantType = fields.first { $0.0 == "grant_type" }?.1
    guard !configuration.runtime.sendsSecretOnRefreshAndRevocation,
      grantType == nil || grantType == "refresh_token"
    else { return client }
    var settings = client.configuration
    settings.clientAuthentication = .none
    return OAuth2Client(provider: id, configuration: settings, transport: transport, clock: clock)
  }

  /// Keeps the callback parameters the description names
  /// (``AuthorizationRules/keptCallbackParameters``) in the credential's
  /// ``Credential/extra``.
  func keepCallbackParameters(
    _ callback: AuthorizationCallback, in credential: inout Credential
  ) throws {
    for kept in description.authorization.keptCallbackParameters {
      if let value = try callback.value(kept.name) { credential.extra[kept.value] = value }
    }
  }
}
