import Foundation
import SocialLoginCrypto

/// How an ``AppleProvider`` talks to Sign in with Apple.
///
/// Apple authenticates a service with a client secret the service makes itself: an ES256 JWT
/// signed with the `.p8` key from the Apple Developer account (Certificates, Identifiers &
/// Profiles → Keys). The configuration holds that key, the team id and the key id; the
/// provider signs, caches and renews the secret (``clientSecretLifetime``).
///
/// One service usually accepts several audiences: the Services ID of its website and the
/// bundle ids of its iOS apps. ``clientIDs`` lists them all; the first one sends web requests,
/// and a native code is exchanged as the app that obtained it.
///
/// ```swift
/// var configuration = try AppleConfiguration(
///   clientIDs: ["com.example.web", "com.example.app"], teamID: "ABCDE12345",
///   keyID: "XYZ9876543", privateKeyPEM: Secret(String(contentsOfFile: "AuthKey.p8")))
/// try configuration.setEndpoint("keys", to: URL(string: "http://127.0.0.1:9199/keys")!)
/// let apple = AppleProvider(configuration: configuration)
/// ```
public struct AppleConfiguration: Sendable {
  /// The endpoint names ``setEndpoint(_:to:)`` accepts (and `--endpoint NAME=URL`):
  /// `authorize`, `token` (code exchange and refresh), `keys` (the ID-token JWKS) and `revoke`.
  public static let endpointNames = ["authorize", "token", "keys", "revoke"]

  /// The issuer of Apple ID tokens and the `aud` of client secrets.
  public static let issuer = "https://appleid.apple.com"

  /// The longest client-secret lifetime Apple accepts: 15,777,000 s (six months).
  public static let maximumClientSecretLifetime: TimeInterval = 15_777_000

