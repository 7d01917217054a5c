import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

extension ReplicasBench {
  /// `redis_write_to_wake`: four `replicas-worker` processes with one caller each on one
  /// expired session; the leader refreshes (the token endpoint answers at once) and writes the
  /// record, whose message wakes the other three. Over `rounds` rounds, the time from the
  /// start of the leader's write to each follower's answer, on the shared wall clock: p50,
  /// p99 (goal ≤ 2 ms on loopback), and the provider requests per due session.
  static func writeToWake(store: RedisSessionStore, prefix: String, rounds: Int = 20)
    async throws -> Figure
  {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var wakes: [Double] = []
    var requests = 0
    for round in 0..<rounds {
      let tokens = try RotatingTokenServer(latency: .zero)
      defer { tokens.close() }
      let subject = "wake-\(round)"
      _ = try await store.save(
        StoredSession(
          key: SessionKey(provider: .twitter, subject: subject),
          credential: Credential(
            accessToken: "at-0", refreshToken: "rt-0", expiresAt: Date().addingTimeInterval(-60))),
        expectedVersion: nil)
      let workers = try (0..<4).map { _ in
        try ChildWorker(
          executable: executable,
          arguments: [
            "replicas-worker", "--redis", url, "--prefix", prefix, "--subject", subject,
            "--token-endpoint", tokens.tokenEndpoint.absoluteString, "--callers", "1",
            "--transport", "loopback", "--report-on-request", "1",
          ])
      }
      for worker in workers { _ = try await worker.line(prefix: "ready") }
      for worker in workers { worker.go() }
      for worker in workers { _ = try await worker.line(prefix: "done") }
      for worker in workers { worker.send("report") }
      var saves: [Int64] = []
      var ends: [Int64] = []
      for worker in workers {
        let line = try await worker.line(prefix: "result ")
        let json = Data(line.dropFirst("result ".count).utf8)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
        saves.append((object["save_start_unix_us"] as? NSNumber)?.int64Value ?? 0)
        ends.append((object["last_end_unix_us"] as? NSNumber)?.int64Value ?? 0)
      }
      requests += tokens.attempts
      guard let leader = saves.firstIndex(where: { $0 > 0 }) else { continue }
      for index in workers.indices where index != leader && saves[index] == 0 {
        wakes.append(Double(ends[index] - saves[leader]) / 1000)
      }
    }
    wakes.sort()
    return Figure(
      "redis_write_to_wake",
      [
        ("processes", "4"), ("callers_per_process", "1"), ("rounds", String(rounds)),
        ("samples", String(wakes.count)), ("p50_ms", fmt(percentile(wakes, 0.5))),
        ("p99_ms", fmt(percentile(wakes, 0.99))), ("goal_p99_ms", "2"),
        ("provider_requests_per_due_session", fmt(Double(requests) / Double(rounds))),
      ])
  }
}
