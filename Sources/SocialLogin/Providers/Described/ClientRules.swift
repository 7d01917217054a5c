/// How a described provider's client authenticates at the token endpoint, and whether it
/// needs a secret at all.
public struct ClientRules: Hashable, Sendable, Codable {
  /// Where the client id and secret go.
  public enum Authentication: String, Hashable, Sendable, Codable {
    /// HTTP Basic (`client_secret_basic`, RFC 6749 §2.3.1): Yahoo! JAPAN.
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form body (`client_secret_post`): Kakao,
    /// NAVER, GitHub, Microsoft, Google.
    case clientSecretPost = "client_secret_post"
    /// A public client: only `client_id`.
    case none
  }

  /// Whether the provider needs a client secret.
  public enum SecretRequirement: String, Hashable, Sendable, Codable {
    /// Every token request needs it (NAVER, Yahoo! JAPAN, GitHub's web flow).
    case required
    /// The app decides (Kakao's "Client Secret" switch, Microsoft's public clients).
    case optional
    /// The provider has none (a public client).
    case none
  }

  /// Where the id and secret go; `client_secret_post` by default.
  public var authentication: Authentication
  /// Whether a secret is needed; `optional` by default.
  public var secret: SecretRequirement
  /// What the provider's console calls the client id (`REST API key`, `Client ID`), for
  /// messages that tell the operator which setting is wrong.
  public var clientIDLabel: String
  /// What the provider's console calls the client secret (LINE's `channel secret`).
  public var secretLabel: String

  /// Creates the rules.
  public init(
    authentication: Authentication = .clientSecretPost,
    secret: SecretRequirement = .optional,
    clientIDLabel: String = "client id",
    secretLabel: String = "client secret"
  ) {
    self.authentication = authentication
    self.secret = secret
    self.clientIDLabel = clientIDLabel
    self.secretLabel = secretLabel
  }
}
