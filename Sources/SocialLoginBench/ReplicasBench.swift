import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

#if canImport(Glibc)
  import Glibc
#endif

/// `sociallogin-bench replicas --store redis://host:port`: the Redis store under load.
///
/// - `redis_rtt`: `PING` round trip through our client (p50/p99).
/// - `redis_tls_rtt` (with `--tls-store rediss://...`): the same over TLS beside plaintext, and
///   the handshake (see `ReplicasBench+TLS.swift`).
/// - `redis_cached_fresh_token`: `freshAccessToken()` on a valid token with the Redis store,
///   and how many Redis commands those calls caused (the goal is none).
/// - `redis_cross_process_refresh`: 4 worker processes × 250 callers on one expired session,
///   against a token endpoint answering after 50 ms: wall time (release of the callers to the
///   last answer), waiter p50/p99 (each from its own call), refreshes spent, and the goal
///   (provider latency + 3 RTT + 5 ms). `SOCIALLOGIN_BENCH_TRACE=1` prints each step's
///   timestamps (`trace <pid> <event> <unix µs>`) on stderr.
/// - `redis_write_to_wake`: one caller in each of 4 processes; the leader's write to the
///   followers' answers (see `ReplicasBench+Wake.swift`).
/// - `redis_sign_out_propagation`: one of 4 `replicas-follower` processes signs out; when the
///   others' sessions end (see `ReplicasBench+SignOut.swift`).
/// - `redis_set_get`: our client's SET/GET throughput beside `redis-benchmark`'s for the same
///   commands, connections and pipeline depth (the medians of five alternating rounds each).
/// - `redis_memory_per_session`: `used_memory` growth per stored session.
/// - `redis_account_link_bytes`: `MEMORY USAGE` of account links and indexes per link (see
///   `ReplicasBench+Links.swift`).
enum ReplicasBench {
  static var url: String {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--store"), index + 1 < arguments.count {
      return arguments[index + 1]
    }
    return "redis://127.0.0.1:6379"
  }

  /// One part of the suite, for focused runs.
  enum Part {
    case refresh
    case throughput
    case unpipelined
    case signOut
    case links
  }

  static func run(only part: Part? = nil) async -> [Figure] {
    do {
      return try await measure(only: part)
    } catch {
      return [
        Figure("replicas_failed", [("error", "\(error)".replacingOccurrences(of: " ", with: "_"))])
      ]
    }
  }

  static func measure(only part: Part?) async throws -> [Figure] {
    let prefix = "bench\(UInt32.random(in: 0...UInt32.max))"
    let store = try await RedisSessionStore.connect(
      url: url, sealing: BenchSealing.sealing, options: RedisSessionStore.Options(keyPrefix: prefix)
    )
    let client = store.client
    var figures: [Figure] = []

    // Round trip.
    let rtts = try await pingRoundTrips(client, count: 2000)
    let rttP50 = percentile(rtts, 0.5)
    figures.append(
      Figure("redis_rtt", [("p50_us", fmt(rttP50)), ("p99_us", fmt(percentile(rtts, 0.99)))]))
    if let tlsURL {
      figures.append(try await tlsRoundTrip(plain: client, tlsURL: tlsURL))
    }

    switch part {
    case .refresh:
      figures.append(try await crossProcess(store: store, prefix: prefix, rttMicroseconds: rttP50))
      figures.append(try await writeToWake(store: store, prefix: prefix))
    case .throughput:
      figures += try await throughput(client: client)
    case .unpipelined:
      figures += try await unpipelined(client: client)
    case .signOut:
      figures.append(try await signOutPropagation(prefix: prefix))
    case .links:
      figures.append(try await accountLinkBytes(prefix: prefix))
    case nil:
      figures.append(try await cachedToken(store: store, prefix: prefix))
      figures.append(try await signOutPropagation(prefix: prefix))
      figures.append(try await crossProcess(store: store, prefix: prefix, rttMicroseconds: rttP50))
      figures.append(try await writeToWake(store: store, prefix: prefix))
      if client.isCluster {
        // SET/GET beside redis-benchmark, memory per session and per link are one server's.
        figures.append(Figure("redis_single_server_figures", [("skipped", "cluster")]))
      } else {
        figures += try await throughput(client: client)
        figures.append(try await memoryPerSession(store: store))
        figures.append(try await accountLinkBytes(prefix: prefix))
      }
    }
    if let clusterURL, part != .throughput, part != .unpipelined {
      figures.append(try await clusterRefresh(url: clusterURL, rttMicroseconds: rttP50))
    }
    return figures
  }

  static func cachedToken(store: RedisSessionStore, prefix: String) async throws -> Figure {
    var session = StoredSession(
      key: SessionKey(provider: .twitter, subject: "cached"),
      credential: Credential(
        accessToken: "at-cached", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600)))
    session = try await store.save(session, expectedVersion: nil)
    let actor = SessionActor(
      record: session,
      provider: RefreshOnlyProvider(
        id: .twitter, tokenEndpoint: URL(string: "http://127.0.0.1:9/")!),
      store: store)
    let counter = try await ServerCommandCount(store.client)
    defer { counter.close() }
    let before = try await counter.read()
    var samples: [Double] = []
    samples.reserveCapacity(200_000)
    let clock = ContinuousClock()
    for _ in 0..<200_000 {
      let start = clock.now
      blackHole(try await actor.freshAccessToken())
      samples.append(Double(start.duration(to: clock.now).components.attoseconds) / 1e9)
    }
    // The subscriber's connection sends nothing.
    let commands = try await counter.since(before)
    samples.sort()
    return Figure(
      "redis_cached_fresh_token",
      [
        ("calls", "200000"), ("p50_ns", fmt(percentile(samples, 0.5))),
        ("p99_ns", fmt(percentile(samples, 0.99))), ("redis_commands", String(commands)),
      ])
  }

  static func crossProcess(
    store: RedisSessionStore, prefix: String, rttMicroseconds: Double, url: String = url,
    name: String = "redis_cross_process_refresh"
  ) async throws -> Figure {
    let latency = Duration.milliseconds(50)
    let transport =
      ProcessInfo.processInfo.environment["SOCIALLOGIN_BENCH_TRANSPORT"] ?? "urlsession"
    ReplicasTrace.enabled = ProcessInfo.processInfo.environment["SOCIALLOGIN_BENCH_TRACE"] == "1"
    let tokens = try RotatingTokenServer(latency: latency) { ReplicasTrace.mark($0) }
    defer { tokens.close() }
    let expired = StoredSession(
      key: SessionKey(provider: .twitter, subject: ReplicasWorker.subject),
      credential: Credential(
        accessToken: "at-0", refreshToken: "rt-0", expiresAt: Date().addingTimeInterval(-60)))
    _ = try await store.save(expired, expectedVersion: nil)
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var workers: [ChildWorker] = []
    for _ in 0..<4 {
      workers.append(
        try ChildWorker(
          executable: executable,
          arguments: [
            "replicas-worker", "--redis", url, "--prefix", prefix,
            "--token-endpoint", tokens.tokenEndpoint.absoluteString, "--callers",
            ProcessInfo.processInfo.environment["SOCIALLOGIN_BENCH_CALLERS"] ?? "250",
            "--transport", transport, "--report-on-request", "1",
          ]))
    }
    for worker in workers { _ = try await worker.line(prefix: "ready") }
    let counter = try await ServerCommandCount(store.client)
    defer { counter.close() }
    let commandsBefore = try await counter.read()
    ReplicasTrace.mark("go-sent")
    let goSent = ReplicasTrace.now()
    for worker in workers { worker.go() }
    // Every worker reports only once all have answered (see `--report-on-request`).
    for worker in workers { _ = try await worker.line(prefix: "done") }
    // Every command the four replicas sent for the one refresh, per replica.
    let commands = try await counter.since(commandsBefore)
    for worker in workers { worker.send("report") }
    var latencies: [Double] = []
    var lastEnd: Int64 = 0
    var providerCalls: [Double] = []
    var outcomes: [String: Int] = [:]
    var sent = 0
    for worker in workers {
      let line = try await worker.line(prefix: "result ")
      let json = Data(line.dropFirst("result ".count).utf8)
      let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
      latencies += (object["latencies_us"] as? [Int] ?? []).map(Double.init)
      lastEnd = max(lastEnd, (object["last_end_unix_us"] as? NSNumber)?.int64Value ?? 0)
      sent += object["redis_commands_sent"] as? Int ?? 0
      providerCalls += (object["provider_calls_us"] as? [Int] ?? []).map(Double.init)
      for (key, count) in object["outcomes"] as? [String: Int] ?? [:] {
        outcomes[key, default: 0] += count
      }
    }
    // From the moment the callers were released to the last caller's answer, on the wall
    // clock that all processes share: neither the workers' start-up nor the reporting of
    // results counts. Each caller's latency counts from its own first call.
    let wall = Double(lastEnd - goSent) / 1000
    ReplicasTrace.mark("results-read")
    ReplicasTrace.flush()
    latencies.sort()
    let goal = 50 + 3 * rttMicroseconds / 1000 + 5
    // The provider's latency as the leader saw it: the server's 50 ms plus the HTTP exchange
    // on loopback (both transports' threads, the connection, the token server's own hops).
    let observed = providerCalls.max().map { $0 / 1000 }
    let p99 = percentile(latencies, 0.99) / 1000
    return Figure(
      name,
      [
        ("processes", "4"), ("callers", "1000"), ("provider_ms", "50"), ("transport", transport),
        ("wall_ms", fmt(wall)), ("p50_ms", fmt(percentile(latencies, 0.5) / 1000)),
        ("p99_ms", fmt(p99)), ("goal_p99_ms", fmt(goal)),
        ("provider_observed_ms", observed.map(fmt) ?? "n/a"),
        (
          "goal_observed_p99_ms", observed.map { fmt($0 + 3 * rttMicroseconds / 1000 + 5) } ?? "n/a"
        ),
        ("overhead_p99_ms", observed.map { fmt(p99 - $0) } ?? "n/a"),
        ("refreshes_spent", String(tokens.spent)), ("provider_requests", String(tokens.attempts)),
        ("redis_commands", String(commands)),
        ("redis_commands_per_replica", fmt(Double(commands) / Double(workers.count))),
        ("redis_commands_sent", String(sent)),
        ("redis_commands_sent_per_replica", fmt(Double(sent) / Double(workers.count))),
        ("same_token", outcomes == ["token:at-1": 1000] ? "yes" : "no"),
      ])
  }

  /// Our client against `redis-benchmark -t set|get -n N -c 8 -P 16 -d 3 -r 100000`, on equal
  /// terms: the same connections and pipeline depth, the same command sizes (its `-r` keys are
  /// `key:` and 12 digits, its `-d 3` values 3 bytes) and, like its prepared command buffer,
  /// commands built before the clock starts, so the figure is the client's own cost
  /// (encoding, syscalls, thread hand-offs, reply parsing), not string formatting.
  static func throughput(client: RedisClient) async throws -> [Figure] {
    var figures: [Figure] = []
    for command in ["SET", "GET"] {
      let commands = benchmarkCommands(command)
      // Ours and redis-benchmark take turns, five rounds each, and the medians are
      // compared: on this two-core machine one run of redis-benchmark alone varies by ±25 %,
      // so a single pair says more about the moment than about the clients.
      let pipelined = try await rounds(
        client: client, command: command, commands: commands, depth: 16, total: 200_000)
      let single = try await rounds(
        client: client, command: command, commands: commands, depth: 1, total: 20_000, count: 1)
      figures.append(
        Figure(
          "redis_set_get",
          [
            ("command", command), ("connections", String(connections)), ("pipeline", "16"),
            ("requests", "200000"), ("value_bytes", "3"), ("key_bytes", "16"),
          ] + pipelined.fields
            + [
              ("ours_unpipelined_ops_s", fmt(single.ours)),
              ("redis_benchmark_unpipelined_ops_s", single.reference.map(fmt) ?? "n/a"),
            ]))
    }
    return figures
  }

  /// One command at a time on each of 8 connections (a session load), 100,000 per round,
  /// five rounds taking turns with `redis-benchmark -c 8 -P 1 -d 3 -r 100000`; the medians
  /// are compared (the same command sizes as ``throughput(client:)``).
  ///
  /// `ours_*` is the default: each reply resumes its caller on Swift's cooperative pool.
  /// `poller_executor_*` is the same loop run under `withTaskExecutorPreference` of
  /// ``RedisClient/executor``, where the caller is resumed on the thread that read the reply.
  static func unpipelined(client: RedisClient) async throws -> [Figure] {
    var figures: [Figure] = []
    for command in ["SET", "GET"] {
      let commands = benchmarkCommands(command)
      let rounds = try await rounds(
        client: client, command: command, commands: commands, depth: 1, total: 100_000,
        alsoOnPollerExecutor: true)
      figures.append(
        Figure(
          "redis_unpipelined",
          [("command", command), ("connections", String(connections)), ("requests", "100000")]
            + rounds.fields))
    }
    return figures
  }

  /// The connections of ``throughput(client:)`` and ``unpipelined(client:)``, ours and
  /// `redis-benchmark`'s.
  static let connections = 8

  /// `SET key:<12 digits> xxx` or `GET key:<12 digits>` for every key of `redis-benchmark`'s
  /// `-r 100000` key space, built before any clock starts.
  static func benchmarkCommands(_ command: String) -> [RedisCommand] {
    (0..<100_000).map { index -> RedisCommand in
      let digits = String(index)
      let key = "key:" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
      return command == "SET" ? RedisCommand(["SET", key, "xxx"]) : RedisCommand(["GET", key])
    }
  }

  /// The rounds of one comparison and their medians.
  struct Rounds {
    var oursRounds: [Double] = []
    var pollerExecutor: [Double] = []
    var references: [Double] = []
    /// CPU time (user + system, every thread) per command, µs: less at the mercy of other
    /// load on the machine than the rates.
    var oursCPU: [Double] = []
    var pollerExecutorCPU: [Double] = []
    var referenceCPU: [Double] = []
    var ours: Double { median(oursRounds) }
    var reference: Double? { references.isEmpty ? nil : median(references) }

    var fields: [(String, String)] {
      var fields = [
        ("ours_ops_s", fmt(ours)),
        ("redis_benchmark_ops_s", reference.map(fmt) ?? "n/a"),
        ("ours_rounds", oursRounds.map(fmt).joined(separator: "/")),
        ("redis_benchmark_rounds", references.map(fmt).joined(separator: "/")),
        ("ratio", reference.map { String(format: "%.2f", ours / $0) } ?? "n/a"),
        ("ours_cpu_us_per_op", String(format: "%.2f", median(oursCPU))),
        ("redis_benchmark_cpu_us_per_op", String(format: "%.2f", median(referenceCPU))),
      ]
      if !pollerExecutor.isEmpty {
        fields += [
          ("poller_executor_ops_s", fmt(median(pollerExecutor))),
          ("poller_executor_rounds", pollerExecutor.map(fmt).joined(separator: "/")),
          ("poller_executor_cpu_us_per_op", String(format: "%.2f", median(pollerExecutorCPU))),
          (
            "poller_executor_ratio",
            reference.map { String(format: "%.2f", median(pollerExecutor) / $0) } ?? "n/a"
          ),
        ]
      }
      return fields
    }
  }

  /// `count` rounds of `total` commands on ``connections`` connections, `depth` per write
  /// (1: one ``RedisClient/send(_:)`` at a time), each followed by `redis-benchmark` with the
  /// same parameters (and, with `alsoOnPollerExecutor`, the same round of ours on
  /// ``RedisClient/executor``).
  static func rounds(
    client: RedisClient, command: String, commands: [RedisCommand], depth: Int, total: Int,
    count: Int = 5, alsoOnPollerExecutor: Bool = false
  ) async throws -> Rounds {
    let batches = stride(from: 0, to: commands.count, by: depth).map {
      Array(commands[$0..<min($0 + depth, commands.count)])
    }
    let writes = total / depth
    @Sendable func round() async throws {
      try await withThrowingDiscardingTaskGroup { group in
        for worker in 0..<connections {
          group.addTask {
            var index = worker
            while index < writes {
              let batch = batches[index % batches.count]
              if depth == 1 {
                _ = try await client.send(batch[0])
              } else {
                _ = try await client.pipeline(batch)
              }
              index += connections
            }
          }
        }
      }
    }
    var result = Rounds()
    for _ in 0..<count {
      var cpu = cpuMicroseconds(self: true)
      result.oursRounds.append(try await timeOps(total: total) { try await round() })
      result.oursCPU.append((cpuMicroseconds(self: true) - cpu) / Double(total))
      if alsoOnPollerExecutor, let executor = RedisClient.executor {
        cpu = cpuMicroseconds(self: true)
        result.pollerExecutor.append(
          try await timeOps(total: total) {
            try await withTaskExecutorPreference(executor) { try await round() }
          })
        result.pollerExecutorCPU.append((cpuMicroseconds(self: true) - cpu) / Double(total))
      }
      cpu = cpuMicroseconds(self: false)
      if let reference = redisBenchmark(
        command: command, clients: connections, pipeline: depth, requests: total)
      {
        result.references.append(reference)
        result.referenceCPU.append((cpuMicroseconds(self: false) - cpu) / Double(total))
      }
    }
    return result
  }

  static func memoryPerSession(store: RedisSessionStore) async throws -> Figure {
    let count = 10_000
    let before = try await usedMemory(store.client)
    for batch in stride(from: 0, to: count, by: 500) {
      try await withThrowingDiscardingTaskGroup { group in
        for index in batch..<min(batch + 500, count) {
          group.addTask {
            let identity = Identity(
              provider: .twitter, subject: "user-\(index)", name: "User \(index)",
              pictureURL: URL(string: "https://pbs.twimg.com/profile_images/\(index)/a.jpg"))
            let session = StoredSession(
              key: SessionKey(provider: .twitter, subject: "user-\(index)"),
              credential: Credential(
                accessToken: Secret(String(repeating: "a", count: 91)),
                refreshToken: Secret(String(repeating: "r", count: 91)), tokenType: "bearer",
                scopes: ["tweet.read", "users.read", "offline.access"],
                expiresAt: Date().addingTimeInterval(7200)),
              identity: identity)
            _ = try await store.save(session, expectedVersion: nil)
          }
        }
      }
    }
    let after = try await usedMemory(store.client)
    // Leave the user's Redis as it was.
    let keys = try await store.client.send(["KEYS", store.options.keyPrefix + ":*"])
    for chunk in (keys.elements ?? []).compactMap(\.string).chunked(500) {
      _ = try await store.client.send(RedisCommand(["UNLINK"] + chunk))
    }
    return Figure(
      "redis_memory_per_session",
      [
        ("sessions", String(count)),
        ("bytes_per_session", fmt(Double(after - before) / Double(count))),
      ])
  }

  // MARK: - Helpers

  /// User plus system CPU time of this process (`self`) or of its children that ended, µs.
  static func cpuMicroseconds(self: Bool) -> Double {
    var usage = rusage()
    guard getrusage((self ? RUSAGE_SELF : RUSAGE_CHILDREN).rawValue, &usage) == 0 else { return 0 }
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
  }

  static func timeOps(total: Int, _ body: () async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    try await body()
    return Double(total) / (microseconds(start.duration(to: .now)) / 1e6)
  }

  /// `redis-benchmark`'s requests per second for one command, or nil when it is not installed.
  static func redisBenchmark(command: String, clients: Int, pipeline: Int, requests: Int) -> Double?
  {
    guard let configuration = try? RedisConfiguration(url: url),
      case .tcp(let host, let port) = configuration.endpoint
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-benchmark")
    process.arguments =
      [
        "-h", host, "-p", String(port), "-t", command.lowercased(), "-n", String(requests),
        "-c", String(clients), "-P", String(pipeline), "-d", "3", "-r", "100000", "-q", "--csv",
      ] + (configuration.password.map { ["-a", $0.revealed] } ?? [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // "SET","123456.79",... (first line is the header in Redis 7).
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: ["\""]) }
      if fields.count >= 2, fields[0] == command, let value = Double(fields[1]) { return value }
    }
    return nil
  }

  static func commandsProcessed(_ client: RedisClient) async throws -> Int {
    try await infoField(client, section: "stats", field: "total_commands_processed")
  }

  static func usedMemory(_ client: RedisClient) async throws -> Int {
    try await infoField(client, section: "memory", field: "used_memory")
  }

  static func infoField(_ client: RedisClient, section: String, field: String) async throws -> Int {
    let text = try await client.send(["INFO", section]).string ?? ""
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(field + ":") {
      return Int(line.dropFirst(field.count + 1)) ?? 0
    }
    return 0
  }

  static func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
  }

  static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}

extension Array {
  func chunked(_ size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
  }
}

/// One `replicas-worker` child of the bench.
final class ChildWorker: @unchecked Sendable {
  // `text` is only touched under `lock`; the process and pipes are set up once in init.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSLock()
  private var text = ""

  init(executable: String, arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let chunk = handle.availableData
      guard let self, !chunk.isEmpty else { return }
      self.lock.withLock { self.text += String(decoding: chunk, as: UTF8.self) }
    }
    try process.run()
  }

  func line(prefix: String) async throws -> String {
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      // Only complete lines: a chunk may end in the middle of the result's JSON.
      let complete = lock.withLock { text }.split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast()
      let lines = Array(complete)
      if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return String(line) }
      try await Task.sleep(for: .milliseconds(5))
    }
    throw AuthError(.timedOut, "The replicas worker printed no \(prefix) line.")
  }

  func go() { send("go") }

  /// Writes `line` to the worker's stdin.
  func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
