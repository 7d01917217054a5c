import Foundation
import SocialLogin
import SocialLoginRedis

extension ReplicasBench {
  /// `redis_sign_out_propagation`: four `replicas-follower` processes hold the same
  /// `rounds + 1` sessions; each round one of them (in turn) signs one session out, and each
  /// other one notes when its copy ended (its `freshAccessToken()` then throws `signedOut`).
  /// The time from the start of the sign-out call to each other replica's end, on the wall
  /// clock the processes share: p50, p99 and max in ms (goal p99 ≤ 5 ms on loopback). The
  /// first round warms the processes up (first calls page code in) and is not counted.
  static func signOutPropagation(prefix: String, rounds: Int = 25) async throws -> Figure {
    let prefix = prefix + "-signout"
    let store = try await RedisSessionStore.connect(
      url: url, sealing: BenchSealing.sealing, options: RedisSessionStore.Options(keyPrefix: prefix)
    )
    defer { store.client.close() }
    for round in 0...rounds {
      _ = try await store.save(
        StoredSession(
          key: SessionKey(provider: .twitter, subject: "signout-\(round)"),
          credential: Credential(
            accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600))),
        expectedVersion: nil)
    }
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let workers = try (0..<4).map { _ in
      try ChildWorker(
        executable: executable,
        arguments: ["replicas-follower", "--redis", url, "--prefix", prefix])
    }
    defer { for worker in workers { worker.send("exit") } }
    for worker in workers { _ = try await worker.line(prefix: "ready") }
    var delays: [Double] = []
    var sameReason = true
    for round in 0...rounds {
      let subject = "signout-\(round)"
      let signer = workers[round % workers.count]
      signer.send("signout \(subject)")
      let started = try await signer.line(prefix: "signing-out \(subject) ")
      guard let start = started.split(separator: " ").last.flatMap({ Int64($0) }) else {
        throw AuthError(.timedOut, "The follower printed an unreadable signing-out line.")
      }
      for worker in workers where worker !== signer {
        let fields = try await worker.line(prefix: "ended \(subject) ").split(separator: " ")
        sameReason = sameReason && fields.count == 5 && fields[4] == "userInitiated"
        if round > 0, fields.count == 5, let ended = Int64(fields[3]) {
          delays.append(Double(ended - start) / 1000)
        }
      }
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
}
