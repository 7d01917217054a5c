import Foundation

extension OIDCProvider {
  /// How to talk to the provider.
  public struct Configuration: Sendable {
    /// The issuer; discovery is read from under it and ID tokens must name it exactly.
    public var issuer: URL
    /// The OAuth client id.
    public var clientID: String
    /// The client secret, for confidential clients.
    public var clientSecret: Secret?
    /// How to authenticate to the token endpoint (default: Basic with a secret, else none).
    public var clientAuthentication: OAuth2Configuration.ClientAuthentication?
    /// Scopes to request; `openid` is always included.
    public var scopes: [String]
    /// Accepted ID-token algorithms.
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// Clock-skew tolerance for ID-token time claims, in seconds.
    public var leeway: TimeInterval
    /// Explicit endpoints; when `nil` they come from discovery.
    public var metadata: OIDCProviderMetadata?
    /// How long a discovery document is reused.
    public var discoveryTTL: TimeInterval
    /// Extra authorization parameters (`prompt`, `ui_locales`, ...).
    public var additionalAuthorizationParameters: [URLQueryItem]
    /// The provider's documented answers to a dead refresh token that are not an OAuth
    /// `invalid_grant` (default: none). A refresh that gets one signs the user out; other
    /// answers that are not an OAuth error keep the session, degraded. Glewlwyd needs
    /// ``RefreshTokenRejection/emptyBadRequest``.
    public var refreshTokenRejections: [RefreshTokenRejection]
    /// Other spellings of the issuer accepted in ID tokens' `iss` (the discovery document
    /// must still name ``issuer`` exactly), as Google signs both `https://accounts.google.com`
    /// and `accounts.google.com`. Default: none.
    public var alternativeIssuers: Set<String> = []
    /// Other client ids of the same application whose ID tokens ``OIDCProvider/verify(_:)``
    /// accepts: in `azp` (an Android or iOS app's token for this server's client id) or in
    /// `aud`. Default: none.
    public var alternativeAudiences: Set<String> = []

    /// Creates a configuration.
    public init(
      issuer: URL,
      clientID: String,
      clientSecret: Secret? = nil,
      clientAuthentication: OAuth2Configuration.ClientAuthentication? = nil,
      scopes: [String] = ["openid", "profile", "email"],
      allowedAlgorithms: Set<JWSAlgorithm> = [.rs256, .es256],
      leeway: TimeInterval = 60,
      metadata: OIDCProviderMetadata? = nil,
      discoveryTTL: TimeInterval = 3600,
      additionalAuthorizationParameters: [URLQueryItem] = [],
      refreshTokenRejections: [RefreshTokenRejection] = []
    ) {
      self.issuer = issuer
      self.clientID = clientID
      self.clientSecret = clientSecret
      self.clientAuthentication = clientAuthentication
      self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
      self.allowedAlgorithms = allowedAlgorithms
      self.leeway = leeway
      self.metadata = metadata
      self.discoveryTTL = discoveryTTL
      self.additionalAuthorizationParameters = additionalAuthorizationParameters
      self.refreshTokenRejections = refreshTokenRejections
    }
  }
}
