/// How a described provider's ID tokens are verified.
///
/// Issuers are templates: `{tenant}` is a ``ProviderDescription/parameters`` value, and
/// `{tenantid}` is the token's own `tid` claim, accepted only when the template with it
/// substituted equals `iss` (Microsoft's multi-tenant endpoints: the issuer carries the
/// tenant id, which must match `tid`).
public struct IDTokenRules: Hashable, Sendable, Codable {
  /// Where the signature is checked.
  public enum Verification: String, Hashable, Sendable, Codable {
    /// A JWKS fetched from the endpoint named by ``keysEndpoint``.
    case jwks
    /// HS256 keyed with the client secret (LINE's web logins).
    case clientSecretHS256 = "client_secret_hs256"
    /// Chosen by the token's header: a `kid` selects a key from the JWKS named by
    /// ``keysEndpoint``; no `kid` means HS256 keyed with the client secret (LINE: web logins
    /// get HS256 tokens, apps and LIFF ES256 ones). ``algorithms`` still bounds what is
    /// accepted, so `none` or an algorithm switched between the two fails.
    case keyIDSelects = "kid_selects_jwks_or_client_secret_hs256"
  }

  /// Where the signature is checked.
  public var verification: Verification
  /// The JWKS endpoint's name (``ProviderEndpoint/name``), for ``Verification/jwks``.
  public var keysEndpoint: String?
  /// The signature algorithms accepted (`RS256`, `ES256`, `HS256`).
  public var algorithms: [String]
  /// The accepted issuer templates, compared exactly after substitution.
  public var issuers: [String]
  /// Whether a login's answer must carry an ID token: `false` where the provider issues one
  /// only when the app switched OpenID Connect on (Kakao).
  public var requiredOnLogin: Bool
  /// The oldest `iat` accepted, in seconds before now; `nil` checks only `exp` (Yahoo!
  /// JAPAN's SDK refuses tokens issued more than 600 seconds ago).
  public var maximumAge: Int?
  /// The claim that names the token's tenant (Microsoft's `tid`), substituted for
  /// `{tenantid}` in ``issuers``; `nil` for a provider without tenants.
  public var tenantClaim: String?
  /// The values of the `tenant` parameter that admit any tenant (Microsoft's `common`,
  /// `organizations`, `consumers`); any other value is a tenant id the token's
  /// ``tenantClaim`` must equal.
  public var multiTenantValues: [String]
  /// The scope that makes a login's ID token required, when only some logins get one
  /// (LINE issues one only when `openid` was asked for); `nil` follows ``requiredOnLogin``.
  public var requiredWithScope: String?

  /// Creates the rules: JWKS from `keys`, RS256.
  public init(
    verification: Verification = .jwks,
    keysEndpoint: String? = "keys",
    algorithms: [String] = ["RS256"],
    issuers: [String],
    requiredOnLogin: Bool = true,
    maximumAge: Int? = nil,
    tenantClaim: String? = nil,
    multiTenantValues: [String] = [],
    requiredWithScope: String? = nil
  ) {
    self.verification = verification
    self.keysEndpoint = keysEndpoint
    self.algorithms = algorithms
    self.issuers = issuers
    self.requiredOnLogin = requiredOnLogin
    self.maximumAge = maximumAge
    self.tenantClaim = tenantClaim
    self.multiTenantValues = multiTenantValues
    self.requiredWithScope = requiredWithScope
  }
}
