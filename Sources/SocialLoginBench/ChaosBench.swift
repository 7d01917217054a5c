import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

#if canImport(Glibc)
  import Glibc
#endif

/// `sociallogin-bench chaos --duration 60 --replicas 4 --store URL [--grace-ms N]`: replicas
/// killed at any step of a refresh (project issue 34, "crash anywhere").
///
/// The parent runs a ``RotatingTokenServer`` with reuse detection (a spent token presented
/// again revokes the session's whole token family), the grace of `--grace-ms` and answers
/// delayed by `--latency-ms` (250 by default, so kills land while a request is in flight). It
/// seeds one session, starts `--replicas` `chaos-worker` processes that loop forced refreshes
/// of it, and every 0.2–0.8 s kills one at random (SIGKILL) and starts a replacement. With
/// `--store redis` it runs its own redis-server with persistence (`appendonly yes`,
/// `appendfsync always`) and restarts it a few times during the run; an existing server
/// (`redis://...`) and a directory (`file:DIR`, or a path) are never restarted. When a session
/// is lost it seeds a new one and goes on, counting each loss.
///
/// Prints one `chaos` figure line: refreshes, kills, restarts, sessions lost (and how many as
/// `refreshResponseLost`), tokens spent twice (replays outside the grace), of which after
/// their answer was delivered (a bug: a stale record was used), replays within the grace, and
/// token families revoked.
enum ChaosBench {
  struct Options: Equatable {
    var duration = Duration.seconds(60)
    var replicas = 4
    /// `redis` (a server of the bench's own), `redis://...`, or `file:DIR`.
    var store = "redis"
    var grace: Duration?
    var latency = Duration.milliseconds(250)

    init?(_ arguments: [String]) {
      let parsed = BenchArguments.forEachPair(arguments, allowsEmptyValues: false) {
        name, value in
        switch name {
        case "--duration":
          guard let seconds = Int(value), seconds > 0 else { return false }
          duration = .seconds(seconds)
        case "--replicas":
          guard let count = Int(value), (1...64).contains(count) else { return false }
          replicas = count
        case "--store":
          if value == "redis" || value.hasPrefix("redis://") || value.hasPrefix("rediss://")
            || value.hasPrefix("file:")
          {
            store = value
          } else if value.hasPrefix("/") || value.hasPrefix(".") {
            store = "file:" + value
          } else {
            return false
          }
        case "--grace-ms":
          grace = BenchArguments.milliseconds(value, atLeast: 0)
          return grace != nil
        case "--latency-ms": return BenchArguments.set(&latency, milliseconds: value, atLeast: 0)
        case "--sealing-key-file": break  // read by BenchSealing
        default: return false
        }
        return true
      }
      if !parsed { return nil }
    }
  }

  static let usage = """
    USAGE: sociallogin-bench chaos [--duration SECONDS] [--replicas N]
                                   [--store redis|redis://...|file:DIR|DIR] [--grace-ms N]
                                   [--latency-ms N] [--sealing-key-file PATH]

    """

  /// What the run counted.
  struct Tally: Equatable {
    var store = ""
    var replicas = 0
    var durationSeconds = 0
    var graceMilliseconds: Int64?
    var refreshes = 0
    var kills = 0
    /// `nil` when the store is not restarted (an existing Redis, a directory).
    var restarts: Int?
    var sessionsLost = 0
    var lostAsRefreshResponseLost = 0
    var lostReasons: [String: Int] = [:]
    var errors: [String: Int] = [:]
    var tokensSpentTwice = 0
    var spentTwiceAfterDelivery = 0
    var replaysWithinGrace = 0
    var familiesRevoked = 0

    /// Counts one worker line; returns the subject whose session it reports lost, if any.
    mutating func count(line: String, lostAlready: Set<String>) -> String? {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count >= 3, fields[0] == "outcome" else { return nil }
      switch fields[2] {
      case "refreshed": refreshes += 1
      case "signedout":
        let reason = fields.count > 3 ? fields[3] : "-"
        guard !lostAlready.contains(fields[1]) else { return nil }
        sessionsLost += 1
        lostReasons[reason, default: 0] += 1
        if reason == "refreshResponseLost" { lostAsRefreshResponseLost += 1 }
        return fields[1]
      case "error": errors[fields.count > 3 ? fields[3] : "-", default: 0] += 1
      default: break
      }
      return nil
    }

