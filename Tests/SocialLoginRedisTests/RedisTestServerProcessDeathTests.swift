import Foundation
import Testing

@testable import SocialLoginTesting

#if canImport(Glibc)
  import Glibc
#endif

/// A `RedisTestServer` never outlives its test process: `RedisTestServerHolder` (a process
/// that starts one and waits) is killed with SIGKILL, which runs no cleanup, and its
/// redis-server must die too.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisTestServerProcessDeathTests {
  /// `<package>/.build/debug/RedisTestServerHolder`, found from this file's path.
  static let holder: URL? = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { root.deleteLastPathComponent() }
    let candidate = root.appendingPathComponent(".build/debug/RedisTestServerHolder")
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
  }()

  @Test func theServerDiesWhenItsProcessIsKilled() async throws {
    let executable = try #require(Self.holder, "RedisTestServerHolder is not built (swift build)")
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "holder-\(UUID().uuidString).out")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let stdin = Pipe()
    let process = Process()
    process.executableURL = executable
    process.standardInput = stdin
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = FileHandle.standardError
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    var ready: [Substring] = []
    let printed = try await ProcessProbe.waitUntil(timeout: .seconds(90)) {
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      ready =
        text.split(separator: "\n").first { $0.hasPrefix("ready ") }?
        .split(separator: " ") ?? []
      return ready.count == 3 || !process.isRunning
    }
    try #require(printed && ready.count == 3, "the holder printed no ready line")
    let pid = try #require(Int32(ready[1]))
    let port = try #require(UInt16(ready[2]))
    #expect(ProcessProbe.command(pid) == "redis-server")
    #expect(LoopbackProbe.answersPing(port: port))

    kill(process.processIdentifier, SIGKILL)
    #expect(try await ProcessProbe.waitUntil { !process.isRunning })
    #expect(
      try await ProcessProbe.waitUntil { ProcessProbe.isDead(pid) },
      "redis-server \(pid) outlived the process that started it")
    #expect(!LoopbackProbe.answersPing(port: port))
  }
}
