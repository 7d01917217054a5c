import Foundation
import SocialLogin
import TestPacing
import Testing

/// `promtool`, from Debian's `prometheus` package (`.ci/run` installs it); `nil` when absent.
private let promtool: String? = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// With `CI` set a missing promtool fails the test instead of skipping it.
private let promtoolRequired: Bool = {
  let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
  return !["", "0", "false"].contains(value)
}()

/// Issue 23: the recorder's output is what Prometheus accepts, as its own linter says.
@Suite(
  .enabled(
    if: promtool != nil || promtoolRequired,
    "promtool is not installed; apt-get install prometheus (with CI set this fails)"),
  .timeLimit(.minutes(2)))
struct PromtoolTests {
  @Test func promtoolAcceptsEveryMetricTheRecorderRenders() async throws {
    let tool = try #require(promtool, "promtool is not installed (apt-get install prometheus)")
    let metrics = MetricsRecorder()
    for provider in [ProviderID.line, .facebook, .twitter, "corp\"\\quoted"] {
      for event in AuthEvent.everyKind(provider: provider) { metrics.observe(event) }
    }
    let text = metrics.prometheusText()
    let (status, output) = try await blockingCall {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: tool)
      process.arguments = ["check", "metrics"]
      let input = Pipe()
      let combined = Pipe()
      process.standardInput = input
      process.standardOutput = combined
      process.standardError = combined
      try process.run()
      input.fileHandleForWriting.write(Data(text.utf8))
      try input.fileHandleForWriting.close()
      let data = combined.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
    #expect(status == 0, "promtool: \(output)\n---\n\(text)")
    #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
  }
}
