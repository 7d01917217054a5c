import Foundation
import SocialLogin
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sociallogin-bench replicas-worker` as a child process: one replica with its own Redis
/// connections and its own session actor, driven line by line over stdin/stdout.
final class WorkerProcess: @unchecked Sendable {
  // `output` is only touched under `lock`; the process and pipes are set up once in init.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()
  private var text = ""

  /// `<package>/.build/debug/sociallogin-bench`, found from this file's path.
  static let executable: URL? = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    let candidate = root.appendingPathComponent(".build/debug/sociallogin-bench")
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
  }()

  /// Starts `sociallogin-bench <command> <arguments>` (`replicas-worker` by default,
  /// `replicas-follower` for a replica holding a session through a `LoginClient`).
  init(command: String = "replicas-worker", arguments: [String]) throws {
    guard let executable = Self.executable else {
      throw RedisTestError("sociallogin-bench is not built (swift build)")
    }
    process.executableURL = executable
    process.arguments = [command] + arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let chunk = handle.availableData
      guard let self, !chunk.isEmpty else { return }
      self.lock.withLock { self.text += String(decoding: chunk, as: UTF8.self) }
    }
    try process.run()
  }

  /// The complete lines printed so far (a chunk may end in the middle of one).
  var lines: [String] {
    lock.withLock { text }.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map(String.init)
  }

  func hasLine(_ prefix: String) -> Bool { lines.contains { $0.hasPrefix(prefix) } }

  /// Waits for a line starting with `prefix`; fails if the process exits or time runs out.
  func waitForLine(_ prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
      guard process.isRunning else {
        // Its last output may still be in the pipe: give the reader a moment.
        try await Task.sleep(for: .milliseconds(300))
        if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
        throw RedisTestError("worker exited (status \(process.terminationStatus)) before \(prefix)")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw RedisTestError("worker printed no \(prefix) line within \(timeout)")
  }

  func go() { send("go") }

  /// Writes `line` to the worker's stdin; a worker that is gone is not an error here (the
  /// next wait for its output says so). SIGPIPE is ignored so that such a write fails instead
  /// of killing the test process.
  func send(_ line: String) {
    Self.ignoreBrokenPipes
    try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Freezes the process (SIGSTOP): its sockets stay open, but it reads, renews and writes
  /// nothing, like a paused VM.
  func suspend() {
    Glibc.kill(process.processIdentifier, SIGSTOP)
  }

  func kill() {
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// How many callers got each outcome (`token:at-1`, `error:signed_out:...`), and latencies.
  func result(timeout: Duration = .seconds(90)) async throws -> WorkerResult {
    let line = try await waitForLine("result ", timeout: timeout)
    let json = Data(line.dropFirst("result ".count).utf8)
    guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
      let outcomes = object["outcomes"] as? [String: Int],
      let latencies = object["latencies_us"] as? [Int]
    else { throw RedisTestError("unreadable worker result") }
    return WorkerResult(outcomes: outcomes, latencies: latencies)
  }

  deinit {
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    output.fileHandleForReading.readabilityHandler = nil
  }
}

struct WorkerResult: Sendable {
  var outcomes: [String: Int]
  var latencies: [Int]
}
