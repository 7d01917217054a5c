import Testing

@testable import SocialLoginCrypto

/// The ChaCha20 building blocks against RFC 8439 §2 and draft-irtf-cfrg-xchacha §2.2.1, and
/// the four-lane path against the one-block path.
@Suite struct ChaCha20Tests {
  static let rfcKey = [UInt8](0..<32)
  static let sunscreen = Array(
    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
      .utf8)

  static func cipher(key: [UInt8], nonce: [UInt8]) -> ChaCha20 {
    key.withUnsafeBytes { key in nonce.withUnsafeBytes { ChaCha20(key: key, nonce: $0) } }
  }

  static func encrypt(_ input: [UInt8], cipher: ChaCha20, counter: UInt32) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: input.count)
    input.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { output in
        guard let base = output.baseAddress else { return }
        cipher.xor(input, into: base, counter: counter)
      }
    }
    return output
  }

  @Test func quarterRoundRFC8439Section2_1_1() {
    var a: UInt32 = 0x1111_1111
    var b: UInt32 = 0x0102_0304
    var c: UInt32 = 0x9b8d_6f43
    var d: UInt32 = 0x0123_4567
    ChaCha20.quarterRound(&a, &b, &c, &d)
    #expect([a, b, c, d] == [0xea2a_92f4, 0xcb1c_f8ce, 0x4581_472e, 0x5881_c4bb])
  }

  @Test func blockFunctionRFC8439Section2_3_2() throws {
    let cipher = Self.cipher(key: Self.rfcKey, nonce: try [UInt8](hex: "000000090000004a00000000"))
    var block = cipher.block(counter: 1)
    let bytes = withUnsafeBytes(of: &block) { Array($0) }
    #expect(
      bytes.hex
        == "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        + "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
  }

  @Test func encryptionRFC8439Section2_4_2() throws {
    let cipher = Self.cipher(key: Self.rfcKey, nonce: try [UInt8](hex: "000000000000004a00000000"))
    let ciphertext = Self.encrypt(Self.sunscreen, cipher: cipher, counter: 1)
    #expect(
      ciphertext.hex
        == "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        + "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        + "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        + "5af90bbf74a35be6b40b8eedf2785e42874d")
    #expect(Self.encrypt(ciphertext, cipher: cipher, counter: 1) == Self.sunscreen)
  }

  @Test func hChaCha20XChaChaDraftSection2_2_1() throws {
    let nonce = try [UInt8](hex: "000000090000004a0000000031415927")
    let words = Self.rfcKey.withUnsafeBytes { key in
      nonce.withUnsafeBytes { ChaCha20.hChaCha20(key: key, nonce: $0) }
    }
    let subkey = [words.0, words.1, words.2, words.3, words.4, words.5, words.6, words.7]
    #expect(
      subkey == [
        0x423b_4182, 0xfe7b_b227, 0x5042_0ed3, 0x737d_878a, 0xd5e4_f9a0, 0x53a8_748a,
        0x13c4_2ec1, 0xdcec_d326,
      ])
  }

  /// Every length from 0 to 600 bytes (the four-block SIMD path, the one-block path and the
  /// partial tail), at a counter near 2^32 too, equals block-by-block keystream.
  @Test func fourBlockPathMatchesOneBlockPath() {
    var random = SplitMix64(seed: 0xC4AC_4A20)
    let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
    let nonce = (0..<12).map { _ in UInt8.random(in: 0...255, using: &random) }
    let cipher = Self.cipher(key: key, nonce: nonce)
    for counter: UInt32 in [0, 7, 0xFFFF_FFF0] {
      var keystream: [UInt8] = []
      for block in 0..<10 {
        var words = cipher.block(counter: counter &+ UInt32(block))
        keystream += withUnsafeBytes(of: &words) { Array($0) }
      }
      for length in 0...600 {
        let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = zip(input, keystream).map { $0 ^ $1 }
        #expect(
          Self.encrypt(input, cipher: cipher, counter: counter) == expected,
          "length \(length), counter \(counter)")
      }
    }
  }
}
