/// How a described provider's refresh tokens behave.
public struct RefreshRules: Hashable, Sendable, Codable {
  /// When a refresh answer carries a new refresh token.
  public enum Rotation: String, Hashable, Sendable, Codable {
    /// The provider issues no refresh tokens (GitHub OAuth apps): a session ends with its
    /// access token.
    case unsupported
    /// A refresh never returns a new one (NAVER, Yahoo! JAPAN, Google): keep the old.
    case never
    /// Every refresh returns a new one and the old one dies (Microsoft, GitHub apps).
    case always
    /// Only near the refresh token's own expiry (Kakao: in its last month); otherwise the
    /// old one and its expiry are kept.
    case nearExpiry = "near_expiry"
  }

  /// When a refresh answer carries a new refresh token. Whatever the rule, an answer
  /// without one keeps the session's: a token a provider issued is never thrown away.
  public var rotation: Rotation

  /// Creates the rules; refresh tokens never rotate by default.
  public init(rotation: Rotation = .never) {
    self.rotation = rotation
  }
}
