import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct RSAPublicKeyTests {
  /// Wycheproof `rsa_signature_2048_sha256_test.json` (RSASSA-PKCS1-v1_5, SHA-256).
  ///
  /// Rule for `acceptable` vectors: they are **rejected**. The only one in this file is
  /// `MissingNull` (a `DigestInfo` without the explicit `NULL` parameters); the verifier compares
  /// against the single canonical encoding with `NULL` (RFC 8017 §9.2), so every non-canonical
  /// `EM` fails. Keys that fail to construct count as rejections, and only non-valid vectors may
  /// have such keys.
  @Test func wycheproofRSASignature2048SHA256() async throws {
    let file = try WycheproofFile.load("rsa_signature_2048_sha256_test")
    var counts: [WycheproofTest.Result: Int] = [:]
    for group in file.testGroups {
      // One key per group, as a verifier keeps one per JWKS key (building it computes R^2 mod n,
      // which dominated this test in debug builds when it was redone for each of 257 vectors).
      let publicKey = try #require(group.publicKey, "group without publicKey")
      let modulus = try [UInt8](hex: try #require(publicKey.modulus))
      let exponent = try [UInt8](hex: try #require(publicKey.publicExponent))
      let key = Result { () throws(RSAKeyError) in
        try RSAPublicKey(modulus: modulus, exponent: exponent)
      }
      for test in group.tests {
        counts[test.result, default: 0] += 1
        let digest = SHA256.hash(try test.messageBytes)
        let accepted: Bool
        switch key {
        case .success(let key):
          #expect(key.modulusBitCount == 2048)
          accepted = key.isValidPKCS1v15Signature(
            try test.signatureBytes, digest: digest, hash: .sha256)
        case .failure(let error):
          #expect(test.result != .valid, "valid vector's key refused: \(error) \(test.label)")
          accepted = false
        }
        switch test.result {
        case .valid: #expect(accepted, "\(test.label)")
        case .invalid: #expect(!accepted, "\(test.label)")
        case .acceptable: #expect(!accepted, "acceptable vectors are rejected: \(test.label)")
        }
        // Debug-build verification is slow: let other tests' tasks run on the two-thread
        // cooperative pool between vectors instead of starving them for the whole file.
        await Task.yield()
      }
    }
    #expect(counts[.valid] == 9)
    #expect(counts[.invalid] == 249)
    #expect(counts[.acceptable] == 1)
    #expect(file.allTests.count == file.numberOfTests)
    #expect(file.numberOfTests == 259)
  }

  /// RFC 7515 Appendix A.2: the RS256 example verifies over the ASCII JWS Signing Input.
  @Test func rfc7515AppendixA2RS256() throws {
    let key = try RSAPublicKey(
      modulus: try [UInt8](hex: RFC7515A2.modulus), exponent: [0x01, 0x00, 0x01])
    #expect(key.modulusBitCount == 2048)
    let signature = try [UInt8](hex: RFC7515A2.signature)
    let digest = SHA256.hash(Array(RFC7515A2.signingInput.utf8))
    #expect(key.isValidPKCS1v15Signature(signature, digest: digest, hash: .sha256))

    let tampered = SHA256.hash(Array((RFC7515A2.signingInput + "x").utf8))
    #expect(!key.isValidPKCS1v15Signature(signature, digest: tampered, hash: .sha256))
    #expect(!key.isValidPKCS1v15Signature(signature, digest: digest, hash: .sha384))
    var flipped = signature
    flipped[100] ^= 0x01
    #expect(!key.isValidPKCS1v15Signature(flipped, digest: digest, hash: .sha256))
    let wrongExponent = try RSAPublicKey(
      modulus: try [UInt8](hex: RFC7515A2.modulus), exponent: [0x03])
    #expect(!wrongExponent.isValidPKCS1v15Signature(signature, digest: digest, hash: .sha256))
  }

  @Test func signatureOfWrongLengthOrOutOfRangeIsRejected() throws {
    let modulus = try [UInt8](hex: RFC7515A2.modulus)
    let key = try RSAPublicKey(modulus: modulus, exponent: [0x01, 0x00, 0x01])
    let signature = try [UInt8](hex: RFC7515A2.signature)
    let digest = SHA256.hash(Array(RFC7515A2.signingInput.utf8))
    #expect(!key.isValidPKCS1v15Signature([], digest: digest, hash: .sha256))
    #expect(
      !key.isValidPKCS1v15Signature(Array(signature.dropLast()), digest: digest, hash: .sha256))
    #expect(!key.isValidPKCS1v15Signature([0] + signature, digest: digest, hash: .sha256))
    #expect(!key.isValidPKCS1v15Signature(signature + [0], digest: digest, hash: .sha256))
    // s = n and s = n + 1 are not smaller than the modulus.
    #expect(!key.isValidPKCS1v15Signature(modulus, digest: digest, hash: .sha256))
    var nPlusOne = modulus
    nPlusOne[nPlusOne.count - 1] &+= 1
    #expect(!key.isValidPKCS1v15Signature(nPlusOne, digest: digest, hash: .sha256))
    #expect(
      !key.isValidPKCS1v15Signature(
        [UInt8](repeating: 0, count: 256), digest: digest, hash: .sha256))
    // A digest of the wrong length for the algorithm.
    #expect(
      !key.isValidPKCS1v15Signature(signature, digest: Array(digest.dropLast()), hash: .sha256))
  }

  @Test func fourThousandNinetySixBitKeyWithSHA384AndSHA512() throws {
    let key = try RSAPublicKey(
      modulus: try [UInt8](hex: RSA4096Vectors.modulus), exponent: [0x01, 0x00, 0x01])
    #expect(key.modulusBitCount == 4096)
    let digest384 = try [UInt8](hex: RSA4096Vectors.sha384Digest)
    let digest512 = try [UInt8](hex: RSA4096Vectors.sha512Digest)
    let signature384 = try [UInt8](hex: RSA4096Vectors.sha384Signature)
    let signature512 = try [UInt8](hex: RSA4096Vectors.sha512Signature)
    #expect(key.isValidPKCS1v15Signature(signature384, digest: digest384, hash: .sha384))
    #expect(key.isValidPKCS1v15Signature(signature512, digest: digest512, hash: .sha512))
    #expect(!key.isValidPKCS1v15Signature(signature384, digest: digest512, hash: .sha512))
    #expect(!key.isValidPKCS1v15Signature(signature512, digest: digest384, hash: .sha384))
  }

  @Test func keysOutsideTheSupportedShapeAreRefused() throws {
    let modulus = try [UInt8](hex: RFC7515A2.modulus)
    let e: [UInt8] = [0x01, 0x00, 0x01]
    // Leading zero bytes are ignored.
    #expect(try RSAPublicKey(modulus: [0, 0] + modulus, exponent: [0] + e).modulusBitCount == 2048)

    #expect(throws: RSAKeyError.unsupportedModulusSize(bitCount: 2040)) {
      try RSAPublicKey(modulus: Array(modulus.dropFirst()), exponent: e)
    }
    #expect(throws: RSAKeyError.unsupportedModulusSize(bitCount: 4097)) {
      try RSAPublicKey(modulus: [0x01] + [UInt8](repeating: 0xFF, count: 512), exponent: e)
    }
    #expect(throws: RSAKeyError.unsupportedModulusSize(bitCount: 0)) {
      try RSAPublicKey(modulus: [], exponent: e)
    }
    var even = modulus
    even[even.count - 1] &= 0xFE
    #expect(throws: RSAKeyError.evenModulus) { try RSAPublicKey(modulus: even, exponent: e) }
    for exponent: [UInt8] in [
      [], [0x00], [0x01], [0x02], [0x01, 0x00, 0x00], modulus, [0x01] + modulus,
    ] {
      #expect(throws: RSAKeyError.invalidExponent) {
        try RSAPublicKey(modulus: modulus, exponent: exponent)
      }
    }
    // The largest odd exponent below n is accepted.
    var nMinusTwo = modulus
    nMinusTwo[nMinusTwo.count - 1] &-= 2
    #expect(throws: Never.self) { try RSAPublicKey(modulus: modulus, exponent: nMinusTwo) }
  }
}

