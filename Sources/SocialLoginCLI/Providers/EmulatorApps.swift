import Foundation
import SocialLogin

/// The emulator's default apps, used when a command has an emulator host and no client id,
/// so `sociallogin login twitter --emulator HOST:PORT` needs no other flag.
///
/// **Plug-in point:** the constants belong to the emulator module (branch `emulator`); until
/// it publishes them this returns `nil` and commands ask for `--client-id` as usual.
enum EmulatorApps {
  /// A default app's public test credentials.
  struct App: Sendable {
    var clientID: String
    var clientSecret: Secret?
  }

  /// The emulator's default app for `kind` (`oauth1`: X's OAuth 1.0a consumer).
  static func defaultApp(for kind: ProviderKind, oauth1: Bool) -> App? {
    nil
  }

  /// The emulator's OpenID issuer: `http://HOST:PORT/oidc`.
  static func oidcIssuer(_ emulator: EmulatorHost) -> URL? {
    URL(string: emulator.baseURL.absoluteString + "/oidc")
  }
}
