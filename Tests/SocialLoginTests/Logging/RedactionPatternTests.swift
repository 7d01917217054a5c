import Foundation
import Testing

@testable import SocialLogin

/// Every redaction pattern compiles and changes its sample: a pattern that stops compiling
/// (or matching) fails here instead of silently leaving a kind of secret unmasked.
@Suite(.timeLimit(.minutes(1)))
struct RedactionPatternTests {
  @Test func everyPatternCompiles() {
    #expect(Redaction.patternsFailingToCompile.isEmpty)
    #expect(Redaction.compile(Redaction.rewritePatterns)?.count == Redaction.rewritePatterns.count)
    #expect(Redaction.compile(Redaction.fieldPatterns)?.count == Redaction.fieldPatterns.count)
  }

  @Test(arguments: Redaction.rewritePatterns.indices)
  func everyRewritePatternAppliesToItsSample(index: Int) throws {
    let pattern = Redaction.rewritePatterns[index]
    let expression = try NSRegularExpression(pattern: pattern.source)
    let sample = pattern.sample
    #expect(
      expression.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil)
    let scrubbed = Redaction.scrub(sample)
    #expect(scrubbed != sample && scrubbed.contains(Redaction.mask), "\(sample) → \(scrubbed)")
  }

  @Test(arguments: Redaction.fieldPatterns.indices)
  func everyFieldPatternAppliesToItsSample(index: Int) throws {
    let pattern = Redaction.fieldPatterns[index]
    let expression = try NSRegularExpression(pattern: pattern.source)
    let sample = pattern.sample
    #expect(
      expression.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil)
    let scrubbed = Redaction.scrub(sample)
    #expect(scrubbed.contains(Redaction.mask), "\(sample) → \(scrubbed)")
  }

  @Test func aPatternThatDoesNotCompileFailsClosed() {
    let broken = Redaction.Pattern(source: "(unclosed", template: "", sample: "x")
    #expect(Redaction.compile(Redaction.rewritePatterns + [broken]) == nil)
  }
}
