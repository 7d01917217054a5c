import Testing

@testable import SocialLogin

@Suite(.timeLimit(.minutes(5))) struct ErrorTextTests {
  @Test func tagsBecomeSpacesAndAnUnclosedTagIsKept() {
    #expect(ErrorText.replacingTags(in: "<p>Bad <b>request</b></p>") == " Bad  request  ")
    #expect(ErrorText.replacingTags(in: "a < b") == "a < b")
    #expect(ErrorText.replacingTags(in: "x<y>z<w") == "x z<w")
    #expect(ErrorText.replacingTags(in: "") == "")
  }

  /// Found by fuzzing: the old `<[^>]*>` expression rescanned an unclosed run from every `<`
  /// (64 KiB of `<` took seconds). One pass now; the run comes back unchanged.
  @Test func longRunsOfOpeningBracketsAreKept() {
    for run in [String(repeating: "<", count: 65_536), String(repeating: "<a", count: 32_768)] {
      #expect(ErrorText.replacingTags(in: run) == run)
    }
  }
}
