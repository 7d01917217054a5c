import Foundation
import SocialLogin
import TestPacing
import Testing

/// Issue 23: the recorder's output is what Prometheus accepts, as its own linter says.
@Suite(
  .enabled(if: Promtool.path != nil || Promtool.required, "\(Promtool.missing)"),
  .timeLimit(.minutes(2)))
struct PromtoolTests {
  @Test func promtoolAcceptsEveryMetricTheRecorderRenders() async throws {
    let metrics = MetricsRecorder()
    for provider in [ProviderID.line, .facebook, .twitter, "corp\"\\quoted"] {
      for event in AuthEvent.everyKind(provider: provider) { metrics.observe(event) }
    }
    let text = metrics.prometheusText()
    let (status, output) = try await Promtool.checkMetrics(text)
    #expect(status == 0, "promtool: \(output)\n---\n\(text)")
    #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
  }
}
