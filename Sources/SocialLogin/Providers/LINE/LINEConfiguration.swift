import Foundation

/// How a ``LINEProvider`` talks to LINE Login v2.1.
///
/// Every endpoint can be pointed elsewhere by name (the CLI's `--endpoint NAME=URL`), and all
/// of them are mapped onto the SocialLogin emulator when `SOCIALLOGIN_EMULATOR_HOST` is set.
///
/// ```swift
/// var configuration = try LINEConfiguration(
///   channelID: "1656000000", channelSecret: Secret(environment["LINE_CHANNEL_SECRET"] ?? ""))
/// configuration.botPrompt = .aggressive      // offer to add the LINE Official Account
/// configuration.uiLocales = "ja-JP"
/// try configuration.setEndpoint("token", to: URL(string: "http://127.0.0.1:9199/token")!)
/// let line = LINEProvider(configuration: configuration)
/// ```
public struct LINEConfiguration: Hashable, Sendable {
  /// Whether the consent screen offers to add the channel's LINE Official Account as a friend
  /// (`bot_prompt`).
  public enum BotPrompt: String, Hashable, Sendable, Codable {
    /// An option on the consent screen.
    case normal
    /// A separate screen after consent.
    case aggressive
  }

  /// The endpoint names ``setEndpoint(_:to:)`` accepts (and `--endpoint NAME=URL`):
  /// `authorize`, `token` (exchange and refresh), `verify` (access-token verification),
  /// `profile` (`/v2/profile`), `revoke`, `jwks` (ES256 ID-token keys) and `channel_token`
  /// (the stateless channel access token, which ``LINEProvider/validateConfiguration()``
  /// asks for).
  public static let endpointNames = [
    "authorize", "token", "verify", "profile", "revoke", "jwks", "channel_token",
  ]

  /// The issuer of LINE ID tokens.
  public static let issuer = "https://access.line.me"

  /// The channel id (the OAuth `client_id`, and the ID tokens' `aud`).
  public var channelID: String
  /// The channel secret: authenticates token requests and keys HS256 ID tokens. `nil` when
  /// the channel only verifies what its app sends: access tokens and ES256 ID tokens need the
  /// channel id alone (``LINEProvider/verify(_:)``); logins, HS256 ID tokens and requests
  /// that send `client_secret` then fail with ``AuthError/Code/configuration``.
  public var channelSecret: Secret?
  /// The scopes, space-separated; `profile` and `openid` by default (`email` needs `openid`
  /// and LINE's approval).
  public var scopes: [String]
  /// `prompt` (`consent` forces the consent screen), if any.
  public var prompt: String?
  /// `bot_prompt`, if any.
  public var botPrompt: BotPrompt?
  /// `ui_locales` (for example `ja-JP en-US`), if any.
  public var uiLocales: String?
  /// `max_age` in seconds, if any; the ID token's `auth_time` is then checked.
  public var maxAge: Int?
  /// Further authorization parameters (`initial_amr_display`, `switch_amr`,
  /// `disable_auto_login`, ...).
  public var additionalAuthorizationParameters: [URLQueryItem]
  /// Whether refresh and revoke send `client_secret`: required for channels whose app type is
  /// "Web app" only, ignored by LINE for mobile channels. `true` by default.
  public var sendsClientSecretOnRefresh: Bool
  /// Whether logins ask for ES256 ID tokens (keys from LINE's JWKS, with a `kid`) instead of
  /// the HS256 ones keyed with the channel secret that web logins get by default: sends
  /// `id_token_key_type=JWK` on the authorization request and the code exchange (where LINE's
  /// own SDKs send it). `false` by default. Either kind verifies.
  public var requestsES256IDTokens: Bool = false
  /// Clock-skew tolerance for ID-token time claims, in seconds.
  public var leeway: TimeInterval
  /// How long a login may wait for its callback.
  public var pendingLoginLifetime: TimeInterval
  /// The timeout of each request to LINE.
  public var requestTimeout: Duration
  /// The emulator every default endpoint is mapped onto; explicit endpoint overrides are
  /// used as given. Set it to `nil` to ignore `SOCIALLOGIN_EMULATOR_HOST`.
  public var emulatorHost: EmulatorHost? {
    get { endpoints.emulator }
    set { endpoints.emulator = newValue }
  }
  /// The endpoint overrides and the emulator, resolved by the rule every provider shares.
  private var endpoints: EndpointTable

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - channelID: The channel id.
  ///   - channelSecret: The channel secret; `nil` (the default) for a backend that only
  ///     verifies access tokens and ES256 ID tokens.
  ///   - scopes: The scopes; `profile` and `openid` by default.
  ///   - emulatorHost: The emulator (a loopback host); `nil` reads
  ///     `SOCIALLOGIN_EMULATOR_HOST` from `environment`.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; pass `[:]` so that no environment variable can move where requests go.
  /// - Throws: ``AuthError/Code/configuration`` for an empty channel id, an empty channel
  ///   secret (`nil` means none), or a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host (the message names
  ///   the variable), or an `emulatorHost` that is not a loopback host.
  public init(
    channelID: String,
    channelSecret: Secret? = nil,
    scopes: [String] = ["profile", "openid"],
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) {
    guard !channelID.isEmpty else {
      throw AuthError(.configuration, "The LINE channel id is empty.", provider: .line)
    }
    if let channelSecret, channelSecret.isEmpty {
      // An empty secret would key HS256 ID tokens with "" and every token would then fail
      // "signature does not verify", blaming the users' tokens for the channel's settings.
      throw AuthError(
        .configuration,
        "The LINE channel secret (LINEConfiguration.channelSecret) is empty; pass nil for a "
          + "backend that only verifies access tokens and ES256 ID tokens, or the channel "
          + "secret from the LINE Developers Console.",
        provider: .line)
    }
    self.channelID = channelID
    self.channelSecret = channelSecret
    self.scopes = scopes
    prompt = nil
    botPrompt = nil
    uiLocales = nil
    maxAge = nil
    additionalAuthorizationParameters = []
    sendsClientSecretOnRefresh = true
    leeway = 60
    pendingLoginLifetime = 600
    requestTimeout = .seconds(30)
    endpoints = try EndpointTable(
      provider: .line, names: Self.endpointNames, emulatorHost: emulatorHost,
      environment: environment)
  }

