import Foundation
import SocialLogin

/// `login PROVIDER --no-browser --paste`: the browser login for a machine whose loopback
/// address the user's browser cannot reach (SSH, a container), for providers without a
/// device login.
extension LoginCommands {
  /// `--paste`.
  static let paste = Option.flag(
    "--paste",
    help: "with --no-browser: open the URL anywhere, then paste here the address the browser "
      + "landed on (http://127.0.0.1:PORT/callback?..., which fails to load there)")

  /// The longest pasted address accepted: callbacks are short, and a runaway paste must not
  /// be read into memory without bound.
  static let maximumPastedLength = 16 * 1024

  /// Runs the login with the callback pasted on stdin. The state check is the loopback
  /// login's: the pasted address must carry this login's `state`, or nothing is exchanged.
  static func runPaste(
    _ provider: any LoginProvider, profile: SessionProfile, location: StoreLocation
  ) async throws -> Int32 {
    // Nothing listens on the port: the browser's page fails to load, and the address bar
    // holds the callback. A fixed --redirect-port matches a registered redirect URI.
    let port = profile.redirectPort ?? UInt16.random(in: 49152...65535)
    let redirectURI = "http://127.0.0.1:\(port)/callback"
    let client = try LoginClient(providers: [provider], store: location.store)
    let handle = try await client.beginLogin(provider.id, redirectURI: redirectURI)
    Console.error("Open this URL to sign in: \(handle.url.absoluteString)\n")
    Console.error(
      "Then paste here the address your browser landed on (\(redirectURI)?...) and press "
        + "Enter. (Or forward the port: ssh -L \(port):127.0.0.1:\(port) ...)\n")
    guard let line = readLine(strippingNewline: true) else {
      throw CommandExit(status: 1, message: "error: no address was pasted (end of input).")
    }
    let text = line.trimmingCharacters(in: .whitespaces)
    guard text.utf8.count <= maximumPastedLength, let url = URL(string: text),
      url.absoluteString.hasPrefix(redirectURI + "?")
    else {
      throw CommandExit(
        status: 1,
        message: "error: invalid_callback: the pasted text is not an address starting with "
          + "\(redirectURI)?.")
    }
    let session = try await client.completeLogin(
      callback: try AuthorizationCallback(url: url), expectedState: handle.state)
    return try await finish(session, profile: profile, location: location)
  }
}
