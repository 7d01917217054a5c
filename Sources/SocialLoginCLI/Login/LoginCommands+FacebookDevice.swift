import Foundation
import SocialLogin
import SocialLoginEmulator

/// `login facebook --app-id ID --client-token T --device`: Facebook Login for Devices, which
/// uses the app's client token and never the app secret.
extension LoginCommands {
  /// `login facebook --app-id ID`: Facebook's name for `--client-id`.
  static let appID = Option.value(
    "--app-id", "ID", help: "the Facebook app id (the same as --client-id)")
  /// `login facebook --client-token T`.
  static let clientToken = Option.value(
    "--client-token", "T",
    help: "with --device: the app's client token (App Dashboard > Settings > Advanced) "
      + "(default: $\(clientTokenVariable)); a device login never uses the app secret")
  /// Where the client token is read when `--client-token` is not given.
  static let clientTokenVariable = "SOCIALLOGIN_FACEBOOK_CLIENT_TOKEN"
  /// Facebook's own options.
  static let facebookOptions = [appID, clientToken]

  /// Settles what a device login needs in `resolved`: for Facebook, the client token
  /// (`--client-token`, `$SOCIALLOGIN_FACEBOOK_CLIENT_TOKEN`, or the emulator app's) and no
  /// app secret requirement. An app secret that is configured anyway (`--client-secret-env`,
  /// or the emulator's default app, which requires it like an app with "Require App Secret")
  /// only keys the profile request's `appsecret_proof`; the device requests never carry it.
  static func prepareDevice(_ resolved: inout ProviderFactory.Resolved, _ invocation: Invocation)
    throws
  {
    guard resolved.profile.kind == .facebook else { return }
    resolved.requiresSecret = false
    let given =
      invocation.arguments.value(clientToken)
      ?? invocation.environment[clientTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    if let given {
      resolved.clientToken = Secret(given)
    } else if resolved.profile.usesEmulatorApp {
      resolved.clientToken = Secret(EmulatorApps.facebookClientToken)
    } else {
      throw UsageError(
        "a Facebook device login needs the app's client token: --client-token T (or "
          + "$\(clientTokenVariable); App Dashboard > Settings > Advanced)")
    }
  }
}
