// Throughput of the pure-Swift hash primitives on the sizes that matter to the SDK: JWT-sized
// inputs (1 KiB) and bulk data (1 MiB, comparable with `openssl speed -evp sha256`).

import SocialLoginCrypto

/// Written by `blackHole` so the optimizer cannot prove benchmarked results unused.
nonisolated(unsafe) private var benchmarkSink: UInt8 = 0

@inline(never)
private func blackHole(_ bytes: [UInt8]) {
  benchmarkSink &+= bytes.first ?? 0
}

/// Runs the hash benchmarks and returns one row per measurement.
///
/// Throughput is in MB/s with 1 MB = 10^6 bytes, the unit `openssl speed` reports (it prints
/// thousands of bytes per second).
func runHashBench() -> [(name: String, value: Double, unit: String)] {
  let oneKiB = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
  let oneMiB = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
  let key = [UInt8](repeating: 0x4B, count: 32)

  let sha256KiB = iterationsPerSecond { blackHole(SHA256.hash(oneKiB)) }
  let sha256MiB = iterationsPerSecond { blackHole(SHA256.hash(oneMiB)) }
  let hmacKiB = iterationsPerSecond {
    blackHole(HMAC<SHA256>.authenticationCode(for: oneKiB, using: key))
  }
  return [
    ("sha256_1KiB", sha256KiB * 1024 / 1e6, "MB/s"),
    ("sha256_1MiB", sha256MiB * Double(1 << 20) / 1e6, "MB/s"),
    ("hmac_sha256_1KiB", hmacKiB, "ops/s"),
  ]
}

/// Best of many short timed batches after a warm-up. Short batches usually fit between
/// preemptions, so on a shared machine the best one reflects the code rather than the load.
func iterationsPerSecond(
  batches: Int = 40, batchDuration: Duration = .milliseconds(25), _ body: () -> Void
) -> Double {
  let clock = ContinuousClock()
  let warmUpEnd = clock.now.advanced(by: .milliseconds(200))
  while clock.now < warmUpEnd {
    body()
  }
  var best = 0.0
  for _ in 0..<batches {
    var iterations = 0
    let start = clock.now
    var elapsed = Duration.zero
    while elapsed < batchDuration {
      body()
      iterations += 1
      elapsed = start.duration(to: clock.now)
    }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    best = max(best, Double(iterations) / seconds)
  }
  return best
}
