extension ProviderDescription {
  /// GitHub: OAuth apps (and GitHub apps' user tokens).
  ///
  /// - The token endpoint answers JSON only when asked (`Accept: application/json`) and puts
  ///   errors in answers with status 200.
  /// - The subject is `/user`'s numeric `id`; the email is the primary address from
  ///   `/user/emails`, verified when GitHub says so.
  /// - OAuth apps' tokens do not expire and come without a refresh token; GitHub apps with
  ///   expiring user tokens rotate the refresh token on every refresh.
  /// - Revocation deletes the app's grant (`DELETE /applications/{client_id}/grant`).
  /// - Device login (`/login/device/code`) needs "Device Flow" enabled in the app settings.
  public static let github = ProviderDescription(
    id: .github, displayName: "GitHub",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: "https://github.com/login/oauth/authorize"),
      ProviderEndpoint(
        name: "token", production: "https://github.com/login/oauth/access_token", method: .post),
      ProviderEndpoint(name: "user", production: "https://api.github.com/user"),
      ProviderEndpoint(name: "emails", production: "https://api.github.com/user/emails"),
      ProviderEndpoint(
        name: "revoke", production: "https://api.github.com/applications/{client_id}/grant",
        method: .delete),
      ProviderEndpoint(
        name: "device", production: "https://github.com/login/device/code", method: .post),
    ],
    client: ClientRules(clientIDLabel: "Client ID"),
    authorization: AuthorizationRules(defaultScopes: ["read:user", "user:email"]),
    identity: IdentityRules(
      endpoint: "user", subject: "/id", name: ["/name", "/login"], email: nil,
      emailVerified: [], picture: "/avatar_url", emails: IdentityRules.EmailList(endpoint: "emails")
    ),
    refresh: RefreshRules(rotation: .always),
    errors: ErrorDialect(
      shape: .rfc6749InSuccessfulAnswers, signOut: ["bad_refresh_token", "invalid_grant"],
      configuration: [
        "incorrect_client_credentials", "redirect_uri_mismatch", "unauthorized_client",
        "invalid_client", "device_flow_disabled", "unsupported_grant_type",
      ]),
    revocation: .deleteGrant,
    deviceEndpoint: "device")
}