  /// Points the endpoint `name` (one of ``endpointNames``) at `url`.
  ///
  /// ```swift
  /// try configuration.setEndpoint("profile", to: URL(string: "https://staging.test/profile")!)
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
  ///   `https` nor `http` to a loopback host (every endpoint carries a secret or a token).
  public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
    try endpoints.set(name, to: url)
  }

  /// `https://access.line.me/oauth2/v2.1/authorize`.
  public var authorizeEndpoint: URL {
    endpoints.url("authorize", production: "https://access.line.me/oauth2/v2.1/authorize")
  }
  /// `https://api.line.me/oauth2/v2.1/token`.
  public var tokenEndpoint: URL {
    endpoints.url("token", production: "https://api.line.me/oauth2/v2.1/token")
  }
  /// `https://api.line.me/oauth2/v2.1/verify`.
  public var verifyEndpoint: URL {
    endpoints.url("verify", production: "https://api.line.me/oauth2/v2.1/verify")
  }
  /// `https://api.line.me/v2/profile`.
  public var profileEndpoint: URL {
    endpoints.url("profile", production: "https://api.line.me/v2/profile")
  }
  /// `https://api.line.me/oauth2/v2.1/revoke`.
  public var revokeEndpoint: URL {
    endpoints.url("revoke", production: "https://api.line.me/oauth2/v2.1/revoke")
  }
  /// `https://api.line.me/oauth2/v2.1/certs`.
  public var jwksEndpoint: URL {
    endpoints.url("jwks", production: "https://api.line.me/oauth2/v2.1/certs")
  }
  /// `https://api.line.me/oauth2/v3/token`: issues a stateless channel access token for the
  /// channel id and secret (`grant_type=client_credentials`).
  public var channelTokenEndpoint: URL {
    endpoints.url("channel_token", production: "https://api.line.me/oauth2/v3/token")
  }

  /// `id_token_key_type=JWK` when ``requestsES256IDTokens``.
  var idTokenKeyTypeFields: [(String, String)] {
    requestsES256IDTokens ? [("id_token_key_type", "JWK")] : []
  }

  /// The authorization parameters after the OAuth ones, in order.
  var authorizationParameters: [URLQueryItem] {
    var items: [URLQueryItem] = []
    if let prompt { items.append(URLQueryItem(name: "prompt", value: prompt)) }
    if let botPrompt { items.append(URLQueryItem(name: "bot_prompt", value: botPrompt.rawValue)) }
    if let uiLocales { items.append(URLQueryItem(name: "ui_locales", value: uiLocales)) }
    if let maxAge { items.append(URLQueryItem(name: "max_age", value: String(maxAge))) }
    items += idTokenKeyTypeFields.map { URLQueryItem(name: $0.0, value: $0.1) }
    return items + additionalAuthorizationParameters
  }
}
