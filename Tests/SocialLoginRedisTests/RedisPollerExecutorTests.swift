import SocialLogin
import Testing

@testable import SocialLoginRedis

/// ``RedisClient/executor``: a task that prefers it is resumed on the thread that read its
/// reply, and its commands still get their replies in order.
@Suite(.redisAvailable, .timeLimit(.minutes(1))) struct RedisPollerExecutorTests {
  @Test func aTaskPreferringThePollerRunsThereAndGetsEveryReply() async throws {
    try await RedisFixture.with { server in
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      let poller = try #require(RedisPoller.shared)
      let executor = try #require(RedisClient.executor)
      // Eight tasks, one command at a time each, like a session load.
      let counts = try await withTaskExecutorPreference(executor) {
        try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
          for worker in 0..<8 {
            group.addTask {
              var onPoller = true
              for _ in 0..<200 {
                try await client.send(["INCR", "counter:\(worker)"])
                onPoller = onPoller && poller.isCurrentThread
              }
              let value = try await client.send(["GET", "counter:\(worker)"]).string
              return (Int(value ?? "") ?? -1, onPoller && poller.isCurrentThread)
            }
          }
          var results: [(Int, Bool)] = []
          for try await result in group { results.append(result) }
          return results
        }
      }
      #expect(counts.map(\.0) == Array(repeating: 200, count: 8))
      #expect(counts.allSatisfy { $0.1 }, "every reply resumed its task on the poller thread")
      // Without the preference, nothing runs there.
      try await client.send(["PING"])
      #expect(!poller.isCurrentThread)
    }
  }
}
