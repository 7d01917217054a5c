extension ProviderDescription {
  /// LINE Login v2.1, which ``LINEProvider`` runs (it is not in ``builtIn``: LINE keeps its
  /// own configuration type, ``LINEConfiguration``, and its own emulator).
  ///
  /// - The client id is the channel id; the channel secret authenticates token requests in
  ///   the form and keys web logins' ID tokens.
  /// - ID tokens: `HS256` with the channel secret when the header has no `kid` (web
  ///   logins), `ES256` from `/oauth2/v2.1/certs` when it has one (apps, LIFF); issuer
  ///   `https://access.line.me`; one comes only when `openid` was asked for.
  /// - The callback's `friendship_status_changed` (after `bot_prompt`) is kept in
  ///   ``Credential/extra`` under ``LINEProvider/friendshipStatusChangedKey``.
  /// - The identity is `/v2/profile`'s `userId`, `displayName` and `pictureUrl`, with the
  ///   email from the stored ID token.
  /// - An app's access token is checked with `GET /oauth2/v2.1/verify?access_token=…`
  ///   (`client_id` must be the channel, `expires_in` positive); its answer names no user,
  ///   so the profile does.
  /// - Two error shapes: `{error, error_description}` (callbacks use upper-case codes) and
  ///   `{message}`. Refresh tokens never rotate (LINE echoes the one sent).
  /// - Revocation posts the access token to `/oauth2/v2.1/revoke`.
  public static let line = ProviderDescription(
    id: .line, displayName: "LINE",
    endpoints: [
      ProviderEndpoint(
        name: "authorize", production: "https://access.line.me/oauth2/v2.1/authorize"),
      ProviderEndpoint(
        name: "token", production: "https://api.line.me/oauth2/v2.1/token", method: .post),
      ProviderEndpoint(name: "verify", production: "https://api.line.me/oauth2/v2.1/verify"),
      ProviderEndpoint(name: "profile", production: "https://api.line.me/v2/profile"),
      ProviderEndpoint(
        name: "revoke", production: "https://api.line.me/oauth2/v2.1/revoke", method: .post),
      ProviderEndpoint(name: "jwks", production: "https://api.line.me/oauth2/v2.1/certs"),
      ProviderEndpoint(
        name: "channel_token", production: "https://api.line.me/oauth2/v3/token", method: .post),
    ],
    client: ClientRules(clientIDLabel: "channel ID", secretLabel: "channel secret"),
    authorization: AuthorizationRules(
      defaultScopes: ["profile", "openid"],
      keptCallbackParameters: [
        AuthorizationRules.Parameter(
          name: "friendship_status_changed", value: "line.friendship_status_changed")
      ]),
    idToken: IDTokenRules(
      verification: .keyIDSelects, keysEndpoint: "jwks", algorithms: ["ES256", "HS256"],
      issuers: ["https://access.line.me"], requiredWithScope: "openid"),
    identity: IdentityRules(
      endpoint: "profile", subject: "/userId", name: ["/displayName"], email: nil,
      emailVerified: [], picture: "/pictureUrl", idTokenClaims: .completeProfile),
    refresh: RefreshRules(rotation: .never),
    errors: ErrorDialect(
      shape: .rfc6749OrMessage, configuration: ["invalid_client"], ignoresCase: true),
    revocation: .accessToken,
    accessTokenCheck: AccessTokenCheck(
      endpoint: "verify", subject: "/sub", tokenParameter: "access_token",
      clientID: "/client_id", expiresIn: "/expires_in", scope: "/scope"))
}