    var figure: Figure {
      func list(_ counts: [String: Int]) -> String {
        counts.isEmpty
          ? "none"
          : counts.sorted { $0.key < $1.key }.map { "\($0):\($1)" }
            .joined(separator: ",")
      }
      return Figure(
        "chaos",
        [
          ("store", store), ("replicas", String(replicas)), ("duration_s", String(durationSeconds)),
          ("grace_ms", graceMilliseconds.map(String.init) ?? "none"),
          ("refreshes", String(refreshes)), ("kills", String(kills)),
          ("restarts", restarts.map(String.init) ?? "n/a"),
          ("sessions_lost", String(sessionsLost)),
          ("lost_as_refresh_response_lost", String(lostAsRefreshResponseLost)),
          ("tokens_spent_twice", String(tokensSpentTwice)),
          ("spent_twice_after_delivery", String(spentTwiceAfterDelivery)),
          ("replays_within_grace", String(replaysWithinGrace)),
          ("family_revoked", String(familiesRevoked)),
          ("lost_reasons", list(lostReasons)), ("errors", list(errors)),
        ])
    }
  }

  static func run(_ arguments: [String]) async -> [Figure] {
    guard let options = Options(arguments) else {
      FileHandle.standardError.write(Data(usage.utf8))
      return [Figure("chaos_failed", [("error", "usage")])]
    }
    do {
      return try await measure(options)
    } catch {
      return [Figure("chaos_failed", [("error", ChaosWorker.token("\(error)"))])]
    }
  }

  /// Saves a session for `subject` whose access token has expired and whose refresh token is
  /// `token`; false when the store refused (Redis restarting: the caller tries again).
  static func seed(_ subject: String, token: String, in store: any SessionStore) async -> Bool {
    let key = SessionKey(provider: .twitter, subject: subject)
    let credential = Credential(
      accessToken: "at-seed", refreshToken: Secret(token), expiresAt: Date().addingTimeInterval(-60)
    )
    let session = StoredSession(key: key, credential: credential)
    return (try? await store.save(session, expectedVersion: nil)) != nil
  }

