import Foundation
import SocialLogin
import SocialLoginEmulator

/// The emulator's default apps, used when a command has an emulator host and no client id,
/// so `sociallogin login twitter --emulator HOST:PORT` needs no other flag. The constants are
/// the emulator module's public ``SocialLoginEmulator/EmulatorApps``.
enum EmulatorDefaults {
  /// A default app's public test credentials.
  struct App: Sendable {
    var clientID: String
    var clientSecret: Secret?
    /// A described provider's app id where it differs from the client id (Kakao's).
    var appID: String?
    /// A described provider's parameters for this app (Microsoft's `tenant`).
    var parameters: [String: String] = [:]
  }

  /// The emulator's default app for `kind` (`oauth1`: X's OAuth 1.0a consumer; `described`:
  /// the description of a provider loaded from a file).
  static func defaultApp(
    for kind: ProviderKind, oauth1: Bool, described: ProviderDescription? = nil
  ) -> App? {
    switch kind {
    case .facebook:
      return App(
        clientID: EmulatorApps.facebookAppID, clientSecret: Secret(EmulatorApps.facebookAppSecret))
    case .twitter where oauth1:
      return App(
        clientID: EmulatorApps.twitterConsumerKey,
        clientSecret: Secret(EmulatorApps.twitterConsumerSecret))
    case .twitter:
      return App(
        clientID: EmulatorApps.twitterClientID,
        clientSecret: Secret(EmulatorApps.twitterClientSecret))
    case .line:
      return App(
        clientID: EmulatorApps.lineChannelID, clientSecret: Secret(EmulatorApps.lineChannelSecret))
    case .google:
      return App(
        clientID: EmulatorApps.googleClientID,
        clientSecret: Secret(EmulatorApps.googleClientSecret))
    case .apple:
      // The client secret is a JWT signed with the emulator's .p8 (``appleKey``).
      return App(clientID: EmulatorApps.appleServicesID, clientSecret: nil)
    case .oidc:
      return App(
        clientID: EmulatorApps.oidcClientID, clientSecret: Secret(EmulatorApps.oidcClientSecret))
    case .firebase:
      return App(clientID: EmulatorApps.firebaseAPIKey, clientSecret: nil)
    default:
      // A provider described in a file (`login custom`) gets the app
      // `sociallogin emulator --provider-file` serves it with.
      return described.map { App(described: EmulatorApps.defaultApp(for: $0)) }
        ?? EmulatorApps.describedApp(for: kind.providerID).map(App.init(described:))
    }
  }

  /// The emulator's Sign in with Apple team id, key id and `.p8`.
  static let appleKey = (
    teamID: EmulatorApps.appleTeamID, keyID: EmulatorApps.appleKeyID,
    privateKeyPEM: EmulatorApps.applePrivateKeyPEM
  )

  /// The emulator's OpenID issuer: `http://HOST:PORT/oidc`.
  static func oidcIssuer(_ emulator: EmulatorHost) -> URL? {
    URL(string: emulator.baseURL.absoluteString + "/oidc")
  }
}

extension EmulatorDefaults.App {
  /// The app of a described provider.
  init(described app: EmulatorApps.DescribedApp) {
    self.init(
      clientID: app.clientID, clientSecret: Secret(app.clientSecret), appID: app.appID,
      parameters: app.parameters)
  }
}
