extension ProviderDescription {
  /// Yahoo! JAPAN ID (YConnect v2): OpenID Connect.
  ///
  /// - Server-side client ids authenticate with HTTP Basic; the secret is required.
  /// - ID tokens are RS256 from the JWKS; `iss` is exactly
  ///   `https://auth.login.yahoo.co.jp/yconnect/v2` (never the bare host), `aud` an array
  ///   holding the client id, `nonce` always present, and `iat` at most 600 seconds old.
  /// - Profile and email come from UserInfo (`/yconnect/v2/attribute`).
  /// - Refresh tokens never rotate (they live four weeks); there is no revocation endpoint.
  public static let yahooJapan = ProviderDescription(
    id: .yahooJapan, displayName: "Yahoo! JAPAN",
    endpoints: [
      ProviderEndpoint(
        name: "authorize", production: "https://auth.login.yahoo.co.jp/yconnect/v2/authorization"),
      ProviderEndpoint(
        name: "token", production: "https://auth.login.yahoo.co.jp/yconnect/v2/token",
        method: .post),
      ProviderEndpoint(name: "keys", production: "https://auth.login.yahoo.co.jp/yconnect/v2/jwks"),
      ProviderEndpoint(
        name: "userinfo", production: "https://userinfo.yahooapis.jp/yconnect/v2/attribute"),
    ],
    client: ClientRules(
      authentication: .clientSecretBasic, secret: .required, clientIDLabel: "Client ID"),
    authorization: AuthorizationRules(defaultScopes: ["openid", "profile", "email"]),
    idToken: IDTokenRules(
      issuers: ["https://auth.login.yahoo.co.jp/yconnect/v2"], maximumAge: 600),
    identity: IdentityRules(endpoint: "userinfo", name: ["/name", "/nickname"]),
    refresh: RefreshRules(rotation: .never),
    errors: ErrorDialect(
      configuration: [
        "invalid_client", "unauthorized_client", "invalid_redirect_uri", "invalid_scope",
        "unsupported_grant_type", "invalid_request",
      ]),
    revocation: .none)
}
