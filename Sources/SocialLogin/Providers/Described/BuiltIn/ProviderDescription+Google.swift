extension ProviderDescription {
  /// Google sign-in (OpenID Connect), the description ``GoogleProvider`` runs on.
  ///
  /// - ID tokens are RS256 from `keys`; `iss` is `https://accounts.google.com` or
  ///   `accounts.google.com`.
  /// - The identity merges the ID token's claims with userinfo's (`hd`, `picture`, ...).
  /// - Refresh tokens never rotate; revocation is one RFC 7009 call that ends the whole grant,
  ///   and `invalid_token` (already revoked) counts as done (``RevocationRules``).
  /// - `device` is "OAuth for TV and Limited-Input Device Applications".
  /// - `risc-configuration` is read by the events receiver, not by the engine.
  ///
  /// What is set per app (`access_type=offline`, `hd`, `login_hint`, the hosted-domain rule,
  /// the apps' client ids) comes from ``GoogleConfiguration``, which is why Google is not in
  /// ``builtIn``: use ``GoogleProvider``.
  public static let google = ProviderDescription(
    id: .google, displayName: "Google",
    endpoints: [
      ProviderEndpoint(
        name: "authorize", production: "https://accounts.google.com/o/oauth2/v2/auth"),
      ProviderEndpoint(
        name: "token", production: "https://oauth2.googleapis.com/token", method: .post),
      ProviderEndpoint(
        name: "userinfo", production: "https://openidconnect.googleapis.com/v1/userinfo"),
      ProviderEndpoint(name: "keys", production: "https://www.googleapis.com/oauth2/v3/certs"),
      ProviderEndpoint(
        name: "revoke", production: "https://oauth2.googleapis.com/revoke", method: .post),
      ProviderEndpoint(
        name: "device", production: "https://oauth2.googleapis.com/device/code", method: .post),
      ProviderEndpoint(
        name: "risc-configuration",
        production: "https://accounts.google.com/.well-known/risc-configuration"),
    ],
    authorization: AuthorizationRules(defaultScopes: ["openid", "email", "profile"]),
    idToken: IDTokenRules(issuers: ["https://accounts.google.com", "accounts.google.com"]),
    identity: IdentityRules(endpoint: "userinfo", idTokenClaims: .mergeWithProfile),
    refresh: RefreshRules(rotation: .never),
    errors: ErrorDialect(otherCodesSignOut: false),
    revocation: .rfc7009,
    deviceEndpoint: "device",
    events: .risc,
    revocationRules: RevocationRules(oneCallEndsGrant: true, alreadyRevoked: ["invalid_token"]))
}
