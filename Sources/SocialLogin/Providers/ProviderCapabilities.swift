/// What a provider supports.
public struct ProviderCapabilities: OptionSet, Hashable, Sendable {
  /// The option bits.
  public let rawValue: UInt32
  /// Creates capabilities from bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Access tokens can be refreshed with a refresh token.
  public static let refresh = ProviderCapabilities(rawValue: 1 << 0)
  /// Each refresh returns a new refresh token and kills the old one.
  public static let rotatesRefreshTokens = ProviderCapabilities(rawValue: 1 << 1)
  /// The authorization request uses PKCE.
  public static let pkce = ProviderCapabilities(rawValue: 1 << 2)
  /// The provider signs in with OAuth 1.0a.
  public static let oauth1 = ProviderCapabilities(rawValue: 1 << 3)
  /// Tokens can be revoked at the provider.
  public static let revocation = ProviderCapabilities(rawValue: 1 << 4)
  /// The provider issues OpenID Connect ID tokens.
  public static let openIDConnect = ProviderCapabilities(rawValue: 1 << 5)
  /// The provider supports the device authorization grant.
  public static let deviceGrant = ProviderCapabilities(rawValue: 1 << 6)
}
