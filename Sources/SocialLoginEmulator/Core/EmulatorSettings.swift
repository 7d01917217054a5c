import SocialLogin

/// The emulator's provider settings, as `GET /_emulator/settings` answers and
/// `POST /_emulator/settings` takes them (typed JSON: a boolean is `true`/`false`, an algorithm
/// one of the names listed). A `POST` may carry any subset; an unknown key or an invalid value
/// is a 400 naming it, and nothing is changed.
///
/// ```json
/// {"facebook_requires_appsecret_proof": true, "line_id_token_alg": "HS256",
///  "oidc_id_token_alg": "ES256"}
/// ```
public struct EmulatorSettings: Sendable, Hashable, Codable {
  /// Whether Facebook Graph calls without `appsecret_proof` are refused.
  public var facebookRequiresAppSecretProof: Bool?
  /// How LINE signs ID tokens: `HS256` (channel secret, web login) or `ES256` (native SDKs).
  public var lineIDTokenAlgorithm: String?
  /// How the OpenID provider signs ID tokens: `ES256` or `RS256`.
  public var oidcIDTokenAlgorithm: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case facebookRequiresAppSecretProof = "facebook_requires_appsecret_proof"
    case lineIDTokenAlgorithm = "line_id_token_alg"
    case oidcIDTokenAlgorithm = "oidc_id_token_alg"
  }

  /// Settings with the values given (`nil`: leave as it is).
  public init(
    facebookRequiresAppSecretProof: Bool? = nil, lineIDTokenAlgorithm: String? = nil,
    oidcIDTokenAlgorithm: String? = nil
  ) {
    self.facebookRequiresAppSecretProof = facebookRequiresAppSecretProof
    self.lineIDTokenAlgorithm = lineIDTokenAlgorithm
    self.oidcIDTokenAlgorithm = oidcIDTokenAlgorithm
  }

  /// The first problem with these settings as a `POST` body, or `nil`.
  var problem: String? {
    if let alg = lineIDTokenAlgorithm, alg != "HS256", alg != "ES256" {
      return "line_id_token_alg must be \"HS256\" or \"ES256\""
    }
    if let alg = oidcIDTokenAlgorithm, alg != "ES256", alg != "RS256" {
      return "oidc_id_token_alg must be \"ES256\" or \"RS256\""
    }
    return nil
  }
}

extension EmulatorEnvironment {
  /// The current settings, every field set.
  var settings: EmulatorSettings {
    EmulatorSettings(
      facebookRequiresAppSecretProof: facebookRequiresAppSecretProof,
      lineIDTokenAlgorithm: lineSignsWithES256 ? "ES256" : "HS256",
      oidcIDTokenAlgorithm: oidcSignsWithRS256 ? "RS256" : "ES256")
  }

  /// Applies the fields `settings` sets (checked first: see ``EmulatorSettings/problem``).
  func apply(_ settings: EmulatorSettings) {
    if let flag = settings.facebookRequiresAppSecretProof {
      facebookRequiresAppSecretProof = flag
    }
    if let alg = settings.lineIDTokenAlgorithm { lineSignsWithES256 = alg == "ES256" }
    if let alg = settings.oidcIDTokenAlgorithm { oidcSignsWithRS256 = alg == "RS256" }
  }
}
