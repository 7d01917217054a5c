import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One printed figure: a name, labelled parameters and values.
struct Figure: Sendable {
  var name: String
  var fields: [(String, String)]

  init(_ name: String, _ fields: [(String, String)]) {
    self.name = name
    self.fields = fields
  }

  /// The value of the field `key`, if any.
  func value(_ key: String) -> String? {
    fields.first { $0.0 == key }?.1
  }

  var line: String {
    ([name] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
  }

  var jsonObject: String {
    let body = fields.map { key, value in
      let isNumber = Double(value) != nil
      return "\"\(key)\": " + (isNumber ? value : "\"\(value)\"")
    }
    return "{\"name\": \"\(name)\"" + (body.isEmpty ? "" : ", " + body.joined(separator: ", "))
      + "}"
  }
}

/// The figures collected across suites (appended from the detached bench task).
final class ResultBox: Sendable {
  private let figures = Mutex<[Figure]>([])
  func append(_ more: [Figure]) { figures.withLock { $0 += more } }
  /// The figures appended so far.
  var figureList: [Figure] { figures.withLock { $0 } }
  /// A process exit status set from a detached task.
  final class Status: Sendable {
    private let value = Mutex<Int32>(0)
    func set(_ status: Int32) { value.withLock { $0 = status } }
    func get() -> Int32 { value.withLock { $0 } }
  }

  var json: String {
    "[\n  " + figures.withLock { $0.map(\.jsonObject) }.joined(separator: ",\n  ") + "\n]"
  }
}

enum Suite: String, CaseIterable, Sendable {
  case core
  case crypto
  case login
  /// Full logins through the provider emulator, and the demo's wall time.
  case emulator
  /// Only the cached-token figures (for profiling with callgrind).
  case freshToken = "fresh-token"
  /// Many replicas on one Redis (`--store redis://...`, default redis://127.0.0.1:6379).
  case replicas
  /// Only the cross-process refresh of `replicas` (with `SOCIALLOGIN_BENCH_TRACE=1`, every
  /// worker also prints the timestamps of each step on stderr).
  case replicasRefresh = "replicas-refresh"
  /// Only the SET/GET throughput of `replicas`, beside `redis-benchmark`'s.
  case replicasThroughput = "replicas-throughput"
  /// Only the unpipelined SET/GET throughput (one command at a time per connection, what a
  /// session load is), five rounds beside `redis-benchmark -P 1`'s.
  case replicasUnpipelined = "replicas-unpipelined"
  /// Only the sign-out propagation of `replicas` (four `replicas-follower` processes).
  case replicasSignOut = "replicas-signout"
  /// Only the bytes per account link in Redis (`MEMORY USAGE`).
  case replicasLinks = "replicas-links"
  /// Back-channel logout tokens verified and applied per second, beside raw RS256 verifies.
  case events
  /// Login, refresh and verify through a provider description beside the hand-written OIDC
  /// provider.
  case described

  func run() async -> [Figure] {
    switch self {
    case .core: return await CoreBench.run()
    case .crypto: return await CryptoBench.run()
    case .login: return await LoginBench.run()
    case .emulator: return await EmulatorBench.run()
    case .freshToken: return await CoreBench.freshTokenCost()
    case .replicas: return await ReplicasBench.run()
    case .replicasRefresh: return await ReplicasBench.run(only: .refresh)
    case .replicasThroughput: return await ReplicasBench.run(only: .throughput)
    case .replicasUnpipelined: return await ReplicasBench.run(only: .unpipelined)
    case .replicasSignOut: return await ReplicasBench.run(only: .signOut)
    case .replicasLinks: return await ReplicasBench.run(only: .links)
    case .events: return await ProviderEventsBench.run()
    case .described: return await DescribedBench.run()
    }
  }
}

struct BenchOptions: Sendable {
  static let usage = """
    USAGE: sociallogin-bench [core|crypto|login|emulator|replicas|replicas-refresh|
                          replicas-throughput|replicas-unpipelined|replicas-signout|
                          replicas-links|described]...
       sociallogin-bench chaos [--duration S] [--replicas N] [--store redis|URL|file:DIR]
                          [--grace-ms N]   (replicas killed mid-refresh; see ChaosBench)
                          [--store redis://...|rediss://...]
                          [--tls-store rediss://...] [--cluster-store redis://...]
                          [--sealing-key-file PATH] [--json]

    Build with -c release. Prints one line per figure, or a JSON array with --json.
    `events` gives back-channel logout tokens verified and applied per second beside the raw
    RS256 verification rate.
    `described` gives login+refresh+verify through a provider description beside the
    hand-written OIDC provider on the same canned answers.
    `replicas` needs a Redis server (--store, default redis://127.0.0.1:6379); with
    --tls-store (the same server's TLS port, e.g. rediss://127.0.0.1:6380?ca=ca.pem) it adds
    the TLS round trip beside the plaintext one (redis_tls_rtt); with --cluster-store (any node
    of a Redis Cluster) the cross-process refresh on the cluster
    (redis_cluster_cross_process_refresh). A cluster as --store gives every figure but SET/GET
    and memory per session, which are one server's. Redis records are sealed as the CLI seals
    them: with --sealing-key-file PATH or SOCIALLOGIN_SEALING_KEY_FILE, else with a new key in
    a private temporary file; the worker processes get the same key file.

    """

  var suites: [Suite] = []
  var json = false

  init?(_ arguments: [String]) {
    var skipNext = false
    for argument in arguments {
      if skipNext {
        skipNext = false
      } else if ["--store", "--tls-store", "--cluster-store", "--sealing-key-file"].contains(
        argument)
      {
        skipNext = true
      } else if argument == "--json" {
        json = true
      } else if let suite = Suite(rawValue: argument) {
        suites.append(suite)
      } else {
        return nil
      }
    }
    if suites.isEmpty { suites = [.core] }
  }
}

/// Keeps the optimizer from deleting work whose result is unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Resident set size of this process in MiB, from /proc/self/status (0 where unavailable).
///
/// Freed heap is first handed back to the kernel (`malloc_trim`), so the figure is the memory
/// the process still uses rather than what glibc keeps cached from earlier temporaries.
func residentMegabytes() -> Double {
  #if canImport(Glibc)
    // malloc.h is not part of the Glibc module; look the function up instead.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
      typealias MallocTrim = @convention(c) (Int) -> Int32
      _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
  #endif
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
  else { return 0 }
  return kilobytes / 1024
}

/// Median of `rounds` timings of `body`, in nanoseconds per iteration.
func measureNanoseconds(
  rounds: Int = 7, iterations: Int, _ body: (Int) async -> Void
) async -> Double {
  var samples: [Double] = []
  let clock = ContinuousClock()
  await body(iterations / 10 + 1)  // warm-up
  for _ in 0..<rounds {
    let elapsed = await clock.measure { await body(iterations) }
    samples.append(elapsed.nanoseconds / Double(iterations))
  }
  samples.sort()
  return samples[samples.count / 2]
}

extension Duration {
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

func format(_ value: Double, decimals: Int = 1) -> String {
  String(format: "%.\(decimals)f", value)
}
