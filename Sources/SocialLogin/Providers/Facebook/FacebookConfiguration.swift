import Foundation

/// How a ``FacebookProvider`` talks to Facebook Login and the Graph API.
///
/// Every endpoint can be pointed elsewhere by name (the CLI's `--endpoint NAME=URL`), and all
/// of them are mapped onto the SocialLogin emulator when `SOCIALLOGIN_EMULATOR_HOST` is set.
///
/// ```swift
/// var configuration = try FacebookConfiguration(
///   appID: "1234567890", appSecret: Secret(environment["FB_APP_SECRET"] ?? ""),
///   scopes: ["public_profile", "email"])
/// configuration.exchangesForLongLivedToken = true      // ~60-day token after login
/// configuration.renewal = .reexchange                  // renew before expiry, see Renewal
/// try configuration.setEndpoint("me", to: URL(string: "http://127.0.0.1:9199/me")!)
/// let facebook = FacebookProvider(configuration: configuration)
///
/// // A backend that only verifies Limited Login ID tokens needs the app id alone:
/// let verifier = FacebookProvider(configuration: try FacebookConfiguration(appID: "1234567890"))
/// ```
public struct FacebookConfiguration: Hashable, Sendable {
  /// What to do as a user access token approaches its expiry. Facebook issues no refresh
  /// tokens, so a session cannot be refreshed in the OAuth sense.
  public enum Renewal: String, Hashable, Sendable, Codable {
    /// Nothing: when the token lapses the session signs out with
    /// ``SignOutReason/accessTokenExpired``. The provider does not announce
    /// ``ProviderCapabilities/refresh``.
    case none
    /// Exchange the still-valid token for a new long-lived one (`grant_type=fb_exchange_token`)
    /// ahead of expiry. The provider then announces ``ProviderCapabilities/refresh`` and keeps
    /// the exchangeable token in ``Credential/refreshToken`` (it is the access token itself:
    /// Facebook exchanges the token it is given). A token that already expired cannot be
    /// exchanged; Facebook's `190` answer signs the session out with its typed reason.
    case reexchange
  }

  /// The endpoint names ``setEndpoint(_:to:)`` accepts (and `--endpoint NAME=URL`):
  /// `dialog` (the login dialog), `access_token` (code and token exchange), `debug_token`
  /// (token inspection), `me` (the profile; `me/permissions` for revocation), `jwks`
  /// (Limited Login ID-token keys), and `device_login` and `device_login_status` (Facebook
  /// Login for Devices).
  public static let endpointNames = [
    "dialog", "access_token", "debug_token", "me", "jwks", "device_login", "device_login_status",
  ]

  /// The app id (the OAuth `client_id`).
  public var appID: String
  /// The app secret: authenticates code exchanges and keys every `appsecret_proof`. `nil`
  /// when the app only verifies Limited Login ID tokens (``FacebookProvider/verify(_:)`` with
  /// `.idToken`, which needs the app id alone); everything else then fails with
  /// ``AuthError/Code/configuration``.
  public var appSecret: Secret?
  /// The app's client token (App Dashboard → Settings → Advanced), the only credential
  /// Facebook Login for Devices uses (`access_token={app-id}|{client-token}`); `nil` when the
  /// app does not sign in devices. It is not a secret the way the app secret is: Facebook
  /// means it to be embedded in device and mobile apps.
  public var clientToken: Secret?
  /// The permissions to request, joined with commas in the dialog.
  public var scopes: [String]
  /// The Graph API version in every default endpoint path, ``FacebookGraphAPIVersion/current`` (`v26.0`) by default.
  public var graphAPIVersion: String
  /// The `/me` fields to ask for; without `fields` Graph returns only `id` and `name`.
  public var profileFields: [String]
  /// Whether a login exchanges its token for a long-lived one (`fb_exchange_token`).
  public var exchangesForLongLivedToken: Bool
  /// Whether a login asks `debug_token` about the new token: proves it was issued to this app
  /// and learns `expires_at` (when `expires_in` was absent) and `data_access_expires_at`.
  public var inspectsTokenAfterLogin: Bool
  /// What happens as the token approaches expiry; see ``Renewal``.
  public var renewal: Renewal
  /// The exact issuer Limited Login ID tokens must carry; `nil` (the default) accepts what
  /// Facebook's own iOS SDK accepts: an `https` issuer whose host is `facebook.com` or ends
  /// in `.facebook.com` (`https://www.facebook.com`, `https://limited.facebook.com`).
  public var limitedLoginIssuer: String?
  /// Clock-skew tolerance for ID-token time claims, in seconds.
  public var leeway: TimeInterval
  /// How long a login may wait for its callback.
  public var pendingLoginLifetime: TimeInterval
  /// The timeout of each request to Facebook.
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
  ///   - appID: The app id.
  ///   - appSecret: The app secret; `nil` (the default) for an app that only verifies
  ///     Limited Login ID tokens.
  ///   - scopes: The permissions; `public_profile` and `email` by default.
  ///   - graphAPIVersion: `vMAJOR.MINOR`; ``FacebookGraphAPIVersion/current`` (`v26.0`) by default.
  ///   - emulatorHost: The emulator (a loopback host); `nil` reads
  ///     `SOCIALLOGIN_EMULATOR_HOST` from `environment`.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read: the process's environment by
  ///     default; pass `[:]` so that no environment variable can move where requests go.
  /// - Throws: ``AuthError/Code/configuration`` for an empty app id, an empty app secret
  ///   (`nil` means none), a malformed version, a
  ///   `SOCIALLOGIN_EMULATOR_HOST` that is malformed or not a loopback host (the message names
  ///   the variable), or an `emulatorHost` that is not a loopback host.
  public init(
    appID: String,
    appSecret: Secret? = nil,
    scopes: [String] = ["public_profile", "email"],
    graphAPIVersion: String = FacebookGraphAPIVersion.current,
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) {
    guard !appID.isEmpty else {
      throw AuthError(.configuration, "The Facebook app id is empty.", provider: .facebook)
    }
    if let appSecret, appSecret.isEmpty {
      throw AuthError(
        .configuration,
        "The Facebook app secret (FacebookConfiguration.appSecret) is empty; pass nil for a "
          + "backend that only verifies Limited Login ID tokens, or the app secret.",
        provider: .facebook)
    }
    guard Self.isVersion(graphAPIVersion) else {
      throw AuthError(
        .configuration,
        "The Graph API version '\(ErrorText.excerpt(graphAPIVersion, limit: 32))' is not "
          + "vMAJOR.MINOR (for example v26.0).",
        provider: .facebook)
    }
    self.appID = appID
    self.appSecret = appSecret
    clientToken = nil
    self.scopes = scopes
    self.graphAPIVersion = graphAPIVersion
    profileFields = ["id", "name", "email", "picture"]
    exchangesForLongLivedToken = false
    inspectsTokenAfterLogin = true
    renewal = .none
    limitedLoginIssuer = nil
    leeway = 60
    pendingLoginLifetime = 600
    requestTimeout = .seconds(30)
    endpoints = try EndpointTable(
      provider: .facebook, names: Self.endpointNames, emulatorHost: emulatorHost,
      environment: environment)
  }

