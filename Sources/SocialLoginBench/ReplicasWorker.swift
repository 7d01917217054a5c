import Dispatch
import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench replicas-worker`: one replica of a service, as a child process of the
/// `replicas` bench and of the Redis tests. It opens the Redis store, builds a session for the
/// stored record, prints `ready`, waits for `go` on stdin, then runs `--callers` concurrent
/// `freshAccessToken()` calls and prints `result <json>`: how many callers got each token or
/// error, and every caller's latency in microseconds. It prints `leading` just before it sends
/// a refresh to the provider (with `--x-emulator`, when it wins the lease), so a test knows
/// whom to kill. `--x-emulator HOST:PORT` refreshes with the real `XProvider` against the
/// provider emulator; `--subject` names the stored session's X user id; `--transport loopback`
/// sends the token endpoint's requests with `LoopbackTransport` instead of `URLSession`.
///
/// ```
/// sociallogin-bench replicas-worker --redis redis://127.0.0.1:6390 --prefix p \
///   --token-endpoint http://127.0.0.1:5000/token --callers 250 --lease-ttl-ms 1000 \
///   --claim-ttl-ms 2000
/// ```
enum ReplicasWorker {
  static let subject = "replica-user"

  struct Options {
    var redis = "redis://127.0.0.1:6379"
    var prefix = "sociallogin"
    var tokenEndpoint: URL?
    var callers = 250
    var leaseTTL = Duration.seconds(10)
    /// The spend claim's time to live (`RedisSessionStore.Options.spendClaimTimeToLive`).
    var claimTTL = Duration.seconds(60)
    var pollInterval = Duration.milliseconds(250)
    /// Refresh with the real `XProvider` against this provider emulator instead.
    var xEmulator: EmulatorHost?
    var subject = ReplicasWorker.subject
    /// `urlsession` (the SDK's default) or `loopback` (``LoopbackTransport``).
    var transport = "urlsession"
    /// With `--report-on-request 1`, print `done` once every caller has its answer and only
    /// build and print the result after a `report` line on stdin: building it (JSON, the
    /// trace) would otherwise compete for the CPU with the replicas still answering.
    var reportOnRequest = false

