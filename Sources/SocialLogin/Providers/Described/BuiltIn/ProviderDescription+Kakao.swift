extension ProviderDescription {
  /// Kakao Login (REST API; OAuth 2.0 with OpenID Connect when the app switches it on).
  ///
  /// - The client id is the app's REST API key; a client secret only when "Client Secret" is
  ///   on in the console. Scopes are consent items, joined by commas, and only ask for extra
  ///   consent (the console sets the rest).
  /// - ID tokens (RS256, issuer `https://kauth.kakao.com`) come only when OpenID Connect is
  ///   on; their `aud` is the app key that logged in (the REST API key, or the native or
  ///   JavaScript key of an app's Kakao SDK: add those to
  ///   ``DescribedProviderConfiguration/audiences``).
  /// - The subject is `/v2/user/me`'s `id`, a 64-bit number kept exact.
  /// - A refresh returns a new refresh token only in the old one's last month; otherwise the
  ///   old one and its expiry are kept. `KOE322` is a dead refresh token.
  /// - Logout with revocation unlinks the app (Kakao has no RFC 7009 endpoint).
  /// - `sse-configuration` names the issuer and keys of Kakao's security events (SSF),
  ///   which ``ProviderEventReceiver`` verifies at `POST /kakao/ssf`.
  public static let kakao = ProviderDescription(
    id: .kakao, displayName: "Kakao",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: "https://kauth.kakao.com/oauth/authorize"),
      ProviderEndpoint(
        name: "token", production: "https://kauth.kakao.com/oauth/token", method: .post),
      ProviderEndpoint(name: "keys", production: "https://kauth.kakao.com/.well-known/jwks.json"),
      ProviderEndpoint(name: "userinfo", production: "https://kapi.kakao.com/v2/user/me"),
      ProviderEndpoint(
        name: "tokeninfo", production: "https://kapi.kakao.com/v1/user/access_token_info"),
      ProviderEndpoint(
        name: "unlink", production: "https://kapi.kakao.com/v1/user/unlink", method: .post),
      ProviderEndpoint(
        name: "sse-configuration",
        production: "https://kauth.kakao.com/.well-known/sse-configuration"),
    ],
    client: ClientRules(clientIDLabel: "REST API key"),
    authorization: AuthorizationRules(scopeSeparator: ","),
    idToken: IDTokenRules(issuers: ["https://kauth.kakao.com"], requiredOnLogin: false),
    identity: IdentityRules(
      endpoint: "userinfo", subject: "/id",
      name: ["/kakao_account/profile/nickname", "/kakao_account/name", "/properties/nickname"],
      email: "/kakao_account/email",
      emailVerified: ["/kakao_account/is_email_valid", "/kakao_account/is_email_verified"],
      picture: "/kakao_account/profile/profile_image_url"),
    refresh: RefreshRules(rotation: .nearExpiry),
    errors: ErrorDialect(
      signOut: ["KOE322", "invalid_grant"],
      configuration: [
        "KOE319", "KOE303", "KOE010", "KOE101", "KOE009", "KOE004", "KOE005", "KOE006",
        "KOE007", "KOE008", "KOE202", "invalid_client", "unauthorized_client", "misconfigured",
      ],
      transient: ["KOE237", "KOE003", "server_error", "temporarily_unavailable"]),
    revocation: .unlink,
    accessTokenCheck: AccessTokenCheck(endpoint: "tokeninfo", subject: "/id", appID: "/app_id"),
    events: .kakaoUnlink)
}
