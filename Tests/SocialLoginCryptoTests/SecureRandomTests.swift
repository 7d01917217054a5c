import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct SecureRandomTests {
  @Test(arguments: [0, 1, 7, 8, 9, 16, 31, 32, 33, 1000])
  func bytesHaveRequestedLength(count: Int) {
    #expect(SecureRandom.bytes(count: count).count == count)
  }

  @Test func consecutiveCallsDiffer() {
    // 2^-256 chance of a false failure.
    #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    #expect(SecureRandom.urlSafeToken() != SecureRandom.urlSafeToken())
  }

  /// Catches a fill loop that only writes the first byte of each 8-byte word, or leaves the
  /// tail of a non-multiple-of-8 request unwritten.
  @Test func everyPositionVaries() {
    let count = 13
    var seen = [Set<UInt8>](repeating: [], count: count)
    for _ in 0..<64 {
      for (index, byte) in SecureRandom.bytes(count: count).enumerated() {
        seen[index].insert(byte)
      }
    }
    for (index, values) in seen.enumerated() {
      #expect(values.count > 16, "position \(index) took only \(values.count) values")
    }
  }

  @Test func tokenUsesURLSafeAlphabetOnly() throws {
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    for _ in 0..<100 {
      let token = SecureRandom.urlSafeToken()
      #expect(token.utf8.count == 43)
      #expect(token.utf8.allSatisfy(allowed.contains))
      #expect(try Base64URL.decode(token).count == 32)
    }
    #expect(SecureRandom.urlSafeToken(byteCount: 48).utf8.count == 64)
    #expect(SecureRandom.urlSafeToken(byteCount: 0).isEmpty)
  }
}
