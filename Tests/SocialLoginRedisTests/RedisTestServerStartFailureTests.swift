import Foundation
import SocialLogin
import Testing

@testable import SocialLoginTesting

/// How `RedisTestServer` fails to start: typed errors naming the cause, within bounded waits,
/// never a hang; and when it skips instead of failing.
@Suite(.timeLimit(.minutes(3))) struct RedisTestServerStartFailureTests {
  /// An environment whose `PATH` is an empty directory: no redis-server.
  static func withoutRedisOnPath(_ extra: [String: String] = [:]) throws -> [String: String] {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sociallogin-empty-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    return ["PATH": empty.path].merging(extra) { $1 }
  }

  @Test func redisServerMissingFromPATHIsNotInstalledNamingTheSkip() async throws {
    let environment = try Self.withoutRedisOnPath()
    #expect(RedisTestServer.executable(environment: environment) == nil)
    #expect(!RedisTestServer.isRequired(environment: environment))
    let error = await #expect(throws: RedisTestServerError.self) {
      try await RedisTestServer.with(environment: environment) { _ in }
    }
    #expect(error?.code == .notInstalled)
    #expect(error?.message.contains("redis-server is not on PATH") == true)
    #expect(error?.message.contains(".redisAvailable") == true, "says how to skip")
  }

  @Test(arguments: ["true", "1", "yes"])
  func underCIAMissingRedisServerIsAFailureSayingSo(ci: String) async throws {
    let environment = try Self.withoutRedisOnPath(["CI": ci])
    #expect(RedisTestServer.isRequired(environment: environment))
    let error = await #expect(throws: RedisTestServerError.self) {
      try await RedisTestServer.with(environment: environment) { _ in }
    }
    #expect(error?.code == .notInstalled)
    #expect(error?.message.contains("CI is set") == true)
  }

  @Test(arguments: ["", "0", "false", "FALSE"])
  func aCIVariableThatIsEmptyOrFalseDoesNotRequireRedis(ci: String) {
    #expect(!RedisTestServer.isRequired(environment: ["CI": ci]))
  }

  @Test(.redisAvailable) func aServerThatExitsAtStartIsATypedErrorWithItsOutput() async throws {
    let started = ContinuousClock.now
    let error = await #expect(throws: RedisTestServerError.self) {
      try await RedisTestServer.with(arguments: ["--no-such-directive", "1"]) { _ in }
    }
    #expect(error?.code == .exitedAtStart, "\(String(describing: error))")
    #expect(error?.message.contains("exited with status 1") == true)
    #expect(error?.output.contains("no-such-directive") == true, "its stderr tail")
    // Reported when it exits, not after the readiness timeout (60 s).
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test(.redisAvailable) func aServerThatNeverAnswersIsNotReadyWithinItsTimeout() async throws {
    // `--port 0`, last on the command line, overrides the fixture's port: no TCP listener.
    let error = await #expect(throws: RedisTestServerError.self) {
      try await RedisTestServer.with(
        arguments: ["--port", "0"], readinessTimeout: .milliseconds(500)
      ) { _ in }
    }
    #expect(error?.code == .notReady, "\(String(describing: error))")
  }

  @Test(.redisAvailable) func aPortTakenBeforeTheServerBindsItIsReplacedByAnother() async throws {
    let taken = try LoopbackListener()
    let handedOut = Locked(0)
    let server = try await RedisTestServer.start(
      arguments: [], environment: ProcessInfo.processInfo.environment,
      readinessTimeout: .seconds(60)
    ) { () throws(RedisTestServerError) -> UInt16 in
      let first = handedOut.withLock { count in
        defer { count += 1 }
        return count == 0
      }
      return first ? taken.port : try RedisTestServer.freePort()
    }
    defer { server.stop() }
    #expect(handedOut.withLock { $0 } == 2)
    #expect(server.port != taken.port)
    #expect(LoopbackProbe.answersPing(port: server.port))
  }

  @Test(.redisAvailable) func onlyTakenPortsIsPortUnavailableNotAnEndlessRetry() async throws {
    let taken = try LoopbackListener()
    let error = await #expect(throws: RedisTestServerError.self) {
      _ = try await RedisTestServer.start(
        arguments: [], environment: ProcessInfo.processInfo.environment,
        readinessTimeout: .seconds(60)
      ) { () throws(RedisTestServerError) -> UInt16 in taken.port }
    }
    #expect(error?.code == .portUnavailable)
    #expect(error?.output.contains("Address already in use") == true)
  }

  @Test(.redisAvailable) func aRestartWhosePortWasTakenMeanwhileIsPortUnavailable() async throws {
    try await RedisTestServer.with { server in
      var holder: LoopbackListener?
      let error = await #expect(throws: RedisTestServerError.self) {
        try await server.restart { holder = try LoopbackListener(port: server.port) }
      }
      #expect(error?.code == .portUnavailable)
      #expect(holder != nil)
    }
  }
}
