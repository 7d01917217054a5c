import SocialLoginCrypto
import Testing

/// Project Wycheproof AEAD vectors, every group: valid vectors seal to the expected ciphertext
/// and tag and open back; invalid ones (modified tags, ciphertexts, nonces) must not open;
/// groups whose nonce size is not the algorithm's must be refused as `invalidNonceSize`.
@Suite struct WycheproofAEADTests {
  typealias Seal = ([UInt8], [UInt8], [UInt8], [UInt8]) throws(AEADError) -> [UInt8]

  @Test func chaCha20Poly1305() throws {
    try run(
      file: "chacha20_poly1305_test", algorithm: "CHACHA20-POLY1305", nonceBits: 96,
      seal: ChaCha20Poly1305.seal, open: ChaCha20Poly1305.open)
  }

  @Test func xChaCha20Poly1305() throws {
    try run(
      file: "xchacha20_poly1305_test", algorithm: "XCHACHA20-POLY1305", nonceBits: 192,
      seal: XChaCha20Poly1305.seal, open: XChaCha20Poly1305.open)
  }

  private func run(
    file: String, algorithm: String, nonceBits: Int, seal: Seal, open: Seal
  ) throws {
    let vectors = try WycheproofFile.load(file)
    #expect(vectors.algorithm == algorithm)
    let tests = vectors.allTests
    #expect(tests.count == vectors.numberOfTests)
    var valid = 0
    var invalid = 0
    var wrongNonceSize = 0
    for (group, test) in tests {
      let key = try test.keyBytes
      let nonce = try test.nonceBytes
      let associatedData = try test.associatedDataBytes
      let message = try test.messageBytes
      let expected = try test.ciphertextBytes + test.tagBytes
      #expect(group.tagSize == 128, "\(test.label)")
      if group.ivSize != nonceBits {
        wrongNonceSize += 1
        #expect(nonce.count * 8 == group.ivSize, "\(test.label)")
        #expect(kind { try seal(message, key, nonce, associatedData) } == .invalidNonceSize)
        #expect(kind { try open(expected, key, nonce, associatedData) } == .invalidNonceSize)
        continue
      }
      switch test.result {
      case .valid:
        valid += 1
        #expect(try seal(message, key, nonce, associatedData).hex == expected.hex, "\(test.label)")
        #expect(try open(expected, key, nonce, associatedData) == message, "\(test.label)")
      case .invalid:
        invalid += 1
        #expect(
          kind { try open(expected, key, nonce, associatedData) } == .authenticationFailed,
          "\(test.label)")
      case .acceptable:
        Issue.record("unexpected 'acceptable' AEAD vector \(test.label)")
      }
    }
    // Guards against a silently empty or mis-decoded file passing vacuously.
    #expect(valid > 200)
    #expect(invalid > 50)
    #expect(wrongNonceSize >= 8)
  }

  private func kind(_ body: () throws -> [UInt8]) -> AEADError.Kind? {
    ChaCha20Poly1305Tests.failure(body)
  }
}
