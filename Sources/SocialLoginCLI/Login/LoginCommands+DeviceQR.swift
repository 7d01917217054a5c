import Foundation
import SocialLogin

/// `login PROVIDER --device` on a terminal: a QR code of the verification address, so that a
/// phone camera opens it without typing.
extension LoginCommands {
  /// `--no-qr`.
  static let noQR = Option.flag(
    "--no-qr", help: "with --device: do not draw a QR code of the address (drawn on a terminal)")

  /// Whether the QR code is drawn: on a terminal only (a log file or a pipe gets the text
  /// alone), and never with `--no-qr`.
  static func drawsQR(_ arguments: ParsedArguments, stderrIsTerminal: Bool = isatty(2) == 1)
    -> Bool
  {
    stderrIsTerminal && !arguments.flag(noQR)
  }

  /// The QR code to print under the instructions: the complete URI when the provider sent
  /// one (the user code is then in it), else the verification URI. `nil` when the address is
  /// too long for the encoder: the text instructions are enough, so the login goes on.
  static func qrText(for prompt: DeviceLoginPrompt) -> String? {
    let address = (prompt.verificationURIComplete ?? prompt.verificationURI).absoluteString
    guard let code = try? QRCode(text: address) else { return nil }
    return code.halfBlocks()
  }
}
