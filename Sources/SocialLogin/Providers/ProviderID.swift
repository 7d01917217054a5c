/// Names a login provider: one of the built-in ones or any custom OpenID Connect provider.
///
/// Every built-in provider's constant is here, in one place; an OpenID Connect issuer's id
/// comes from ``oidc(issuer:)``.
///
/// `ProviderID` is an extensible string-backed value, so adding a provider never breaks a
/// `switch` in your code. X and Twitter are the same provider: `.x == .twitter`.
///
/// ```swift
/// let id: ProviderID = "my-oidc"   // a custom provider
/// let session = try await login(.twitter)
/// ```
public struct ProviderID: RawRepresentable, Hashable, Sendable, Codable, Comparable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The stable string used in stores, logs and session keys.
  public let rawValue: String

  /// Creates a provider id; `"x"` is normalised to `"twitter"` so both name one provider.
  public init(rawValue: String) {
    let lowered = rawValue.lowercased()
    self.rawValue = lowered == "x" ? "twitter" : lowered
  }

  /// Creates a provider id from a string literal, for example `"my-oidc"`.
  public init(stringLiteral value: String) { self.init(rawValue: value) }

  /// Decodes the raw string, applying the same normalisation as ``init(rawValue:)``.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the raw string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The provider's raw string.
  public var description: String { rawValue }

  /// Orders ids by their raw strings.
  public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Facebook Login (Graph API).
  public static let facebook = ProviderID(rawValue: "facebook")
  /// X, formerly Twitter (OAuth 2.0 with PKCE, or OAuth 1.0a).
  public static let twitter = ProviderID(rawValue: "twitter")
  /// X: the same provider as ``twitter``.
  public static let x = ProviderID(rawValue: "twitter")
  /// LINE Login v2.1.
  public static let line = ProviderID(rawValue: "line")
  /// Sign in with Apple.
  public static let apple = ProviderID(rawValue: "apple")
  /// Firebase Authentication sessions obtained by exchanging another provider's login.
  public static let firebase = ProviderID(rawValue: "firebase")
  /// Google (OpenID Connect at `accounts.google.com`), see ``GoogleProvider``.
  public static let google = ProviderID(rawValue: "google")
  /// Kakao Login.
  public static let kakao = ProviderID(rawValue: "kakao")
  /// NAVER Login.
  public static let naver = ProviderID(rawValue: "naver")
  /// Yahoo! JAPAN ID (YConnect v2).
  public static let yahooJapan = ProviderID(rawValue: "yahoo-japan")
  /// GitHub.
  public static let github = ProviderID(rawValue: "github")
  /// Microsoft Entra ID.
  public static let microsoft = ProviderID(rawValue: "microsoft")
}
