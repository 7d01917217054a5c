import SocialLoginCrypto
import TestPacing
import Testing

/// Project Wycheproof MAC vectors. Groups with a `tagSize` below the digest size use tags
/// truncated to their leftmost `tagSize / 8` bytes.
@Suite(.heavy, .timeLimit(.minutes(10))) struct WycheproofHMACTests {
  @Test func hmacSHA256() throws {
    try run(SHA256.self, file: "hmac_sha256_test", algorithm: "HMACSHA256")
  }

  @Test func hmacSHA1() throws {
    try run(SHA1.self, file: "hmac_sha1_test", algorithm: "HMACSHA1")
  }

  private func run<H: HashFunction>(_: H.Type, file: String, algorithm: String) throws {
    let vectors = try WycheproofFile.load(file)
    #expect(vectors.algorithm == algorithm)
    let tests = vectors.allTests
    #expect(tests.count == vectors.numberOfTests)
    var validCount = 0
    var invalidCount = 0
    for (group, test) in tests {
      let tagSize = try #require(group.tagSize, "group without tagSize")
      let key = try test.keyBytes
      let message = try test.messageBytes
      let tag = try test.tagBytes
      let full = HMAC<H>.authenticationCode(for: message, using: key)
      let truncated = Array(full.prefix(tagSize / 8))
      let accepted: Bool
      if tagSize / 8 == H.digestByteCount {
        accepted = HMAC<H>.isValidAuthenticationCode(tag, for: message, using: key)
      } else {
        accepted = ConstantTime.equals(truncated, tag)
      }
      switch test.result {
      case .valid:
        validCount += 1
        #expect(accepted, "\(test.label)")
        #expect(truncated.hex == tag.hex, "\(test.label)")
      case .invalid:
        invalidCount += 1
        #expect(!accepted, "\(test.label)")
      case .acceptable:
        Issue.record("unexpected 'acceptable' MAC vector \(test.label)")
      }
    }
    // Guards against a silently empty or mis-decoded file passing vacuously.
    #expect(validCount > 50)
    #expect(invalidCount > 50)
  }
}
