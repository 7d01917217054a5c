import SocialLoginCrypto
import TestPacing
import Testing

/// RFC 7636 Appendix B: the S256 code challenge, end to end through SHA-256 and base64url.
@Suite(.heavy, .timeLimit(.minutes(10))) struct PKCETests {
  private let verifierBytes: [UInt8] = [
    116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77,
    105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
  ]

  @Test func verifierEncoding() throws {
    let verifier = Base64URL.encode(verifierBytes)
    #expect(verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(try Base64URL.decode(verifier) == verifierBytes)
  }

  @Test func s256Challenge() {
    let challenge = Base64URL.encode(
      SHA256.hash("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".utf8))
    #expect(challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }
}
