import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct RSAPrivateKeyTests {
  static func rfc7515Key() throws -> RSAPrivateKey {
    func b(_ text: String) throws -> [UInt8] { try Base64URL.decode(text) }
    return try RSAPrivateKey(
      modulus: try b(RFC7515A2PrivateKey.n), publicExponent: try b(RFC7515A2PrivateKey.e),
      privateExponent: try b(RFC7515A2PrivateKey.d), prime1: try b(RFC7515A2PrivateKey.p),
      prime2: try b(RFC7515A2PrivateKey.q), exponent1: try b(RFC7515A2PrivateKey.dp),
      exponent2: try b(RFC7515A2PrivateKey.dq), coefficient: try b(RFC7515A2PrivateKey.qi))
  }

  /// RFC 7515 Appendix A.2: signing the example's signing input with its key reproduces the
  /// published RS256 signature byte for byte (PKCS #1 v1.5 is deterministic).
  @Test func rfc7515AppendixA2SignatureIsReproduced() throws {
    let key = try Self.rfc7515Key()
    #expect(key.publicKey.modulusBitCount == 2048)
    let signature = try key.signature(for: Array(RFC7515A2.signingInput.utf8))
    #expect(signature.hex == RFC7515A2.signature)
    // And the existing verifier accepts it.
    #expect(
      key.publicKey.isValidPKCS1v15Signature(
        signature, digest: SHA256.hash(Array(RFC7515A2.signingInput.utf8)), hash: .sha256))
    #expect(key.publicKey.modulus.hex == RFC7515A2.modulus)
    #expect(key.publicKey.exponent == [0x01, 0x00, 0x01])
  }

  @Test func sha384AndSHA512SignaturesVerify() throws {
    let key = try Self.rfc7515Key()
    let message = Array("SocialLogin".utf8)
    for hash in [RSAHashAlgorithm.sha384, .sha512] {
      let signature = try key.signature(for: message, hash: hash)
      let digest = hash == .sha384 ? SHA384.hash(message) : SHA512.hash(message)
      #expect(key.publicKey.isValidPKCS1v15Signature(signature, digest: digest, hash: hash))
      #expect(
        !key.publicKey.isValidPKCS1v15Signature(
          signature, digest: SHA256.hash(message), hash: .sha256))
    }
    #expect(throws: RSAKeyError.signatureCheckFailed) {
      try key.signature(digest: [1, 2, 3], hash: .sha256)
    }
  }

  @Test func inconsistentComponentsAreRefused() throws {
    func b(_ text: String) throws -> [UInt8] { try Base64URL.decode(text) }
    let k = RFC7515A2PrivateKey.self
    let n = try b(k.n)
    let e = try b(k.e)
    let d = try b(k.d)
    let p = try b(k.p)
    let q = try b(k.q)
    let dp = try b(k.dp)
    let dq = try b(k.dq)
    let qi = try b(k.qi)
    func make(
      n: [UInt8], d: [UInt8], p: [UInt8], q: [UInt8], dp: [UInt8], dq: [UInt8], qi: [UInt8]
    ) throws -> RSAPrivateKey {
      try RSAPrivateKey(
        modulus: n, publicExponent: e, privateExponent: d, prime1: p, prime2: q, exponent1: dp,
        exponent2: dq, coefficient: qi)
    }
    func flipped(_ bytes: [UInt8]) -> [UInt8] {
      var copy = bytes
      copy[copy.count / 2] ^= 0x10
      return copy
    }
    // Each component altered alone is caught.
    var failures: [String] = []
    for (name, attempt) in [
      ("n", { try make(n: flipped(n), d: d, p: p, q: q, dp: dp, dq: dq, qi: qi) }),
      ("d", { try make(n: n, d: flipped(d), p: p, q: q, dp: dp, dq: dq, qi: qi) }),
      ("p", { try make(n: n, d: d, p: flipped(p), q: q, dp: dp, dq: dq, qi: qi) }),
      ("q", { try make(n: n, d: d, p: p, q: flipped(q), dp: dp, dq: dq, qi: qi) }),
      ("dp", { try make(n: n, d: d, p: p, q: q, dp: flipped(dp), dq: dq, qi: qi) }),
      ("dq", { try make(n: n, d: d, p: p, q: q, dp: dp, dq: flipped(dq), qi: qi) }),
      ("qi", { try make(n: n, d: d, p: p, q: q, dp: dp, dq: dq, qi: flipped(qi)) }),
      ("swapped", { try make(n: n, d: d, p: q, q: p, dp: dq, dq: dp, qi: qi) }),
    ] as [(String, () throws -> RSAPrivateKey)] {
      do {
        _ = try attempt()
        failures.append(name)
      } catch {
        #expect(error is RSAKeyError, "\(name): \(error)")
      }
    }
    #expect(failures.isEmpty, "accepted: \(failures)")
    #expect(throws: RSAKeyError.unbalancedPrimes) {
      try make(n: n, d: d, p: Array(p.dropFirst(8)), q: q, dp: dp, dq: dq, qi: qi)
    }
  }

  /// One generated key (debug builds take seconds: see `RSAPrivateKey.generate`).
  @Test func generatedKeySignsAndVerifies() throws {
    let key = try RSAPrivateKey.generate()
    #expect(key.publicKey.modulusBitCount == 2048)
    #expect(key.publicKey.exponent == [0x01, 0x00, 0x01])
    let message = Array("generated".utf8)
    let signature = try key.signature(for: message)
    #expect(signature.count == 256)
    #expect(
      key.publicKey.isValidPKCS1v15Signature(
        signature, digest: SHA256.hash(message), hash: .sha256))
    // Its components re-import to the same key.
    let c = key.components
    let copy = try RSAPrivateKey(
      modulus: c.modulus, publicExponent: c.publicExponent, privateExponent: c.privateExponent,
      prime1: c.prime1, prime2: c.prime2, exponent1: c.exponent1, exponent2: c.exponent2,
      coefficient: c.coefficient)
    #expect(try copy.signature(for: message) == signature)
    // Not the RFC key, and not the per-process key.
    #expect(c.modulus != (try Self.rfc7515Key().publicKey.modulus))
  }

  @Test func perProcessKeyIsGeneratedOnce() throws {
    let first = RSAPrivateKey.perProcess
    let second = RSAPrivateKey.perProcess
    #expect(first.publicKey.modulus == second.publicKey.modulus)
    #expect(first.publicKey.modulusBitCount == 2048)
  }

  @Test func unsupportedSizesAreRefusedBeforeAnyWork() {
    for bits in [1024, 2000, 4224] {
      #expect(throws: RSAKeyError.unsupportedModulusSize(bitCount: bits)) {
        try RSAPrivateKey.generate(bitCount: bits)
      }
    }
  }

  @Test func descriptionNeverShowsComponents() throws {
    let key = try Self.rfc7515Key()
    #expect(String(describing: key) == "RSAPrivateKey(2048 bits, <redacted>)")
    #expect(!String(reflecting: key).contains("["))
  }
}

/// RFC 7515 ("JSON Web Signature", M. Jones et al., 2015), Appendix A.2.1: the RSA private
/// key as the JWK the appendix prints (base64url). Copied from the RFC's example as reproduced
/// by jwcrypto's test suite (`jwcrypto/tests.py`, `A2_key`); the signature the key must
/// produce is the one in `RFC7515A2.signature` (RSAPublicKeyTests), which the RFC also prints.
enum RFC7515A2PrivateKey {
  static let n =
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0B"
    + "m4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXnd"
    + "S5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5Ih"
    + "lJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
  static let e = "AQAB"
  static let d =
    "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2N"
    + "XOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X"
    + "0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bG"
    + "Ul_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ"
  static let p =
    "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py"
    + "5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"
  static let q =
    "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQ"
    + "eZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"
  static let dp =
    "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu"
    + "1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0"
  static let dq =
    "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0a"
    + "jaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU"
  static let qi =
    "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY"
    + "7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"
}