  /// The app secret, for `operation`; a configuration without one fails.
  ///
  /// - Throws: ``AuthError/Code/configuration`` naming `operation` when ``appSecret`` is
  ///   `nil` or empty.
  func requiredAppSecret(for operation: String) throws(AuthError) -> Secret {
    guard let appSecret, !appSecret.isEmpty else {
      throw AuthError(
        .configuration,
        "\(operation) needs the Facebook app secret, but none is configured (verifying "
          + "Limited Login ID tokens needs the app id alone).",
        provider: .facebook)
    }
    return appSecret
  }

  /// Points the endpoint `name` (one of ``endpointNames``) at `url`.
  ///
  /// ```swift
  /// try configuration.setEndpoint("debug_token", to: URL(string: "https://staging.test/debug")!)
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
  ///   `https` nor `http` to a loopback host (every endpoint carries a secret or a token).
  public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
    try endpoints.set(name, to: url)
  }

  /// The login dialog, `https://www.facebook.com/{version}/dialog/oauth`.
  public var dialogEndpoint: URL {
    endpoints.url("dialog", production: "https://www.facebook.com/\(graphAPIVersion)/dialog/oauth")
  }
  /// The code and token exchange, `https://graph.facebook.com/{version}/oauth/access_token`.
  public var accessTokenEndpoint: URL {
    endpoints.url(
      "access_token", production: "https://graph.facebook.com/\(graphAPIVersion)/oauth/access_token"
    )
  }
  /// Token inspection, `https://graph.facebook.com/{version}/debug_token`.
  public var debugTokenEndpoint: URL {
    endpoints.url(
      "debug_token", production: "https://graph.facebook.com/\(graphAPIVersion)/debug_token")
  }
  /// The profile, `https://graph.facebook.com/{version}/me`.
  public var meEndpoint: URL {
    endpoints.url("me", production: "https://graph.facebook.com/\(graphAPIVersion)/me")
  }
  /// The Limited Login keys, `https://limited.facebook.com/.well-known/oauth/openid/jwks/`.
  public var jwksEndpoint: URL {
    endpoints.url("jwks", production: "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
  }

  /// Facebook Login for Devices' first step,
  /// `https://graph.facebook.com/{version}/device/login`.
  public var deviceLoginEndpoint: URL {
    endpoints.url(
      "device_login", production: "https://graph.facebook.com/\(graphAPIVersion)/device/login")
  }
  /// Facebook Login for Devices' poll,
  /// `https://graph.facebook.com/{version}/device/login_status`.
  public var deviceLoginStatusEndpoint: URL {
    endpoints.url(
      "device_login_status",
      production: "https://graph.facebook.com/\(graphAPIVersion)/device/login_status")
  }

  private static func isVersion(_ text: String) -> Bool {
    guard text.hasPrefix("v") else { return false }
    let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 2
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 4 && part.allSatisfy { ("0"..."9").contains($0) }
      }
  }
}
