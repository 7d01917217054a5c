import Foundation

/// How a ``GoogleProvider`` talks to Google's OpenID Connect service.
///
/// Every endpoint can be pointed elsewhere by name (the CLI's `--endpoint NAME=URL`), and all
/// of them are mapped onto the SocialLogin emulator when `SOCIALLOGIN_EMULATOR_HOST` is set.
///
/// ```swift
/// var configuration = try GoogleConfiguration(
///   clientID: "1234-web.apps.googleusercontent.com",
///   clientSecret: Secret(environment["GOOGLE_CLIENT_SECRET"] ?? ""))
/// configuration.hostedDomains = ["example.com"]            // Workspace accounts only
/// configuration.appClientIDs = ["1234-android.apps.googleusercontent.com"]
/// let google = GoogleProvider(configuration: configuration)
/// ```
public struct GoogleConfiguration: Hashable, Sendable {
  /// The endpoint names ``setEndpoint(_:to:)`` accepts (and `--endpoint NAME=URL`):
  /// `authorize`, `token` (exchange and refresh), `userinfo`, `keys` (the JWKS of ID-token
  /// keys), `revoke`, `device` (the device authorization endpoint of "OAuth for TV and
  /// Limited-Input Device Applications") and `risc-configuration` (Cross-Account Protection).
  public static let endpointNames = [
    "authorize", "token", "userinfo", "keys", "revoke", "device", "risc-configuration",
  ]

  /// The issuer Google's discovery document names; ID tokens carry it or ``legacyIssuer``.
  public static let issuer = "https://accounts.google.com"
  /// The issuer without its scheme, which Google also puts in `iss`.
  public static let legacyIssuer = "accounts.google.com"

  /// The OAuth client id of the server (a "Web application" client): the `aud` of the ID
  /// tokens of a web login, and of those an app obtained for this server.
  public var clientID: String
  /// The client secret; `nil` for a backend that only verifies ID tokens that apps send.
  public var clientSecret: Secret?
  /// The scopes; `openid`, `email` and `profile` by default (`openid` is always sent).
  public var scopes: [String]
  /// Whether a login asks for a refresh token: `access_type=offline`, with `prompt=consent`
  /// so that a returning user's login gets one too (Google issues it only on consent).
  /// `true` by default; without it a session ends when its access token does.
  public var offlineAccess: Bool
  /// The Google Workspace domains whose accounts may sign in (the ID token's `hd`); empty
  /// (the default) lets every Google account in. The first is sent as the `hd` hint (`*`
  /// when there are several), which only preselects accounts: the SDK enforces the list on
  /// every ID token.
  public var hostedDomains: [String]
  /// The client ids of this service's Android and iOS apps: an ID token such an app
  /// obtained names the app in `azp` (and this server's ``clientID`` in `aud`, or the app
  /// itself when the app set no server client id). Empty by default.
  public var appClientIDs: [String]
  /// `login_hint` (an email address or a `sub`), if any.
  public var loginHint: String?
  /// Further authorization parameters (`include_granted_scopes`, ...).
  public var additionalAuthorizationParameters: [URLQueryItem]
  /// Clock-skew tolerance for ID-token time claims, in seconds.
  public var leeway: TimeInterval
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
  ///   - clientID: The server's OAuth client id.
  ///   - clientSecret: Its secret; `nil` for a backend that only verifies ID tokens.
  ///   - scopes: The scopes; `openid email profile` by default.
  ///   - emulatorHost: The emulator (a loopback host); `nil` reads
  ///     `SOCIALLOGIN_EMULATOR_HOST` from `environment`.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read; pass `[:]` so that no
  ///     environment variable can move where requests go.
  /// - Throws: ``AuthError/Code/configuration`` for an empty client id, an empty client
  ///   secret (`nil` means none), or an emulator host that is not a loopback host.
  public init(
    clientID: String,
    clientSecret: Secret? = nil,
    scopes: [String] = ["openid", "email", "profile"],
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) {
    guard !clientID.isEmpty else {
      throw AuthError(
        .configuration,
        "The Google client id (GoogleConfiguration.clientID) is empty; copy the Web "
          + "application client id from Google Cloud console, APIs & Services, Credentials.",
        provider: .google)
    }
    if let clientSecret, clientSecret.isEmpty {
      throw AuthError(
        .configuration,
        "The Google client secret (GoogleConfiguration.clientSecret) is empty; pass nil for a "
          + "backend that only verifies ID tokens.",
        provider: .google)
    }
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    offlineAccess = true
    hostedDomains = []
    appClientIDs = []
    loginHint = nil
    additionalAuthorizationParameters = []
    leeway = 60
    endpoints = try EndpointTable(
      provider: .google, label: "Google", names: Self.endpointNames, emulatorHost: emulatorHost,
      environment: environment)
  }

