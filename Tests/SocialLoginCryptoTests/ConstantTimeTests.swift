import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct ConstantTimeTests {
  @Test func equalBytesCompareEqual() {
    #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
  }

  @Test func differentBytesOrLengthsCompareUnequal() {
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
  }
}
