import Foundation

/// How an ``OAuth2Client`` talks to one OAuth 2.0 authorization server: who the client is, how
/// it authenticates, where the endpoints are and which protections the authorization request
/// carries.
///
/// ```swift
/// var configuration = OAuth2Configuration(
///   clientID: "my-client",
///   clientSecret: Secret(environment["CLIENT_SECRET"] ?? ""),
///   clientAuthentication: .clientSecretBasic,
///   authorizationEndpoint: URL(string: "https://x.com/i/oauth2/authorize")!,
///   tokenEndpoint: URL(string: "https://api.x.com/2/oauth2/token")!,
///   revocationEndpoint: URL(string: "https://api.x.com/2/oauth2/revoke")!,
///   scopes: ["users.read", "tweet.read", "offline.access"])
/// configuration.expectedIssuer = "https://issuer.example.com"  // RFC 9207, when sent
/// ```
public struct OAuth2Configuration: Hashable, Sendable {
  /// How the client authenticates to the token, revocation and device endpoints
  /// (RFC 6749 §2.3, OpenID Connect Core §9).
  public enum ClientAuthentication: String, Hashable, Sendable, Codable {
    /// `Authorization: Basic` with the form-urlencoded id and secret (RFC 6749 §2.3.1).
    /// The body carries no client credentials.
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form body.
    case clientSecretPost = "client_secret_post"
    /// A public client: only `client_id` in the form body.
    case none
  }

  /// Whether and how the authorization request uses PKCE (RFC 7636).
  public enum PKCEMode: String, Hashable, Sendable, Codable {
    /// `code_challenge_method=S256`: the default, and the only method to use when the server
    /// supports it.
    case s256 = "S256"
    /// `code_challenge_method=plain`: the challenge is the verifier. Only for servers that
    /// cannot do S256; never chosen automatically.
    case plain
    /// No PKCE parameters (servers that reject them).
    case disabled
  }

  /// The client identifier issued by the provider.
  public var clientID: String
  /// The client secret, for confidential clients.
  public var clientSecret: Secret?
  /// How the client authenticates at the token endpoint.
  public var clientAuthentication: ClientAuthentication
  /// The authorization endpoint the browser is sent to. Its own query items are kept.
  public var authorizationEndpoint: URL
  /// The token endpoint.
  public var tokenEndpoint: URL
  /// The RFC 7009 revocation endpoint, when the provider has one.
  public var revocationEndpoint: URL?
  /// The RFC 8628 device authorization endpoint, when the provider has one.
  public var deviceAuthorizationEndpoint: URL?
  /// The scopes requested by default.
  public var scopes: [String]
  /// What joins scopes in the `scope` parameter: a space (RFC 6749 §3.3) or, for Facebook,
  /// a comma.
  public var scopeSeparator: String
  /// Whether and how to use PKCE.
  public var pkce: PKCEMode
  /// Whether to send an OpenID Connect `nonce` (and keep it in the ``PendingLogin``).
  public var usesNonce: Bool
  /// Extra authorization request parameters, in order (`prompt`, `bot_prompt`, `access_type`,
  /// ...). They must not repeat the parameters the client sets itself.
  public var additionalAuthorizationParameters: [URLQueryItem]
  /// The issuer identifier an RFC 9207 `iss` callback parameter must equal, when present.
  public var expectedIssuer: String?
  /// Whether the server always sends `iss` in callbacks (its metadata has
  /// `authorization_response_iss_parameter_supported: true`), so a callback without it is
  /// rejected. Requires ``expectedIssuer``.
  public var requiresIssuerInCallback: Bool
  /// How long a ``PendingLogin`` is accepted after the authorization request was built.
  public var pendingLoginLifetime: TimeInterval
  /// How long each request to the provider may take.
  public var requestTimeout: Duration

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - clientID: The client identifier.
  ///   - clientSecret: The secret of a confidential client; required unless
  ///     `clientAuthentication` is `.none`.
  ///   - clientAuthentication: How to authenticate; `.clientSecretBasic` by default when a
  ///     secret is given, `.none` otherwise.
  ///   - authorizationEndpoint: The authorization endpoint.
  ///   - tokenEndpoint: The token endpoint.
  ///   - revocationEndpoint: The RFC 7009 revocation endpoint, if any.
  ///   - deviceAuthorizationEndpoint: The RFC 8628 device authorization endpoint, if any.
  ///   - scopes: The default scopes.
  ///   - scopeSeparator: What joins scopes; a space by default.
  ///   - pkce: The PKCE mode; `.s256` by default.
  ///   - usesNonce: Whether to send an OpenID Connect nonce.
  ///   - additionalAuthorizationParameters: Extra authorization request parameters.
  ///   - expectedIssuer: The RFC 9207 issuer identifier, if known.
  ///   - requiresIssuerInCallback: Whether callbacks must carry `iss`.
  ///   - pendingLoginLifetime: How long a pending login stays valid; 10 minutes by default.
  ///   - requestTimeout: The timeout of each request; 30 seconds by default.
  public init(
    clientID: String,
    clientSecret: Secret? = nil,
    clientAuthentication: ClientAuthentication? = nil,
    authorizationEndpoint: URL,
    tokenEndpoint: URL,
    revocationEndpoint: URL? = nil,
    deviceAuthorizationEndpoint: URL? = nil,
    scopes: [String] = [],
    scopeSeparator: String = " ",
    pkce: PKCEMode = .s256,
    usesNonce: Bool = false,
    additionalAuthorizationParameters: [URLQueryItem] = [],
    expectedIssuer: String? = nil,
    requiresIssuerInCallback: Bool = false,
    pendingLoginLifetime: TimeInterval = 600,
    requestTimeout: Duration = .seconds(30)
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.clientAuthentication =
      clientAuthentication ?? (clientSecret == nil ? .none : .clientSecretBasic)
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.revocationEndpoint = revocationEndpoint
    self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    self.scopes = scopes
    self.scopeSeparator = scopeSeparator
    self.pkce = pkce
    self.usesNonce = usesNonce
    self.additionalAuthorizationParameters = additionalAuthorizationParameters
    self.expectedIssuer = expectedIssuer
    self.requiresIssuerInCallback = requiresIssuerInCallback
    self.pendingLoginLifetime = pendingLoginLifetime
    self.requestTimeout = requestTimeout
  }
}
