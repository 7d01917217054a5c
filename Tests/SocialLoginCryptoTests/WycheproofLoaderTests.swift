import TestPacing
import Testing

/// The shared loader must decode every vector file we ship, not only the MAC ones, so that
/// signature suites can rely on it.
@Suite(.heavy, .timeLimit(.minutes(10))) struct WycheproofLoaderTests {
  @Test(arguments: [
    "hmac_sha1_test", "hmac_sha256_test", "rsa_signature_2048_sha256_test",
    "ecdsa_secp256r1_sha256_p1363_test",
  ])
  func decodesEveryTest(file: String) throws {
    let vectors = try WycheproofFile.load(file)
    #expect(vectors.allTests.count == vectors.numberOfTests)
    for (_, test) in vectors.allTests {
      // Every hex field must decode; a stray character would silently skew a suite.
      _ = try test.messageBytes
      _ = try test.signatureBytes
      _ = try test.keyBytes
      _ = try test.tagBytes
    }
  }

  @Test func signatureGroupFields() throws {
    let rsa = try WycheproofFile.load("rsa_signature_2048_sha256_test")
    let rsaGroup = try #require(rsa.testGroups.first)
    #expect(rsaGroup.sha == "SHA-256")
    #expect(rsaGroup.keySize == 2048)
    #expect(rsaGroup.publicKey?.publicExponent == "010001")
    #expect(try [UInt8](hex: rsaGroup.publicKeyDer ?? "").first == 0x30)

    let ecdsa = try WycheproofFile.load("ecdsa_secp256r1_sha256_p1363_test")
    let ecdsaGroup = try #require(ecdsa.testGroups.first)
    #expect(ecdsaGroup.publicKey?.curve == "secp256r1")
    #expect(try [UInt8](hex: ecdsaGroup.publicKey?.uncompressed ?? "").count == 65)
    #expect(try #require(ecdsaGroup.tests.first).signatureBytes.count == 64)
  }
}
