import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `sociallogin` binary as a child process of a test, its outputs in files, so a test
/// can read stderr while it runs. Shared by every test target that runs the CLI.
public enum CLIProcess {
  /// How a run ended.
  public struct Result: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
  }

  /// `<package>/.build/debug/sociallogin`, found from this file's path; `nil` when not built.
  public static let executable: URL? = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    let candidate = root.appendingPathComponent(".build/debug/sociallogin")
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
  }()

  /// A running CLI: `XDG_CONFIG_HOME` is `home`, no `SOCIALLOGIN_*` variable of the test's own
  /// environment and no display leak in; `environment` is added last.
  public final class Running: Sendable {
    /// The child process.
    public let process: SpawnedChild
    let outURL: URL
    let errURL: URL

    /// Starts `sociallogin` with `arguments`; stdin is `input`, else empty.
    public init(
      _ arguments: [String], home: URL, environment: [String: String] = [:],
      input: Pipe? = nil
    ) throws {
      let id = UUID().uuidString
      outURL = home.appendingPathComponent("out-\(id)")
      errURL = home.appendingPathComponent("err-\(id)")
      _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      guard let executable = CLIProcess.executable else {
        throw CLIProcessError("sociallogin is not built")
      }
      var merged = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("SOCIALLOGIN_")
      }
      merged["XDG_CONFIG_HOME"] = home.path
      merged["DISPLAY"] = nil
      merged["WAYLAND_DISPLAY"] = nil
      let out = try FileHandle(forWritingTo: outURL)
      let err = try FileHandle(forWritingTo: errURL)
      let stdin = try input?.fileHandleForReading ?? FileHandle(forReadingFrom: CLIProcess.devNull)
      defer {
        try? out.close()
        try? err.close()
        if input == nil { try? stdin.close() }
      }
      process = try SpawnedChild(
        executable, arguments: arguments, environment: merged.merging(environment) { $1 },
        stdin: stdin, stdout: out, stderr: err)
    }

    /// What the CLI wrote to stderr so far.
    public var stderr: String {
      String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
    }

    /// The first complete stderr line starting with `prefix`, waiting up to 60 s.
    public func line(startingWith prefix: String) async throws -> String {
      let deadline = ContinuousClock.now + .seconds(60)
      while ContinuousClock.now < deadline {
        let text = stderr
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
          text.contains(line + "\n")
        {
          return String(line)
        }
        guard process.isRunning else { break }
        try await Task.sleep(for: .milliseconds(20))
      }
      throw CLIProcessError("no '\(prefix)' line; stderr: \(stderr)")
    }

    /// Waits (off the cooperative pool, at most 60 s, then interrupts it) for the exit.
    public func finish() async throws -> Result {
      let process = self.process
      let status: Int32 = await withCheckedContinuation { continuation in
        Thread {
          continuation.resume(returning: process.wait(deadline: 60))
        }.start()
      }
      return Result(
        status: status,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self), stderr: stderr)
    }
  }

  /// Runs `sociallogin` with `arguments` to its end.
  public static func run(_ arguments: [String], home: URL, environment: [String: String] = [:])
    async throws -> Result
  {
    try await Running(arguments, home: home, environment: environment).finish()
  }

  /// `/dev/null`, a child's stdin when a test gives none.
  static let devNull = URL(fileURLWithPath: "/dev/null")

  /// A new, empty HOME for one test's runs: `sociallogin-<name>-<UUID>` in the temporary
  /// directory (the test removes it).
  public static func makeHome(_ name: String) throws -> URL {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    return home
  }

  /// Runs `login` with `arguments` (plus `--no-browser --timeout 60`) and plays the browser:
  /// GETs the URL it prints (the emulator approves and redirects to the CLI's loopback
  /// callback). Returns the finished run and the HTTP status of the page the browser got.
  public static func login(
    _ arguments: [String], home: URL, environment: [String: String] = [:]
  ) async throws -> (result: Result, pageStatus: Int?) {
    let cli = try Running(
      ["login"] + arguments + ["--no-browser", "--timeout", "60"], home: home,
      environment: environment)
    let prefix = "Open this URL to sign in: "
    let line = try await cli.line(startingWith: prefix)
    guard let url = URL(string: String(line.dropFirst(prefix.count))) else {
      throw CLIProcessError("login printed no URL: \(line)")
    }
    var request = URLRequest(url: url)
    request.timeoutInterval = 60
    let (_, response) = try await URLSession.shared.data(for: request)
    return (try await cli.finish(), (response as? HTTPURLResponse)?.statusCode)
  }
}

/// A CLI run did not do what the test waited for.
public struct CLIProcessError: Error, CustomStringConvertible {
  /// What was missing.
  public let description: String

  /// Creates the error.
  public init(_ description: String) { self.description = description }
}

extension Trait where Self == ConditionTrait {
  /// Runs a suite only when the `sociallogin` binary is built (``CLIProcess/executable``).
  public static var needsCLIBinary: Self {
    .enabled(if: CLIProcess.executable != nil, "sociallogin binary not built; run swift build")
  }
}