/// RFC 7515 Appendix A.2 (RS256): the JWK `n`, the JWS Signing Input and the signature, the
/// base64url values hex-decoded.
///
/// Provenance: the RFC page itself could not be retrieved in this environment; the values were
/// transcribed from a third-party copy of Appendix A.2. They check themselves: the signature
/// verifies only if modulus, input and signature are all exact.
enum RFC7515A2 {
  static let signingInput =
    "eyJhbGciOiJSUzI1NiJ9" + "."
    + "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
  static let modulus =
    "a1f8160ae2e3c9b465ce8d2d656263362b927dbe29e1f02477fc1625cc90a136e38bd93497c5b6ea63dd7711"
    + "e67c7429f956b0fb8a8f089adc4b69893cc1333f53edd019b87784252fec914fe4857769594bea4280d32c0f"
    + "55bf62944f130396bc6e9bdf6ebdd2bda3678eeca0c668f701b38dbffb38c8342ce2fe6d27fade4a5a487497"
    + "9dd4b9cf9adec4c75b05852c2c0f5ef8a5c1750392f944e8ed64c110c6b647609aa4783aeb9c6c9ad7553130"
    + "50638b83665c6f6f7a82a396702a1f641b82d3ebf2392219491fb686872c5716f50af8358d9a8b9d17c34072"
    + "8f7f87d89a18d8fcab67ad84590c2ecf759339363c07034d6f606f9e21e05456cae5e9a1"
  static let signature =
    "702e218943e88fd11eb5d82dbf7845f34106ae1b81fff7731116add1717d83656d420afd3c96eedd73a2663e"
    + "5166687b000b87226e0187ed1073f945e582adfcef16d85a798ee8c66ddb3db8975b17d09402beedd5d9d970"
    + "07108db28160d5f8040ca7445762b81fbe7ff9d92e0ae76f24f25b33bbe6f44ae61eb1040acb20044d3ef912"
    + "8ed40130795bd4bd3b41eecad066ab651981fde48df77f372dc38b9fafdd3befb18b5da3cc3c2eb02f9e3a41"
    + "d612caad15911273a05f23b9e838faaf849d698429ef5a1e88798236c3d40e604522a544c8f27a7a2db80663"
    + "d16cf7caea56de405cb2215a45b2c25566b55ac1a748a070dfc8a32a469543d019eefb47"
}

