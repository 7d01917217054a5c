import SocialLogin

/// The kinds of provider the CLI can build from flags or a remembered profile.
enum ProviderKind: String, Codable, Sendable, CaseIterable {
  case oidc
  case facebook
  case twitter
  case line
  case google
  /// Sign in with Apple.
  case apple
  /// Firebase sessions, made by `sociallogin firebase sign-in` (never by `login`).
  case firebase

  /// The session's provider id (OpenID providers get one per issuer:
  /// `ProviderID.oidc(issuer:)`; `--provider oidc` selects any of them).
  var providerID: ProviderID {
    switch self {
    case .oidc: return "oidc"
    case .facebook: return .facebook
    case .twitter: return .twitter
    case .line: return .line
    case .google: return .google
    case .apple: return .apple
    case .firebase: return .firebase
    }
  }

  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_ID`.
  var clientIDVariable: String { ProviderEnvironment.clientIDVariable(for: providerID) }
  /// `SOCIALLOGIN_<PROVIDER>_CLIENT_SECRET`.
  var clientSecretVariable: String { ProviderEnvironment.clientSecretVariable(for: providerID) }

  /// What the provider's console calls the client id, for help text.
  var displayName: String {
    switch self {
    case .oidc: return "OpenID Connect"
    case .facebook: return "Facebook"
    case .twitter: return "X (Twitter)"
    case .line: return "LINE"
    case .google: return "Google"
    case .apple: return "Apple"
    case .firebase: return "Firebase"
    }
  }

  /// The names `--endpoint NAME=URL` accepts (the provider configuration's `endpointNames`).
  func endpointNames(oauth1: Bool) -> [String] {
    ProviderFactory.endpointNames(for: self, oauth1: oauth1)
  }
}
