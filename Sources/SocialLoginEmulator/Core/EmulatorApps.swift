import SocialLogin
import SocialLoginCrypto

/// The apps (clients) every emulator knows from the start. They are public on purpose: the
/// emulator is for tests and demos, so `sociallogin login twitter --emulator HOST:PORT` needs
/// no other flag and tests can construct providers without any real credentials.
///
/// ```swift
/// let x = XProvider(configuration: .init(
///   clientID: EmulatorApps.twitterClientID,
///   clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host))
/// ```
public enum EmulatorApps {
  /// The Facebook app id (Graph ids are decimal strings).
  public static let facebookAppID = "1000000000000001"
  /// The Facebook app secret (`appsecret_proof` is keyed by it).
  public static let facebookAppSecret = "emulator-facebook-app-secret"
  /// The Facebook app's client token, which Facebook Login for Devices sends as
  /// `access_token={app-id}|{client-token}` (never the app secret).
  public static let facebookClientToken = "emulator-facebook-client-token"
  /// A second Facebook app, for tests of a token issued to another app.
  public static let facebookOtherAppID = "1000000000000002"
  /// The second Facebook app's secret.
  public static let facebookOtherAppSecret = "emulator-facebook-other-app-secret"
  /// The X OAuth 2.0 client id of a confidential client (Basic authentication).
  public static let twitterClientID = "emulator-x-client"
  /// The X OAuth 2.0 client secret.
  public static let twitterClientSecret = "emulator-x-client-secret"
  /// An X OAuth 2.0 public client (PKCE, `client_id` in the body, no secret).
  public static let twitterPublicClientID = "emulator-x-public-client"
  /// The X OAuth 1.0a consumer (API) key.
  public static let twitterConsumerKey = "emulator-x-consumer-key"
  /// The X OAuth 1.0a consumer secret.
  public static let twitterConsumerSecret = "emulator-x-consumer-secret"
  /// The LINE channel id (a decimal string).
  public static let lineChannelID = "1000000001"
  /// The LINE channel secret (the HS256 key of web-login ID tokens).
  public static let lineChannelSecret = "emulator-line-channel-secret"
  /// The Google OAuth client id of the server (a "Web application" client).
  public static let googleClientID = "1000000003-emulator.apps.googleusercontent.com"
  /// The Google client secret.
  public static let googleClientSecret = "emulator-google-client-secret"
  /// The client id of the service's Android app, which names it in `azp` of its ID tokens.
  public static let googleAndroidClientID = "1000000003-android.apps.googleusercontent.com"
  /// The generic OpenID provider's client id.
  public static let oidcClientID = "emulator-oidc-client"
  /// The generic OpenID provider's client secret.
  public static let oidcClientSecret = "emulator-oidc-client-secret"

  /// The Services ID of the emulated Sign in with Apple web app (its web client id).
  public static let appleServicesID = "com.example.emulator.web"
  /// The bundle id of the emulated Apple app (native codes and identity tokens).
  public static let appleBundleID = "com.example.emulator.app"
  /// The emulated Apple team id (the client secret's `iss`).
  public static let appleTeamID = "EMUTEAM001"
  /// The id of the emulated `.p8` key (the client secret's `kid`).
  public static let appleKeyID = "EMUKEY0001"
  /// The emulated `.p8` (PKCS #8 PEM, P-256): sign client secrets with it. A fixed, public
  /// key: it authenticates nothing outside the emulator.
  public static let applePrivateKeyPEM: String = appleKey.pkcs8PEM
  /// The key behind ``applePrivateKeyPEM``.
  static let appleKey: P256PrivateKey =
    (try? P256PrivateKey(rawRepresentation: Array(repeating: 0x5A, count: 32)))
    ?? P256PrivateKey()

  /// The default apps: printed by `sociallogin emulator` at start and listed by `GET /` under
  /// `apps` (the second Facebook app too, for token-substitution tests in any language).
  public static var summary: [(provider: String, clientID: String, clientSecret: String)] {
    [
      ("facebook", facebookAppID, facebookAppSecret),
      ("facebook (another app)", facebookOtherAppID, facebookOtherAppSecret),
      ("twitter (OAuth 2.0)", twitterClientID, twitterClientSecret),
      ("twitter (OAuth 2.0 public)", twitterPublicClientID, "-"),
      ("twitter (OAuth 1.0a)", twitterConsumerKey, twitterConsumerSecret),
      ("line", lineChannelID, lineChannelSecret),
      ("oidc", oidcClientID, oidcClientSecret),
      ("google", googleClientID, googleClientSecret),
      ("apple", appleServicesID, "client secret JWT: team \(appleTeamID), key \(appleKeyID)"),
    ]
      + ProviderDescription.builtIn.compactMap { description in
        describedApp(for: description.id).map {
          (description.id.rawValue, $0.clientID, $0.clientSecret)
        }
      }
  }
}
