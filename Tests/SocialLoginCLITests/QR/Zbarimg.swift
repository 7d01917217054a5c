import CLITestProcess
import Foundation
import TestPacing

@testable import SocialLoginCLI

/// `zbarimg`, from Debian's `zbar-tools` (`.ci/run` installs it): a real QR decoder that reads
/// what the CLI's encoder draws.
enum Zbarimg {
  /// The executable, or `nil` when it is not installed.
  static let path: String? = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether a missing zbarimg must fail the tests (with `CI` set) rather than skip them.
  static let required: Bool = {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
  }()

  /// Why tests that need zbarimg are skipped here.
  static let missing =
    "zbarimg is not installed; apt-get install zbar-tools (with CI set this fails)"

  /// A plain PBM (P1) image of `dark` (row-major, `size` × `size` modules), each module
  /// `scale` × `scale` pixels, with a `quietZone`-module light border.
  static func pbm(size: Int, quietZone: Int = 4, scale: Int = 8, dark: (Int, Int) -> Bool)
    -> String
  {
    let pixels = (size + 2 * quietZone) * scale
    var text = "P1\n\(pixels) \(pixels)\n"
    for row in 0..<pixels {
      var line = ""
      for column in 0..<pixels {
        let x = column / scale - quietZone
        let y = row / scale - quietZone
        let inside = x >= 0 && y >= 0 && x < size && y < size
        line += inside && dark(x, y) ? "1" : "0"
      }
      text += line + "\n"
    }
    return text
  }

  /// What zbarimg decodes from `image` (a PBM file's text), with its exit status.
  static func decode(pbm image: String) async throws -> (status: Int32, text: String) {
    guard let tool = path else { return (127, "zbarimg is not installed") }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("code.pbm")
    try Data(image.utf8).write(to: file)
    return try await blockingCall {
      let run = try SpawnedChild.run(
        URL(fileURLWithPath: tool), arguments: ["--raw", "-q", file.path], keepingErrors: false)
      var text = String(decoding: run.output, as: UTF8.self)
      if text.hasSuffix("\n") { text.removeLast() }
      return (run.status, text)
    }
  }

  /// What zbarimg decodes from `code`'s modules.
  static func decode(_ code: QRCode) async throws -> (status: Int32, text: String) {
    try await decode(pbm: pbm(size: code.size) { code.isDark(x: $0, y: $1) })
  }
}
