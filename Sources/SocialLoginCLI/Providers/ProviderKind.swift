import SocialLogin

/// The kinds of provider the CLI can build from flags or a remembered profile.
enum ProviderKind: String, Codable, Sendable, CaseIterable {
  case oidc
  case facebook
  case twitter
  case line

  /// The session's provider id.
  var providerID: ProviderID {
    switch self {
    case .oidc: return "oidc"
    case .facebook: return .facebook
    case .twitter: return .twitter
    case .line: return .line
    }
  }

  /// The kind that makes sessions of `id`, if the CLI knows one.
  init?(providerID id: ProviderID) {
    guard let kind = Self.allCases.first(where: { $0.providerID == id }) else { return nil }
    self = kind
  }

  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_ID`.
  var clientIDVariable: String { "SOCIALLOGIN_\(rawValue.uppercased())_CLIENT_ID" }
  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_SECRET`.
  var clientSecretVariable: String { "SOCIALLOGIN_\(rawValue.uppercased())_CLIENT_SECRET" }

  /// What the provider's console calls the client id, for help text.
  var displayName: String {
    switch self {
    case .oidc: return "OpenID Connect"
    case .facebook: return "Facebook"
    case .twitter: return "X (Twitter)"
    case .line: return "LINE"
    }
  }

  /// The names `--endpoint NAME=URL` accepts (the provider configuration's `endpointNames`).
  func endpointNames(oauth1: Bool) -> [String] {
    ProviderFactory.endpointNames(for: self, oauth1: oauth1)
  }
}