  /// Points the endpoint `name` (one of ``endpointNames``) at `url`.
  ///
  /// ```swift
  /// try configuration.setEndpoint("keys", to: URL(string: "http://127.0.0.1:9199/certs")!)
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
  ///   `https` nor `http` to a loopback host.
  public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
    try endpoints.set(name, to: url)
  }

  /// `https://accounts.google.com/o/oauth2/v2/auth`.
  public var authorizeEndpoint: URL {
    describedURL("authorize")
  }
  /// `https://oauth2.googleapis.com/token`.
  public var tokenEndpoint: URL {
    describedURL("token")
  }
  /// `https://openidconnect.googleapis.com/v1/userinfo`.
  public var userinfoEndpoint: URL {
    describedURL("userinfo")
  }
  /// `https://www.googleapis.com/oauth2/v3/certs`.
  public var keysEndpoint: URL {
    describedURL("keys")
  }
  /// `https://oauth2.googleapis.com/revoke`.
  public var revokeEndpoint: URL {
    describedURL("revoke")
  }
  /// `https://oauth2.googleapis.com/device/code`: device logins (RFC 8628, with Google's
  /// `verification_url`). Google issues device codes only to clients of the type "TVs and
  /// Limited Input devices", and only for a limited scope set (sign-in: `openid email profile`).
  public var deviceEndpoint: URL {
    describedURL("device")
  }
  /// Google's RISC configuration (`issuer`, `jwks_uri`) for Cross-Account Protection events.
  public var riscConfigurationEndpoint: URL {
    describedURL("risc-configuration")
  }

  /// The URL of the endpoint `name`: its override, or its production URL from
  /// ``ProviderDescription/google`` (where every name of ``endpointNames`` is) mapped onto the
  /// emulator.
  private func describedURL(_ name: String) -> URL {
    endpoints.url(name, production: ProviderDescription.google.endpoint(name)?.production ?? "")
  }

  /// The authorization parameters Google adds to the OAuth ones, in order.
  var authorizationParameters: [URLQueryItem] {
    var items: [URLQueryItem] = []
    if offlineAccess {
      items.append(URLQueryItem(name: "access_type", value: "offline"))
      items.append(URLQueryItem(name: "prompt", value: "consent"))
    }
    if let hint = hostedDomainHint { items.append(URLQueryItem(name: "hd", value: hint)) }
    if let loginHint { items.append(URLQueryItem(name: "login_hint", value: loginHint)) }
    return items + additionalAuthorizationParameters
  }

  /// The `hd` hint: the one domain, or `*` (any Workspace account) for several.
  var hostedDomainHint: String? {
    switch hostedDomains.count {
    case 0: nil
    case 1: hostedDomains[0]
    default: "*"
    }
  }

  /// The engine's configuration: ``ProviderDescription/google`` with this configuration's
  /// endpoint table (overrides and emulator), scopes (`openid` always), the apps' client ids
  /// as further audiences (and so authorized parties), the run-time authorization parameters
  /// and, with hosted domains, the `hd` rule.
  var described: DescribedProviderConfiguration {
    var configuration = DescribedProviderConfiguration(
      checked: .google, clientID: clientID, clientSecret: clientSecret, endpoints: endpoints)
    configuration.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    configuration.audiences = appClientIDs
    configuration.leeway = leeway
    configuration.authorizationParameters = authorizationParameters
    if !hostedDomains.isEmpty {
      configuration.requiredClaims = [
        ClaimRequirement(
          claim: "hd", allowedValues: hostedDomains, errorCode: .hostedDomainMismatch)
      ]
    }
    return configuration
  }
}
