import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// The built `sociallogin` binary with `--store redis-sentinel://...`: it reads the sessions
/// from the master the sentinels name.
@Suite(.oneCLIAtATime, .redisAvailable, .needsCLIBinary, .timeLimit(.minutes(5)))
struct CLISentinelStoreTests {
  @Test func statusReadsTheStoreOnTheMasterTheSentinelsName() async throws {
    let home = try CLIProcess.makeHome("cli-sentinel")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisTestSentinels.with { deployment in
      let saver = RedisSessionStore(
        client: RedisClient(configuration: try deployment.configuration(database: 2)),
        sealing: TestSealing.sealing,
        options: RedisSessionStore.Options())
      let saved = try await saver.save(
        StoredSession(
          key: SessionKey(provider: .twitter, subject: "via-sentinels"),
          credential: Credential(accessToken: "at", refreshToken: "rt")),
        expectedVersion: nil)
      saver.client.close()
      let status = try await CLIProcess.run(
        [
          "status", "--json", "--sealing-key-file", TestSealing.keyFile, "--store",
          deployment.url(database: 2),
        ], home: home)
      #expect(status.status == 0, "\(status.stderr)")
      #expect(status.stdout.contains(saved.key.subject), "\(status.stdout)")
      let missingName = try await CLIProcess.run(
        ["status", "--store", "redis-sentinel://127.0.0.1:1"], home: home)
      #expect(missingName.status != 0)
      #expect(missingName.stderr.contains("master name"), "\(missingName.stderr)")
    }
  }
}
