import Foundation
import SocialLogin
import SocialLoginRedis

extension ReplicasBench {
  /// `redis_sign_out_propagation`: four `replicas-follower` processes hold one session; one
  /// signs out, and each other one notes when its session ended (its `freshAccessToken()`
  /// then throws `signedOut`). Over `rounds` rounds (a new session each), the time from the
  /// start of the sign-out call to each other replica's end, on the wall clock the processes
  /// share: p50, p99 and max in ms (goal p99 ≤ 5 ms on loopback).
  static func signOutPropagation(prefix: String, rounds: Int = 25) async throws -> Figure {
    let store = try await RedisSessionStore.connect(
      url: url, options: RedisSessionStore.Options(keyPrefix: prefix))
    defer { store.client.close() }
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var delays: [Double] = []
    var sameReason = true
    for round in 0..<rounds {
      let subject = "signout-\(round)"
      _ = try await store.save(
        StoredSession(
          key: SessionKey(provider: .twitter, subject: subject),
          credential: Credential(
            accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600))),
        expectedVersion: nil)
      let workers = try (0..<4).map { _ in
        try ChildWorker(
          executable: executable,
          arguments: [
            "replicas-follower", "--redis", url, "--prefix", prefix, "--subject", subject,
          ])
      }
      for worker in workers { _ = try await worker.line(prefix: "ready") }
      workers[0].send("signout")
      let started = try await worker(workers[0], field: "signing-out ", at: 1)
      for worker in workers.dropFirst() {
        let line = try await worker.line(prefix: "ended ")
        let fields = line.split(separator: " ")
        sameReason = sameReason && fields.count == 4 && fields[3] == "userInitiated"
        if fields.count == 4, let ended = Int64(fields[2]) {
          delays.append(Double(ended - started) / 1000)
        }
      }
      for worker in workers { worker.send("exit") }
    }
    delays.sort()
    return Figure(
      "redis_sign_out_propagation",
      [
        ("replicas", "4"), ("rounds", String(rounds)), ("samples", String(delays.count)),
        ("p50_ms", fmt(percentile(delays, 0.5))), ("p99_ms", fmt(percentile(delays, 0.99))),
        ("max_ms", fmt(delays.last ?? 0)), ("goal_p99_ms", "5"),
        ("all_signed_out_user_initiated", sameReason ? "yes" : "no"),
      ])
  }

  private static func worker(_ worker: ChildWorker, field prefix: String, at index: Int)
    async throws -> Int64
  {
    let line = try await worker.line(prefix: prefix)
    let fields = line.split(separator: " ")
    guard fields.count > index, let value = Int64(fields[index]) else {
      throw AuthError(.timedOut, "The follower printed an unreadable \(prefix)line.")
    }
    return value
  }
}
