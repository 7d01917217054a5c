import Foundation

/// The parts of an OpenID Provider's discovery document (`/.well-known/openid-configuration`)
/// that the SDK uses.
public struct OIDCProviderMetadata: Hashable, Sendable, Codable {
  /// The issuer identifier; must equal the configured issuer exactly.
  public var issuer: String
  /// The authorization endpoint.
  public var authorizationEndpoint: URL
  /// The token endpoint.
  public var tokenEndpoint: URL
  /// The userinfo endpoint, when offered.
  public var userinfoEndpoint: URL?
  /// The JWKS document with the ID-token signing keys.
  public var jwksURI: URL
  /// The RFC 7009 revocation endpoint, when offered.
  public var revocationEndpoint: URL?
  /// The RFC 8628 device authorization endpoint, when offered.
  public var deviceAuthorizationEndpoint: URL?
  /// The RFC 7662 token introspection endpoint, when offered (RFC 8414
  /// `introspection_endpoint`): how ``OIDCProvider/verify(_:)`` proves whom an access token
  /// was issued to.
  public var introspectionEndpoint: URL?
  /// PKCE methods the server supports (`S256`, `plain`).
  public var codeChallengeMethodsSupported: [String]?
  /// Client authentication methods the token endpoint supports.
  public var tokenEndpointAuthMethodsSupported: [String]?
  /// Whether the server puts `iss` in authorization responses (RFC 9207).
  public var authorizationResponseIssParameterSupported: Bool?

  enum CodingKeys: String, CodingKey {
    case issuer
    case authorizationEndpoint = "authorization_endpoint"
    case tokenEndpoint = "token_endpoint"
    case userinfoEndpoint = "userinfo_endpoint"
    case jwksURI = "jwks_uri"
    case revocationEndpoint = "revocation_endpoint"
    case deviceAuthorizationEndpoint = "device_authorization_endpoint"
    case introspectionEndpoint = "introspection_endpoint"
    case codeChallengeMethodsSupported = "code_challenge_methods_supported"
    case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    case authorizationResponseIssParameterSupported =
      "authorization_response_iss_parameter_supported"
  }

  /// Creates metadata from explicit endpoints (for providers without discovery).
  public init(
    issuer: String,
    authorizationEndpoint: URL,
    tokenEndpoint: URL,
    userinfoEndpoint: URL? = nil,
    jwksURI: URL,
    revocationEndpoint: URL? = nil,
    deviceAuthorizationEndpoint: URL? = nil,
    codeChallengeMethodsSupported: [String]? = ["S256"],
    tokenEndpointAuthMethodsSupported: [String]? = nil,
    authorizationResponseIssParameterSupported: Bool? = nil,
    introspectionEndpoint: URL? = nil
  ) {
    self.issuer = issuer
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.userinfoEndpoint = userinfoEndpoint
    self.jwksURI = jwksURI
    self.revocationEndpoint = revocationEndpoint
    self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
    self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
    self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    self.introspectionEndpoint = introspectionEndpoint
  }

  /// The discovery URL for `issuer`: the issuer with `/.well-known/openid-configuration`
  /// appended (OpenID Connect Discovery §4).
  public static func discoveryURL(for issuer: URL) -> URL {
    var text = issuer.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return URL(string: text + "/.well-known/openid-configuration") ?? issuer
  }
}
