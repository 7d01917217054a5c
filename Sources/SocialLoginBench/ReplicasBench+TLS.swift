import Foundation
import SocialLoginRedis

/// `redis_tls_rtt`: `PING` round trips over `rediss://` (`--tls-store`) beside plaintext
/// (`--store`), on one connection each, in five alternating rounds so that both see the same
/// machine load; the medians of the rounds' p50s and p99s, their ratio (goal ≤ 1.5×), and a
/// new connection's TLS handshake (TCP connect, handshake, `PING`) p50.
extension ReplicasBench {
  static var tlsURL: String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--tls-store"), index + 1 < arguments.count
    else { return nil }
    return arguments[index + 1]
  }

  /// `count` `PING` round trips on `client`, in microseconds, sorted.
  static func pingRoundTrips(_ client: RedisClient, count: Int) async throws -> [Double] {
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
      let start = ContinuousClock.now
      try await client.send(["PING"])
      samples.append(microseconds(start.duration(to: .now)))
    }
    return samples.sorted()
  }

  static func tlsRoundTrip(plain: RedisClient, tlsURL: String) async throws -> Figure {
    let tls = try RedisClient(url: tlsURL)
    defer { tls.close() }
    _ = try await pingRoundTrips(tls, count: 200)  // connect and warm up
    var plainP50: [Double] = []
    var plainP99: [Double] = []
    var tlsP50: [Double] = []
    var tlsP99: [Double] = []
    for _ in 0..<5 {
      let plainRound = try await pingRoundTrips(plain, count: 2000)
      plainP50.append(percentile(plainRound, 0.5))
      plainP99.append(percentile(plainRound, 0.99))
      let tlsRound = try await pingRoundTrips(tls, count: 2000)
      tlsP50.append(percentile(tlsRound, 0.5))
      tlsP99.append(percentile(tlsRound, 0.99))
    }
    var handshakes: [Double] = []
    for _ in 0..<50 {
      let fresh = try RedisClient(url: tlsURL)
      let start = ContinuousClock.now
      try await fresh.send(["PING"])
      handshakes.append(microseconds(start.duration(to: .now)))
      fresh.close()
    }
    let median = { (values: [Double]) in percentile(values.sorted(), 0.5) }
    let ratio = median(tlsP50) / median(plainP50)
    return Figure(
      "redis_tls_rtt",
      [
        ("plain_p50_us", fmt(median(plainP50))), ("plain_p99_us", fmt(median(plainP99))),
        ("tls_p50_us", fmt(median(tlsP50))), ("tls_p99_us", fmt(median(tlsP99))),
        ("ratio_p50", String(format: "%.2f", ratio)), ("goal_ratio", "1.5"),
        ("tls_connect_p50_us", fmt(median(handshakes))),
      ])
  }
}
