import Foundation
import SocialLogin

/// `login PROVIDER --device`: the device authorization grant, for machines without a browser.
extension LoginCommands {
  /// `--device`.
  static let device = Option.flag(
    "--device",
    help: "sign in without a browser on this machine: show a code to enter on another device "
      + "(providers with a device login: google, facebook with --client-token, and oidc when "
      + "the issuer offers one)")

  /// Runs a device login with `provider` and prints the identity like the browser login.
  ///
  /// Exit statuses: 0 signed in; 1 denied (`access_denied`) or expired (`expired_token`) or
  /// another provider error; 2 when the provider or issuer has no device login.
  static func runDevice(
    _ provider: any LoginProvider, profile: SessionProfile, location: StoreLocation,
    scopes: [String]?, qr: Bool = false
  ) async throws -> Int32 {
    let client = try LoginClient(providers: [provider], store: location.store)
    let session: SessionActor
    do {
      session = try await client.deviceLogin(provider.id, scopes: scopes) { prompt in
        Console.error(Self.instructions(prompt, now: Date()))
        if qr, let code = qrText(for: prompt) { Console.error(code) }
      }
    } catch is CancellationError {
      throw CommandExit(status: 130, message: "Login cancelled.")
    } catch let error as AuthError where error.code == .unsupported {
      throw CommandExit(
        status: 2,
        message: CommandRunner.describe(error)
          + " Sign in without --device (with --no-browser to only print the URL).")
    } catch let error as AuthError where error.code == .deviceCodeExpired && error.oauth == nil {
      // Expired on our side, before the provider said so: still name the standard error.
      throw CommandExit(
        status: 1,
        message: CommandRunner.describe(error) + " (expired_token: the code's time ran out)")
    }
    return try await finish(session, profile: profile, location: location)
  }

  /// What stderr shows: where to go, the code to enter (always, also with the complete URI:
  /// the user compares it on the approval page, RFC 8628 §5.4), and when it expires.
  static func instructions(_ prompt: DeviceLoginPrompt, now: Date) -> String {
    var text = "To sign in, open \(prompt.verificationURI.absoluteString) on another device "
    text += "and enter the code: \(prompt.userCode)\n"
    if let complete = prompt.verificationURIComplete {
      text += "Or open \(complete.absoluteString) and check that it shows the same code.\n"
    }
    let minutes = max(0, Int((prompt.expiresAt.timeIntervalSince(now) / 60).rounded(.down)))
    let expiry = prompt.expiresAt.formatted(.iso8601)
    text += "The code expires at \(expiry) (in \(minutes) min). Waiting for approval...\n"
    return text
  }
}