  static func measure(_ options: Options) async throws -> [Figure] {
    // The whole run's bound: a Redis that never comes back or a store call that hangs ends
    // the bench (its workers see their stdin end, its redis-server dies with it).
    let bound = options.duration + .seconds(45)
    Task.detached {
      try? await Task.sleep(for: bound)
      print("chaos_failed error=not_finished_within_\(bound.components.seconds)_s")
      exit(3)
    }
    var tally = Tally()
    tally.store = options.store.hasPrefix("file:") ? "file" : options.store
    tally.replicas = options.replicas
    tally.durationSeconds = Int(options.duration.components.seconds)
    tally.graceMilliseconds = options.grace.map(ChaosWorker.Options.milliseconds)
    // The bench's own Redis, with persistence so a restart keeps the sessions.
    var redis: RedisTestServer?
    if options.store == "redis" {
      redis = try await RedisTestServer.start(
        arguments: ["--appendonly", "yes", "--appendfsync", "always"],
        readinessTimeout: .seconds(20))
      tally.restarts = 0
    } else if !options.store.hasPrefix("file:") {
      print(
        "chaos_note store=\(options.store) restarts=none (an existing server is never restarted)")
    } else {
      print("chaos_note store=file restarts=none (a directory has no server to restart)")
    }
    defer { redis?.stop() }
    let storeURL = redis?.url ?? options.store
    let prefix = "chaos\(UInt32.random(in: 0...UInt32.max))"
    let tokens = try RotatingTokenServer(
      latency: options.latency, reuseDetection: true, reuseGrace: options.grace)
    defer { tokens.close() }
    guard
      var workerOptions = ChaosWorker.Options([
        "--store", storeURL, "--prefix", prefix, "--token-endpoint",
        tokens.tokenEndpoint.absoluteString, "--subject", "chaos-0",
      ])
    else { throw AuthError(.configuration, "The worker's options do not parse.") }
    workerOptions.grace = options.grace
    let store = try await ChaosWorker.openStore(workerOptions)

    var epoch = 0
    var subject = "chaos-0"
    var lost: Set<String> = []
    var seeded = await seed(subject, token: tokens.currentRefreshToken, in: store)
    guard seeded else { throw AuthError(.storageFailed, "The first session could not be saved.") }

    // A worker killed between `isRunning` and a write to its stdin must not kill the parent.
    signal(SIGPIPE, SIG_IGN)
    let lines = LineCollector()
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    func start() throws -> ChaosChild {
      var arguments = workerOptions
      arguments.subject = subject
      return try ChaosChild(
        executable: executable, arguments: ["chaos-worker"] + arguments.arguments, lines: lines)
    }
    var workers: [ChaosChild] = []
    defer { for worker in workers { worker.kill() } }
    for _ in 0..<options.replicas { workers.append(try start()) }

    let clock = ContinuousClock()
    let began = clock.now
    let end = began + options.duration
    // A few Redis restarts, evenly spread over the run.
    var restartsAt = (1...3).map { began + options.duration * (Double($0) / 4) }
    if redis == nil { restartsAt = [] }
    while clock.now < end {
      try await Task.sleep(for: .milliseconds(Int.random(in: 200...800)))
      for line in lines.drain() {
        if let gone = tally.count(line: line, lostAlready: lost) {
          lost.insert(gone)
          if gone == subject {
            // The session is lost: a new family, a new session, and every worker told.
            epoch += 1
            subject = "chaos-\(epoch)"
            tokens.startNewFamily()
            seeded = false
          }
        }
      }
      if !seeded {
        seeded = await seed(subject, token: tokens.currentRefreshToken, in: store)
        if seeded { for worker in workers { worker.send("session \(subject)") } }
      }
      let victim = Int.random(in: 0..<workers.count)
      workers[victim].kill()
      tally.kills += 1
      workers[victim] = try start()
      if let redis, let next = restartsAt.first, clock.now >= next {
        restartsAt.removeFirst()
        try await redis.restart()
        tally.restarts? += 1
      }
    }
    for worker in workers { worker.kill() }
    // Lines already written by the workers reach the pipes' handlers shortly after.
    try await Task.sleep(for: .milliseconds(200))
    for line in lines.drain() {
      if let gone = tally.count(line: line, lostAlready: lost) { lost.insert(gone) }
    }
    tally.tokensSpentTwice = tokens.replaysOutsideGrace
    tally.spentTwiceAfterDelivery = tokens.spentTwiceAfterDelivery
    tally.replaysWithinGrace = tokens.replaysWithinGrace
    tally.familiesRevoked = tokens.familiesRevoked
    return [tally.figure]
  }
}

/// The complete lines every worker printed, in arrival order.
final class LineCollector: Sendable {
  private let state = Locked((lines: [String](), partial: [ObjectIdentifier: String]()))

  func append(_ chunk: String, from source: ObjectIdentifier) {
    state.withLock { state in
      let text = state.partial[source, default: ""] + chunk
      var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      state.partial[source] = parts.removeLast()
      state.lines += parts.filter { !$0.isEmpty }
    }
  }

  func drain() -> [String] {
    state.withLock { state in
      defer { state.lines = [] }
      return state.lines
    }
  }
}

/// One `chaos-worker` child: its stdout lines go to a ``LineCollector``; killed with SIGKILL.
final class ChaosChild: @unchecked Sendable {
  // The process and pipes are set up once in init and never reassigned.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()

  init(executable: String, arguments: [String], lines: LineCollector) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    let source = ObjectIdentifier(self)
    output.fileHandleForReading.readabilityHandler = { handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      lines.append(String(decoding: chunk, as: UTF8.self), from: source)
    }
    try process.run()
  }

  /// Writes `line` to the worker's stdin (ignored once it died).
  func send(_ line: String) {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  func kill() {
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
  }

  deinit {
    kill()
  }
}
