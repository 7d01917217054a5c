extension ProviderDescription {
  /// NAVER Login (네이버 로그인): OAuth 2.0 without OpenID Connect.
  ///
  /// - The client secret goes with every token request, as a form parameter.
  /// - `scope` is not sent: consent items are set in NAVER's console.
  /// - `expires_in` is a string (`"3600"`); errors come inside answers with status 200, so
  ///   `error` is checked before `access_token`.
  /// - The subject is the profile's `response.id`, unique per user and app; the email has no
  ///   verified flag and never counts as verified.
  /// - Refresh tokens never rotate. NAVER documents no code for a dead refresh token, so any
  ///   refresh error but `server_error` signs out.
  /// - Revocation is `grant_type=delete`, whose "success" proves nothing: the token is
  ///   refreshed first.
  public static let naver = ProviderDescription(
    id: .naver, displayName: "NAVER",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: "https://nid.naver.com/oauth2.0/authorize"),
      ProviderEndpoint(
        name: "token", production: "https://nid.naver.com/oauth2.0/token", method: .post),
      ProviderEndpoint(name: "profile", production: "https://openapi.naver.com/v1/nid/me"),
    ],
    client: ClientRules(secret: .required, clientIDLabel: "Client ID"),
    authorization: AuthorizationRules(sendsScope: false),
    tokenAnswer: TokenAnswerRules(expiresIn: .numberOrString),
    identity: IdentityRules(
      endpoint: "profile", envelope: IdentityRules.Envelope(pointer: "/resultcode", success: "00"),
      subject: "/response/id", name: ["/response/name", "/response/nickname"],
      email: "/response/email", emailVerified: [], picture: "/response/profile_image"),
    refresh: RefreshRules(rotation: .never),
    errors: ErrorDialect(
      shape: .rfc6749InSuccessfulAnswers, signOut: ["invalid_grant", "invalid_request"],
      configuration: ["invalid_client", "unauthorized_client", "unsupported_response_type"],
      transient: ["server_error"]),
    revocation: .grantTypeDelete,
    accessTokenCheck: AccessTokenCheck(endpoint: "profile", subject: "/response/id"))
}
