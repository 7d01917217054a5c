import CLITestProcess
import Foundation
import SocialLogin
import Testing

/// What one run of the `sociallogin` binary produced.
struct CLIResult: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String

  /// `stderr` has exactly one line.
  var stderrIsOneLine: Bool { stderr.hasSuffix("\n") && stderr.filter(\.isNewline).count == 1 }
}

/// Runs the built `sociallogin` binary as a subprocess, off the cooperative pool, with its own
/// configuration home, no inherited `SOCIALLOGIN_*` variables, and a deadline (a hanging CLI
/// is killed and fails the test instead of hanging it).
struct CLIHarness: Sendable {
  /// A private directory for this test: `XDG_CONFIG_HOME` and stores live in it.
  let home: URL

  init() throws {
    home = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  /// Removes ``home``.
  func cleanUp() {
    try? FileManager.default.removeItem(at: home)
  }

  /// The default store directory the CLI uses with this home.
  var defaultStore: URL { home.appendingPathComponent("sociallogin/sessions", isDirectory: true) }

  func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    deadline: TimeInterval = 60
  ) async throws -> CLIResult {
    let binary = try #require(CLIProcess.executable, "sociallogin is not built")
    var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SOCIALLOGIN_") }
    inherited["XDG_CONFIG_HOME"] = home.path
    inherited["DISPLAY"] = nil
    inherited["WAYLAND_DISPLAY"] = nil
    let merged = inherited.merging(environment) { $1 }
    let outURL = home.appendingPathComponent("out-\(UUID().uuidString)")
    let errURL = home.appendingPathComponent("err-\(UUID().uuidString)")
    let inURL = home.appendingPathComponent("in-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
    defer {
      for url in [outURL, errURL, inURL] { try? FileManager.default.removeItem(at: url) }
    }
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      Thread {
        do {
          let out = try FileHandle(forWritingTo: outURL)
          let err = try FileHandle(forWritingTo: errURL)
          let input = try FileHandle(forReadingFrom: inURL)
          let child: SpawnedChild
          do {
            defer {
              for handle in [out, err, input] { try? handle.close() }
            }
            child = try SpawnedChild(
              binary, arguments: arguments, environment: merged, stdin: input, stdout: out,
              stderr: err)
          }
          continuation.resume(returning: child.wait(deadline: deadline))
        } catch {
          continuation.resume(throwing: error)
        }
      }.start()
    }
    let result = CLIResult(
      status: status,
      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    #expect(status != 130 || arguments.contains("--timeout"), "CLI hit the test deadline")
    return result
  }

  /// Every file under ``home`` whose bytes contain `needle`.
  func files(containing needle: String) throws -> [String] {
    guard let walker = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
    else { return [] }
    var found: [String] = []
    for case let url as URL in walker {
      guard let data = FileManager.default.contents(atPath: url.path) else { continue }
      if data.range(of: Data(needle.utf8)) != nil { found.append(url.path) }
    }
    return found
  }
}
