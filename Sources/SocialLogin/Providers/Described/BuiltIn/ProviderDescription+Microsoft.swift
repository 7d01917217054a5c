extension ProviderDescription {
  /// Microsoft Entra ID (the Microsoft identity platform, v2.0 endpoints).
  ///
  /// - The `tenant` parameter is `common`, `organizations`, `consumers` or a tenant id. On
  ///   the multi-tenant values an ID token's issuer carries the account's tenant id, which
  ///   must equal its `tid`; on a tenant id, `tid` must be that tenant.
  /// - The identity comes from the ID token (`sub`, `name`, `preferred_username`, `email`);
  ///   Microsoft never says whether an email is verified, so it never counts as verified.
  /// - Refresh tokens rotate on every refresh (`offline_access` asks for one).
  /// - There is no revocation endpoint for a single grant.
  public static let microsoft = ProviderDescription(
    id: .microsoft, displayName: "Microsoft",
    endpoints: [
      ProviderEndpoint(
        name: "authorize",
        production: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize"),
      ProviderEndpoint(
        name: "token", production: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
        method: .post),
      ProviderEndpoint(
        name: "keys",
        production: "https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys"),
      ProviderEndpoint(
        name: "device",
        production: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/devicecode",
        method: .post),
    ],
    parameters: ["tenant"],
    client: ClientRules(clientIDLabel: "Application (client) ID"),
    authorization: AuthorizationRules(
      defaultScopes: ["openid", "profile", "email", "offline_access"]),
    idToken: IDTokenRules(
      issuers: ["https://login.microsoftonline.com/{tenantid}/v2.0"], tenantClaim: "tid",
      multiTenantValues: ["common", "organizations", "consumers"]),
    identity: IdentityRules(
      subject: "/sub", name: ["/name", "/preferred_username"], email: "/email",
      emailVerified: [], picture: nil),
    refresh: RefreshRules(rotation: .always),
    errors: ErrorDialect(signOut: ["invalid_grant", "interaction_required"]),
    revocation: .none,
    deviceEndpoint: "device")
}
