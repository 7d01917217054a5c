import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct P256PrivateKeyTests {
  @Test func rfc6979KeyDerivesThePublishedPublicKey() throws {
    let key = try P256PrivateKey(rawRepresentation: try [UInt8](hex: RFC6979A25.privateKey))
    #expect(key.publicKey.x.hex == RFC6979A25.publicX.lowercased())
    #expect(key.publicKey.y.hex == RFC6979A25.publicY.lowercased())
    #expect(key.rawRepresentation.hex == RFC6979A25.privateKey.lowercased())
  }

  /// RFC 6979 Appendix A.2.5: every SHA-1/256/384/512 signature of "sample" and "test".
  @Test(arguments: RFC6979A25.vectors)
  func rfc6979AppendixA25Signatures(vector: RFC6979A25.Vector) throws {
    let key = try P256PrivateKey(rawRepresentation: try [UInt8](hex: RFC6979A25.privateKey))
    let message = Array(vector.message.utf8)
    let digest: [UInt8]
    let signature: ECDSASignature
    switch vector.hash {
    case "SHA-1":
      digest = SHA1.hash(message)
      signature = key.signature(for: message, hash: SHA1.self)
    case "SHA-256":
      digest = SHA256.hash(message)
      signature = key.signature(for: message)
    case "SHA-384":
      digest = SHA384.hash(message)
      signature = key.signature(for: message, hash: SHA384.self)
    default:
      digest = SHA512.hash(message)
      signature = key.signature(for: message, hash: SHA512.self)
    }
    #expect(signature.r.hex == vector.r.lowercased(), "\(vector.hash) \(vector.message) r")
    #expect(signature.s.hex == vector.s.lowercased(), "\(vector.hash) \(vector.message) s")
    // The existing verifier accepts it, raw and DER, and refuses it for another digest.
    #expect(key.publicKey.isValidSignature(rawRS: signature.rawRepresentation, digest: digest))
    #expect(key.publicKey.isValidSignature(derEncoded: signature.derRepresentation, digest: digest))
    let other = SHA256.hash(message + [0x00])
    #expect(!key.publicKey.isValidSignature(rawRS: signature.rawRepresentation, digest: other))
  }

  @Test func signaturesAreDeterministicAndVerifyForFreshKeys() async throws {
    for round in 0..<3 {
      let key = P256PrivateKey()
      let message = Array("round \(round)".utf8)
      let signature = key.signature(for: message)
      #expect(signature == key.signature(for: message))
      #expect(signature.rawRepresentation.count == 64)
      #expect(
        key.publicKey.isValidSignature(
          rawRS: signature.rawRepresentation, digest: SHA256.hash(message)))
      // The same scalar re-imported gives the same public key and signature.
      let copy = try P256PrivateKey(rawRepresentation: key.rawRepresentation)
      #expect(copy.publicKey.x963Representation == key.publicKey.x963Representation)
      #expect(copy.signature(for: message) == signature)
      // Another key's public key refuses it.
      #expect(
        !P256PrivateKey().publicKey.isValidSignature(
          rawRS: signature.rawRepresentation, digest: SHA256.hash(message)))
      await Task.yield()
    }
  }

  /// RFC 7515 Appendix A.3: the private `d` gives the published `x` and `y`.
  @Test func rfc7515AppendixA3KeyDerivesItsPublicKey() throws {
    let d = try Base64URL.decode("jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI")
    let key = try P256PrivateKey(rawRepresentation: d)
    #expect(
      key.publicKey.x == (try Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")))
    #expect(
      key.publicKey.y == (try Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")))
  }

  @Test func scalarsOutsideOneToOrderMinusOneAreRefused() throws {
    let order = try [UInt8](
      hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    var orderMinusOne = order
    orderMinusOne[31] -= 1
    let cases: [[UInt8]] = [
      [], [UInt8](repeating: 0, count: 32), order, [UInt8](repeating: 0xFF, count: 32),
      [UInt8](repeating: 1, count: 31), [UInt8](repeating: 1, count: 33),
    ]
    for bytes in cases {
      #expect(throws: P256KeyError.invalidScalar) { try P256PrivateKey(rawRepresentation: bytes) }
    }
    // n - 1 is a key: its public key is -G, whose x is G's x.
    let last = try P256PrivateKey(rawRepresentation: orderMinusOne)
    #expect(
      last.publicKey.x.hex == "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
    var one = [UInt8](repeating: 0, count: 32)
    one[31] = 1
    #expect(try P256PrivateKey(rawRepresentation: one).publicKey.x == last.publicKey.x)
  }

  @Test func descriptionNeverShowsTheScalar() throws {
    let key = try P256PrivateKey(rawRepresentation: try [UInt8](hex: RFC6979A25.privateKey))
    #expect(String(describing: key) == "P256PrivateKey(<redacted>)")
    #expect(!String(reflecting: key).lowercased().contains("c9afa9"))
  }
}

/// RFC 6979 ("Deterministic Usage of DSA and ECDSA", T. Pornin, 2013), Appendix A.2.5
/// "ECDSA, 256 Bits (Prime Field)": key pair and signatures, copied from the RFC text
/// (https://www.rfc-editor.org/rfc/rfc6979.txt, pages 32–34). SHA-224 is omitted (this
/// library has no SHA-224). The RFC also lists each `k`; matching `r` and `s` proves it.
enum RFC6979A25 {
  static let privateKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
  static let publicX = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
  static let publicY = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"

  struct Vector: Sendable, CustomTestStringConvertible {
    let hash: String
    let message: String
    let r: String
    let s: String
    var testDescription: String { "\(hash) \"\(message)\"" }
  }

  static let vectors: [Vector] = [
    Vector(
      hash: "SHA-1", message: "sample",
      r: "61340C88C3AAEBEB4F6D667F672CA9759A6CCAA9FA8811313039EE4A35471D32",
      s: "6D7F147DAC089441BB2E2FE8F7A3FA264B9C475098FDCF6E00D7C996E1B8B7EB"),
    Vector(
      hash: "SHA-256", message: "sample",
      r: "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
      s: "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
    Vector(
      hash: "SHA-384", message: "sample",
      r: "0EAFEA039B20E9B42309FB1D89E213057CBF973DC0CFC8F129EDDDC800EF7719",
      s: "4861F0491E6998B9455193E34E7B0D284DDD7149A74B95B9261F13ABDE940954"),
    Vector(
      hash: "SHA-512", message: "sample",
      r: "8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00",
      s: "2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE"),
    Vector(
      hash: "SHA-1", message: "test",
      r: "0CBCC86FD6ABD1D99E703E1EC50069EE5C0B4BA4B9AC60E409E8EC5910D81A89",
      s: "01B9D7B73DFAA60D5651EC4591A0136F87653E0FD780C3B1BC872FFDEAE479B1"),
    Vector(
      hash: "SHA-256", message: "test",
      r: "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
      s: "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    Vector(
      hash: "SHA-384", message: "test",
      r: "83910E8B48BB0C74244EBDF7F07A1C5413D61472BD941EF3920E623FBCCEBEB6",
      s: "8DDBEC54CF8CD5874883841D712142A56A8D0F218F5003CB0296B6B509619F2C"),
    Vector(
      hash: "SHA-512", message: "test",
      r: "461D93F31B6540894788FD206C07CFA0CC35F46FA3C91816FFF1040AD1581A04",
      s: "39AF9F15DE0DB8D97E72719C74820D304CE5226E32DEDAE67519E840D1194E55"),
  ]
}
