import SocialLogin

/// The kinds of provider the CLI can build from flags or a remembered profile: the
/// hand-written ones, and every provider written as a ``ProviderDescription`` (the built-in
/// ones, and one loaded with `--provider-file`), whose raw value is the description's id.
struct ProviderKind: RawRepresentable, Hashable, Codable, Sendable {
  let rawValue: String

  init(rawValue: String) { self.rawValue = rawValue }

  /// Decodes the raw string of a remembered profile.
  init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the raw string.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  static let oidc = ProviderKind(rawValue: "oidc")
  static let facebook = ProviderKind(rawValue: "facebook")
  static let twitter = ProviderKind(rawValue: "twitter")
  static let line = ProviderKind(rawValue: "line")
  static let google = ProviderKind(rawValue: "google")
  /// Sign in with Apple.
  static let apple = ProviderKind(rawValue: "apple")
  /// Firebase sessions, made by `sociallogin firebase sign-in` (never by `login`).
  static let firebase = ProviderKind(rawValue: "firebase")

  /// The hand-written kinds, in the order commands list them.
  static let handWritten: [ProviderKind] = [
    .oidc, .facebook, .twitter, .line, .google, .apple, .firebase,
  ]

  /// The kind of a built-in description.
  static func described(_ description: ProviderDescription) -> ProviderKind {
    ProviderKind(rawValue: description.id.rawValue)
  }

  /// Every kind a command can name: the hand-written ones, then the built-in descriptions.
  static var allCases: [ProviderKind] {
    handWritten + ProviderDescription.builtIn.map(described)
  }

  /// Whether the kind is written as a description rather than by hand.
  var isDescribed: Bool { !Self.handWritten.contains(self) }

  /// The built-in description of a described kind (`nil` for a hand-written one, or one
  /// loaded from a file, whose description its profile keeps).
  var builtInDescription: ProviderDescription? {
    isDescribed ? ProviderDescription.builtIn(ProviderID(rawValue: rawValue)) : nil
  }

  /// The session's provider id (OpenID providers get one per issuer:
  /// `ProviderID.oidc(issuer:)`; `--provider oidc` selects any of them).
  var providerID: ProviderID { ProviderID(rawValue: rawValue) }

  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_ID`.
  var clientIDVariable: String { ProviderEnvironment.clientIDVariable(for: providerID) }
  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_SECRET`.
  var clientSecretVariable: String { ProviderEnvironment.clientSecretVariable(for: providerID) }

  /// What the provider is called, for help text.
  var displayName: String {
    switch self {
    case .oidc: return "OpenID Connect"
    case .facebook: return "Facebook"
    case .twitter: return "X (Twitter)"
    case .line: return "LINE"
    case .google: return "Google"
    case .apple: return "Apple"
    case .firebase: return "Firebase"
    default: return builtInDescription?.displayName ?? rawValue
    }
  }

  /// The names `--endpoint NAME=URL` accepts (the provider configuration's `endpointNames`).
  func endpointNames(oauth1: Bool) -> [String] {
    ProviderFactory.endpointNames(for: self, oauth1: oauth1)
  }
}
