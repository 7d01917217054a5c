/// The name of an emulated provider: the first word of fault and transcript entries and the
/// `provider` field of `/_emulator/` requests.
///
/// The names are the SDK's provider ids (`facebook`, `twitter`, `line`) plus `oidc` for the
/// generic OpenID provider; `x` is accepted for `twitter`.
public struct EmulatedProviderName: RawRepresentable, Hashable, Sendable, Codable,
  ExpressibleByStringLiteral, CustomStringConvertible, Comparable
{
  /// The name.
  public let rawValue: String

  /// Creates a name; `x` becomes `twitter`.
  public init(rawValue: String) {
    let lowered = rawValue.lowercased()
    self.rawValue = lowered == "x" ? "twitter" : lowered
  }

  /// Creates a name from a literal.
  public init(stringLiteral value: String) { self.init(rawValue: value) }

  /// Decodes the name from a string.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the name as a string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The name.
  public var description: String { rawValue }

  /// Orders names alphabetically.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Facebook Login and the Graph API.
  public static let facebook: Self = "facebook"
  /// X (Twitter): OAuth 2.0 with PKCE and OAuth 1.0a.
  public static let twitter: Self = "twitter"
  /// LINE Login v2.1.
  public static let line: Self = "line"
  /// A generic OpenID Connect provider under `/oidc`.
  public static let oidc: Self = "oidc"
}