  /// The accepted client ids: a Services ID (web) and bundle ids (native apps). The first
  /// one sends the web login's requests and refreshes of sessions that do not say otherwise.
  public var clientIDs: [String]
  /// The 10-character Team ID (the client secret's `iss`).
  public var teamID: String
  /// The 10-character id of the `.p8` key (the client secret's `kid`).
  public var keyID: String
  /// The `.p8` private key, read once when the configuration is made; `nil` for a backend
  /// that only verifies identity tokens and notifications.
  let privateKey: P256PrivateKey?
  /// The scopes: `name` and `email` by default (then `response_mode=form_post`).
  public var scopes: [String]
  /// How long a client secret the SDK signs is valid; at most
  /// ``maximumClientSecretLifetime``. One hour by default: the SDK signs a new one for
  /// free, and a leaked one is worth little.
  public var clientSecretLifetime: TimeInterval
  /// How long before its expiry a cached client secret is replaced. Five minutes by default.
  public var clientSecretRenewalMargin: TimeInterval
  /// The shortest interval between two *automatic* refreshes of one session (Apple asks
  /// that refresh tokens be validated at most once a day): a day by default; `nil` lets the
  /// session's ``RefreshPolicy`` alone decide. Explicit demands
  /// (``SessionActor/freshAccessToken(minimumTTL:timeout:)`` with a minimum the current token
  /// does not meet, ``SessionActor/forceRefresh(timeout:)``) are never held back.
  public var automaticRefreshInterval: Duration?
  /// Clock-skew tolerance for ID-token time claims, in seconds.
  public var leeway: TimeInterval
  /// How long a login may wait for its callback.
  public var pendingLoginLifetime: TimeInterval
  /// The timeout of each request to Apple.
  public var requestTimeout: Duration
  /// The emulator every default endpoint is mapped onto (under `appleid.apple.com`);
  /// explicit endpoint overrides are used as given.
  public var emulatorHost: EmulatorHost? {
    get { endpoints.emulator }
    set { endpoints.emulator = newValue }
  }
  private var endpoints: EndpointTable

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - clientIDs: The accepted client ids, the web Services ID first.
  ///   - teamID: The Team ID (may be empty without a key).
  ///   - keyID: The key id of the `.p8` key (may be empty without a key).
  ///   - privateKeyPEM: The `.p8` file's text (PKCS #8 PEM, EC P-256); `nil` for a backend
  ///     that only verifies identity tokens and notifications (token and revoke requests then
  ///     fail with ``AuthError/Code/configuration``).
  ///   - scopes: `name` and `email` by default.
  ///   - emulatorHost: The emulator (a loopback host); `nil` reads `SOCIALLOGIN_EMULATOR_HOST`
  ///     from `environment`.
  ///   - environment: Where `SOCIALLOGIN_EMULATOR_HOST` is read; `[:]` so that no variable
  ///     can move where requests go.
  /// - Throws: ``AuthError/Code/configuration`` for no or an empty client id, an empty team
  ///   or key id with a key, a private key that is not a PKCS #8 P-256 PEM (the message says what is
  ///   wrong, never the key), or an emulator host that is not a loopback host.
  public init(
    clientIDs: [String],
    teamID: String,
    keyID: String,
    privateKeyPEM: Secret?,
    scopes: [String] = ["name", "email"],
    emulatorHost: EmulatorHost? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(AuthError) {
    guard !clientIDs.isEmpty, !clientIDs.contains(where: \.isEmpty) else {
      throw AuthError(
        .configuration, "Sign in with Apple needs at least one client id, none empty.",
        provider: .apple)
    }
    guard privateKeyPEM == nil || (!teamID.isEmpty && !keyID.isEmpty) else {
      throw AuthError(
        .configuration, "The Apple team id and key id must not be empty.", provider: .apple)
    }
    self.clientIDs = clientIDs
    self.teamID = teamID
    self.keyID = keyID
    privateKey = try privateKeyPEM.map(Self.privateKey)
    self.scopes = scopes
    clientSecretLifetime = 3600
    clientSecretRenewalMargin = 300
    automaticRefreshInterval = .seconds(86_400)
    leeway = 60
    pendingLoginLifetime = 600
    requestTimeout = .seconds(30)
    endpoints = try EndpointTable(
      provider: .apple, label: "Apple", names: Self.endpointNames, emulatorHost: emulatorHost,
      environment: environment)
  }

  /// The `.p8` key, or a configuration error saying what is wrong with it.
  static func privateKey(_ pem: Secret) throws(AuthError) -> P256PrivateKey {
    do throws(PKCS8Error) {
      return try P256PrivateKey(pkcs8PEM: pem.revealed)
    } catch {
      throw AuthError(
        .configuration,
        "The Apple private key (the .p8 file) could not be read: \(Self.describe(error)).",
        provider: .apple)
    }
  }

  private static func describe(_ error: PKCS8Error) -> String {
    switch error {
    case .invalidPEM(let why): return "not a PKCS #8 PEM block (\(why))"
    case .malformedDER(let why): return "malformed DER (\(why))"
    case .unsupportedVersion: return "an unsupported PKCS #8 or ECPrivateKey version"
    case .unsupportedKeyAlgorithm(let oid): return "not an EC key (algorithm \(oid))"
    case .unsupportedCurve(let oid): return "an EC key on another curve than P-256 (\(oid))"
    case .invalidKey: return "not a valid P-256 private key"
    case .publicKeyMismatch: return "its stored public key does not match the private key"
    }
  }

  /// Points the endpoint `name` (one of ``endpointNames``) at `url`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an unknown name, or a URL that is neither
  ///   `https` nor `http` to a loopback host.
  public mutating func setEndpoint(_ name: String, to url: URL) throws(AuthError) {
    try endpoints.set(name, to: url)
  }

  /// `https://appleid.apple.com/auth/authorize`.
  public var authorizeEndpoint: URL {
    endpoints.url("authorize", production: "https://appleid.apple.com/auth/authorize")
  }
  /// `https://appleid.apple.com/auth/token`.
  public var tokenEndpoint: URL {
    endpoints.url("token", production: "https://appleid.apple.com/auth/token")
  }
  /// `https://appleid.apple.com/auth/keys`.
  public var keysEndpoint: URL {
    endpoints.url("keys", production: "https://appleid.apple.com/auth/keys")
  }
  /// `https://appleid.apple.com/auth/revoke`.
  public var revokeEndpoint: URL {
    endpoints.url("revoke", production: "https://appleid.apple.com/auth/revoke")
  }

  /// The client id that sends web requests: the first of ``clientIDs``.
  public var webClientID: String { clientIDs.first ?? "" }

  /// Whether the authorization asks Apple to POST the callback: Apple requires
  /// `response_mode=form_post` whenever `name` or `email` is requested.
  var usesFormPost: Bool { scopes.contains("name") || scopes.contains("email") }
}
