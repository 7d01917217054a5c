import Testing

@testable import SocialLoginCLI

/// The encoder's symbols as a real decoder (zbarimg) reads them: every version 1-10, every
/// level, every mask the penalty picks, and the terminal rendering read back as an image.
@Suite(
  .enabled(if: Zbarimg.path != nil || Zbarimg.required, "\(Zbarimg.missing)"),
  .timeLimit(.minutes(2)))
struct QRCodeDecoderTests {
  static let inputs: [String] = [
    "a",
    "https://example.com/device",
    "http://127.0.0.1:49152/device?user_code=WDJB-MJHT",
    "https://www.facebook.com/device?user_code=A1B2C3D4&qr=1&locale=en_US",
    String(repeating: "https://accounts.example.org/activate?code=ABCD-EFGH&", count: 2),
    "é ü 漢字 🙂 UTF-8 bytes",
  ]

  @Test(arguments: inputs)
  func zbarimgReadsWhatWasEncoded(_ text: String) async throws {
    for level in [QRCode.Level.low, .medium, .quartile, .high] {
      let code = try QRCode(text: text, level: level)
      let (status, decoded) = try await Zbarimg.decode(code)
      #expect(status == 0, "version \(code.version) \(level) mask \(code.mask)")
      #expect(decoded == text, "version \(code.version) \(level) mask \(code.mask)")
    }
  }

  /// One input per version 1...10 at level M, so every version's layout, alignment patterns
  /// and (from 7) version information is read by the decoder.
  @Test(arguments: 1...10)
  func zbarimgReadsEveryVersion(_ version: Int) async throws {
    let length = QRCode.byteCapacity(version: version, level: .medium)
    let text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x21 + $0 % 90))) })
    let code = try QRCode(text: text)
    #expect(code.version == version)
    let (status, decoded) = try await Zbarimg.decode(code)
    #expect(status == 0)
    #expect(decoded == text)
  }

  /// The half-block text the CLI prints, turned back into pixels: blocks are light modules.
  @Test func zbarimgReadsTheHalfBlockRendering() async throws {
    let text = "https://example.com/device?user_code=WDJB-MJHT"
    let code = try QRCode(text: text)
    let lines = code.halfBlocks().split(separator: "\n").map(Array.init)
    let rows = lines.count * 2
    let grid: [[Bool]] = (0..<rows).map { row in
      lines[row / 2].map { character in
        let light: Bool =
          switch character {
          case "█": true
          case "▀": row % 2 == 0
          case "▄": row % 2 == 1
          default: false
          }
        return !light
      }
    }
    // The rendering includes its own quiet zone; the odd last row is outside the symbol.
    let image = Zbarimg.pbm(size: grid[0].count, quietZone: 0) { x, y in
      y < code.size + 8 && grid[y][x]
    }
    let (status, decoded) = try await Zbarimg.decode(pbm: image)
    #expect(status == 0)
    #expect(decoded == text)
  }
}
