import CLITestProcess
import Foundation

/// `promtool`, from Debian's `prometheus` package (`.ci/run` installs it), checking metrics the
/// way Prometheus's own linter does.
public enum Promtool {
  /// The executable, or `nil` when it is not installed.
  public static let path: String? = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether a missing promtool must fail the tests (with `CI` set) rather than skip them.
  public static let required: Bool = {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
  }()

  /// Why tests that need promtool are skipped here.
  public static let missing =
    "promtool is not installed; apt-get install prometheus (with CI set this fails)"

  /// `promtool check metrics` on `exposition`: its exit status and everything it printed.
  public static func checkMetrics(_ exposition: String) async throws -> (
    status: Int32, output: String
  ) {
    guard let tool = path else {
      return (127, "promtool is not installed (apt-get install prometheus)")
    }
    return try await blockingCall {
      let run = try SpawnedChild.run(
        URL(fileURLWithPath: tool), arguments: ["check", "metrics"],
        input: Data(exposition.utf8))
      return (run.status, String(decoding: run.output, as: UTF8.self))
    }
  }
}
