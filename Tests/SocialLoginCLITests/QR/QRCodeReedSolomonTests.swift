import Testing

@testable import SocialLoginCLI

/// The Reed-Solomon codewords against examples published with their answers.
@Suite struct QRCodeReedSolomonTests {
  /// ISO/IEC 18004 Annex I: "01234567" in numeric mode, version 1-M.
  @Test func isoAnnexExampleVersion1M() {
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
      0x11,
    ]
    let expected: [UInt8] = [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]
    #expect(ReedSolomon.remainder(data, degree: 10) == expected)
  }

  /// thonky.com's QR tutorial: "HELLO WORLD" in alphanumeric mode, version 1-M.
  @Test func thonkyHelloWorldVersion1M() {
    let data: [UInt8] = [
      32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17,
    ]
    let expected: [UInt8] = [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]
    #expect(ReedSolomon.remainder(data, degree: 10) == expected)
  }

  /// The field: α⁸ = x⁴ + x³ + x² + 1, and a product with zero is zero.
  @Test func fieldArithmetic() {
    #expect(ReedSolomon.multiply(0x80, 2) == 0x1D)
    #expect(ReedSolomon.multiply(0, 0x53) == 0)
    #expect(ReedSolomon.multiply(1, 0x53) == 0x53)
  }
}