    init?(_ arguments: [String]) {
      let parsed = BenchArguments.forEachPair(arguments) { name, value in
        switch name {
        case "--redis": redis = value
        case "--prefix": prefix = value
        case "--token-endpoint": tokenEndpoint = URL(string: value)
        case "--callers": callers = Int(value) ?? callers
        case "--lease-ttl-ms": leaseTTL = .milliseconds(Int(value) ?? 10_000)
        case "--claim-ttl-ms": claimTTL = .milliseconds(Int(value) ?? 60_000)
        case "--poll-ms": pollInterval = .milliseconds(Int(value) ?? 250)
        case "--x-emulator":
          guard let host = try? EmulatorHost(parsing: value) else { return false }
          xEmulator = host
        case "--subject": subject = value
        case "--report-on-request": reportOnRequest = value == "1"
        case "--transport":
          guard ["urlsession", "loopback"].contains(value) else { return false }
          transport = value
        default: return false
        }
        return true
      }
      if !parsed || (tokenEndpoint == nil && xEmulator == nil) { return nil }
    }
  }

  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  static func run(_ arguments: [String]) async -> Int32 {
    guard let options = Options(arguments) else {
      FileHandle.standardError.write(
        Data(
          ("usage: replicas-worker --redis URL (--token-endpoint URL | --x-emulator HOST:PORT) "
            + "[--prefix P] ...\n").utf8))
      return 2
    }
    ReplicasTrace.enabled = ProcessInfo.processInfo.environment["SOCIALLOGIN_BENCH_TRACE"] == "1"
    do {
      let redis = try await RedisSessionStore.connect(
        url: options.redis, sealing: BenchSealing.sealing,
        options: RedisSessionStore.Options(
          keyPrefix: options.prefix, leaseTimeToLive: options.leaseTTL,
          leasePollInterval: options.pollInterval, spendClaimTimeToLive: options.claimTTL))
      let leading: @Sendable () -> Void = { say("leading") }
      var store = TracingStore(base: redis)
      if options.xEmulator != nil { store.onLease = leading }
      let key = SessionKey(provider: .twitter, subject: options.subject)
      guard let record = try await store.load(key) else {
        FileHandle.standardError.write(Data("no stored session\n".utf8))
        return 1
      }
      let provider: any LoginProvider
      var refreshOnlyProvider: RefreshOnlyProvider?
      if let host = options.xEmulator {
        // The real X provider (OAuth 2.0, the emulator's confidential app); it says `leading`
        // when it wins the lease, just before its refresh.
        provider = XProvider(
          configuration: try .init(
            clientID: EmulatorApps.twitterClientID,
            clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: host,
            environment: [:]))
      } else if let endpoint = options.tokenEndpoint {
        let refreshOnly = RefreshOnlyProvider(
          id: .twitter, tokenEndpoint: endpoint,
          transport: options.transport == "loopback" ? LoopbackTransport() : URLSessionTransport()
        ) {
          ReplicasTrace.mark("provider-request")
          leading()
        }
        await refreshOnly.warmUp()
        refreshOnlyProvider = refreshOnly
        provider = refreshOnly
      } else {
        return 2
      }
      try await warmUp(store: redis, callers: options.callers)
      let session = SessionActor(record: record, provider: provider, store: store)
      say("ready")
      _ = await readLineOffThePool()
      ReplicasTrace.mark("go")
      let wentAt = ReplicasTrace.now()
      let sentBefore = redis.client.commandsSent
      let lastEnd = Locked(Int64(0))
      let results = await withTaskGroup(of: (String, Int).self) { group in
        for _ in 0..<options.callers {
          group.addTask {
            let start = ContinuousClock.now
            ReplicasTrace.mark("caller-start")
            let outcome: String
            do {
              outcome = "token:" + (try await session.freshAccessToken(timeout: .seconds(60)))
            } catch let error as AuthError {
              outcome =
                "error:\(error.code.rawValue)"
                + (error.signOutReason.map { ":\($0)" } ?? "")
            } catch {
              outcome = "error:\(type(of: error))"
            }
            let elapsed = start.duration(to: .now)
            ReplicasTrace.mark("caller-end")
            let endedAt = ReplicasTrace.now()
            lastEnd.withLock { $0 = max($0, endedAt) }
            let micros =
              Int(elapsed.components.seconds) * 1_000_000
              + Int(elapsed.components.attoseconds / 1_000_000_000_000)
            return (outcome, micros)
          }
        }
        var outcomes: [String: Int] = [:]
        var latencies: [Int] = []
        for await (outcome, micros) in group {
          outcomes[outcome, default: 0] += 1
          latencies.append(micros)
        }
        return (outcomes, latencies)
      }
      let sent = redis.client.commandsSent - sentBefore
      if options.reportOnRequest {
        say("done")
        _ = await readLineOffThePool()
      }
      ReplicasTrace.flush()
      let state = "\(session.currentState)"
      let providerCalls = await refreshOnlyProvider?.refreshDurations ?? []
      let payload: [String: Any] = [
        "outcomes": results.0, "latencies_us": results.1.sorted(), "state": state,
        "go_unix_us": wentAt, "redis_commands_sent": sent,
        "last_end_unix_us": lastEnd.withLock { $0 },
        "save_start_unix_us": ReplicasTrace.firstSave,
        "provider_calls_us": providerCalls.map {
          Int($0.components.seconds) * 1_000_000
            + Int($0.components.attoseconds / 1_000_000_000_000)
        },
      ]
      let json = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
      say("result " + String(decoding: json, as: UTF8.self))
      return 0
    } catch {
      FileHandle.standardError.write(Data("worker failed: \(error)\n".utf8))
      return 1
    }
  }

  /// Runs one refresh, with as many callers as the measured one, on a scratch session in the
  /// same store (a scripted provider answering at once), then deletes it. A replica of a
  /// service has been running for a while: its code is paged in, its heap grown, its Redis
  /// connections and scripts loaded, its runtime's type metadata built. A process started
  /// for the bench has none of that, and its first refresh pays for it all (page faults,
  /// lazy binding, `mprotect` to grow the heap for 250 tasks): the bench measures the warm
  /// replica, as the provider's transport is warmed by ``RefreshOnlyProvider/warmUp()``.
  static func warmUp(store: RedisSessionStore, callers: Int) async throws {
    let key = SessionKey(
      provider: "warm-up", subject: "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let record = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "warm-up-at", refreshToken: "warm-up-rt",
          expiresAt: Date().addingTimeInterval(-60))),
      expectedVersion: nil)
    let session = SessionActor(
      record: record, provider: ScriptedProvider(id: "warm-up", clock: SystemAuthClock()),
      store: store)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<callers {
        group.addTask { _ = try? await session.freshAccessToken(timeout: .seconds(60)) }
      }
    }
    try? await store.delete(key)
  }

  /// Reads one line from stdin on a Dispatch thread (never blocking the cooperative pool).
  static func readLineOffThePool() async -> String? {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: readLine()) }
    }
  }
}