/// A 4096-bit key (e = 65537) generated with `openssl genpkey` for these tests, and its
/// signatures over ``message`` with SHA-384 and SHA-512 (digests precomputed).
enum RSA4096Vectors {
  static let message = "SocialLogin 4096-bit test message"
  static let modulus =
    "c323c333758fce260a1a45e1257c193ea8b2fbc4b1d77d6f5da0f15bb3821de7493a9d4227a58d1ef8c31547"
    + "690230bff0e6069395d06d12b2f0a9ea24f4330018e9f91779faa0c042e7079cf37b85311aad592c13245ae3"
    + "4111867ac4b0892e2245944345a0a916cf169d795aea942427347eb65dcf7117be0ee801d7248173d1af0084"
    + "f265a2187d80904ea3a0dd60d8d57a8301836291ce3e9dba52401e3e3b93d18706fee65eefc9613ed9d57a47"
    + "866e3711353f45b816f81d23598eab04511a37819e14a02417db0643da6fe909d42ce565e3565a5e4fb3c31a"
    + "7d76f6325556bc3ad34216a98e4d6bbf29035de3f5ac70b516ab1b6e2912c53b681b7798b04e521da60e0718"
    + "b4382706cfe5e44a6d9a13033baed173df77dfd1f2401fc8dd861839023089eb0d56ccc33be7563bee9e0006"
    + "de34b051d5fcb2f371459bb68d86f8458554d53ea5a0cd86566563681212c03fd548b50790e9525af8c628d6"
    + "7d7ae47c9512397e00c9b9c4aedd2dec742a05a9566f4d027c6976000ab5d8c1ef128f484b0d3f8b8f6ab94a"
    + "365b8c4d85be0364039280bdcb743eac369dd8e2622f99cab9e24d7ed72430874d6571918866d5aebc1303bd"
    + "2c002d1b91c0967d25b16a9c39cdadcd13eb59592f5bd205a8f4401b5e80881307a3509885da57adb3fee13f"
    + "7b8e84994e36369eff3170518e4fe136a3fa310edd19a81f6130aee7"
  static let sha384Digest =
    "7de3d8dc08febe73349f8629d0633e35f3824b51afdd5694d0a66a0c2b5a62b19edf4e09de6e8a82ca65e45d"
    + "3e36b987"
  static let sha384Signature =
    "3eff076077a9f58526da19f5a6323a2bd7db20dac00e3f425f64090495cf83834a073c7b1e23802553c77ad3"
    + "e88a84441ff2b8c671a744d94960b7e7cfc7bea7e3d0f8d286a0ef6c1d21c269d6a04e89d4561eb96ee64d42"
    + "b3aad876ce994c34f20a9e632199a25b0eb6712620cc577b70e984adcc0d7e84831c8038efa1acf82a0a7f5e"
    + "c7cd79f1e15068c9a2d0c3e1d841a03f7b6881da971a57cc9bd37d7f2763b63e100240ea2b570d91dca6a7f6"
    + "62912272fec46e229e7074786acb891379a0e0e11b62f2d2d69f31fc90db1d202a1a8e589acc65d451b95bdf"
    + "daaa74de31860cf731803ca59cfc0e91e5d1abbc539a087097647ba39db4a9292af8e6fd49bf92555b7ae038"
    + "90d19a526553905a1f58fb1eb6c3d6366cf9dd94303843922cbe4cd0c202839695977117e008a5f9dc500e58"
    + "d35164c4a2355a05cb359b562c0df0c001bd05ee3cc6249927d2bab0a484187ffa3de49feb6db4ccb64bc04e"
    + "c02620574d568978827e8f8d398fd9cea19522af944ebf7f7b433226468ba95da4033e24167ef05b7f116b47"
    + "96dc445168fa780e0b39f11743794f293e97b10579698377e03d0f1d908941ba768a38c5742b341061c51d2c"
    + "5063e254d43f4a0ea4c531cf4d57a25363c4d13fa0bf36e2648eeb5148a4bbb1e88d4142a450548eb2d14355"
    + "eb8e1c3112176967ab157734cf8986762f82aceeeb775b6b7c8e5874"
  static let sha512Digest =
    "bfd709b2b76ed03fa43fa9e32a21b8752138552f723a566685ce3b5566f9a20c6ff9460bc1d3634850fddf32"
    + "3f4344c0c56d38fa9f694ca144f3e8c1673c6648"
  static let sha512Signature =
    "84098fd4d4b625226c50e774e9cc764b3cd8be66b83fcd1c2eb7af1d4d3b67fecfbbe198f44cfc7722d32a93"
    + "0e4dc94eb71e003a9ee63c1c1bdb287b71451a727f13174a4ad29b8549c35b50632e038be4b01d4b7248c3d3"
    + "6a547428299a43f8bf005186383fb8e2573ffcba3e63b03896016d9ede58e00f297df76f0697ec84a95bd5d4"
    + "929218116ad1084d7d4ae6adf085a27fdb0ee42a2fe29c5ce2c4047c02f1528cb7ef08932f5f17f6e28c6aff"
    + "12fb9a7de94dc114d490bf23c86cfa4200f6f5685dc1b1dcdaab38acc428bd939b1828867735364cdedef64c"
    + "b94fe7d8f128e97d46193f9102a47cffbf91c3148ae431a77a3dcccb5bdf169b6fbbcde0cfbd2383f8651ec9"
    + "fd76038db2065de6eb5fc11af0348763681ce47e2f2dbe16bb581ca896e9abc6abc2efdf836cd9642cb9eb0d"
    + "032447e7f68ca20ea541418041af7e41bd98e92e3b63ace141525ddce3bf0943b7ff171b34e6ce7d10dfd4ac"
    + "4fd93f1384b0ae25e2b81e0ba78bd45d908c5e238a15fb7812dd1f1e5310c643f09625f643be288b219fe17e"
    + "0b0f812458e843a34b44ce4f75ff34a0b7686c0ed8279430546a3868b5af6f19f54badeebf53e055f610ed3f"
    + "ed61ed3c986f9ac5f5f170357d5f9461db85b6bd4687c872783aac463ae7d89bbc0684f254aaa80c57b3ee94"
    + "6f3135c1202fbc2d5955132eeed5377d4f180ab4f2a2bf5cd282aaea"
}
