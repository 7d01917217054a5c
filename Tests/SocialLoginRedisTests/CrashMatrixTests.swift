import Foundation
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLoginRedis

/// Crash anywhere: a real process (`sociallogin-bench crash-worker`) holding a session on the
/// file store or on Redis is SIGKILLed at each step of a refresh, against a rotating token
/// server that detects reuse (spending a spent token revokes the whole session), with and
/// without a reuse grace; on Redis, the server is also restarted at each step instead. Then a
/// new process, and a replica that held the session all along, go on:
/// - a kill before anything was spent, or after the answer was saved, loses nothing;
/// - a kill after the provider spent the token and before the answer was saved (the request
///   sent, or the answer arrived) loses the answer with the process. With a grace, the next
///   process's retry of the same token is honoured and nothing is lost; without one, the
///   session ends as ``SignOutReason/refreshResponseLost`` on every replica — never as a
///   generic sign-out, and never after a second spend of a token whose answer anyone received;
/// - a Redis restart at any step loses nothing and spends nothing twice.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CrashMatrixTests {
  /// Where the worker stands when it is killed (or Redis restarted).
  enum Point: String, CaseIterable, Sendable {
    /// The lease is taken; no intent recorded, nothing sent.
    case lease
    /// The request reached the provider, which has not spent the token.
    case sentUnspent
    /// The request reached the provider, which spent the token; the answer is on its way.
    case sentSpent
    /// The answer arrived; the store write has not started.
    case answered
    /// The write (and on Redis its hint) landed; the lease is still held.
    case written
    /// Just before the lease is released.
    case release
    /// The token was spent while a second caller of the same process waits on the flight.
    case waiting

    var step: String {
      switch self {
      case .lease, .answered, .written, .release: return rawValue
      case .sentUnspent, .sentSpent, .waiting: return "none"
      }
    }

    /// Whether the provider spent the token and the answer died with the process.
    var losesTheAnswer: Bool { [.sentSpent, .answered, .waiting].contains(self) }
  }

  /// What one case showed.
  struct Row: CustomStringConvertible {
    var point: Point
    var grace: Bool
    var outcome: String
    var replicaState: AuthState
    var replaysWithinGrace: Int
    var spentTwice: Int
    var spentTwiceAfterDelivery: Int

    var description: String {
      "\(point.rawValue) grace=\(grace): next process \(outcome), replica \(replicaState), "
        + "replays within grace \(replaysWithinGrace), spent twice \(spentTwice) "
        + "(after delivery \(spentTwiceAfterDelivery))"
    }
  }

  /// One store for the test and the workers.
  struct StoreSetup: Sendable {
    /// `--store` for the workers.
    var argument: String
    var extraArguments: [String]
    var make: @Sendable () async throws -> any SessionStore
  }

  static let leaseMilliseconds = 1000
  static let claimMilliseconds = 3000
  static let grace = Duration.seconds(30)

  func worker(
    _ setup: StoreSetup, server: RotatingTokenServer, subject: String, pauseAt: String,
    callers: Int = 1, grace: Bool
  ) throws -> WorkerProcess {
    try WorkerProcess(
      command: "crash-worker",
      arguments: [
        "--store", setup.argument, "--token-endpoint", server.tokenEndpoint.absoluteString,
        "--subject", subject, "--pause-at", pauseAt, "--callers", String(callers),
      ] + setup.extraArguments
        + (grace ? ["--grace-ms", String(Self.grace.components.seconds * 1000)] : []))
  }

  /// A worker refreshing `subject`, stopped at `point`: at its store step, or with its request
  /// held at the token server (spent or not).
  func stoppedWorker(
    at point: Point, setup: StoreSetup, server: RotatingTokenServer, subject: String,
    grace: Bool
  ) async throws -> WorkerProcess {
    let stopped = try worker(
      setup, server: server, subject: subject, pauseAt: point.step,
      callers: point == .waiting ? 2 : 1, grace: grace)
    _ = try await stopped.waitForLine("ready")
    switch point {
    case .sentUnspent: server.holdNextRefresh(spendFirst: false)
    case .sentSpent, .waiting: server.holdNextRefresh(spendFirst: true)
    default: break
    }
    stopped.go()
    if point.step == "none" {
      try await WaitTimeout.yieldUntil("the request held at the server") { server.held >= 1 }
    } else {
      _ = try await stopped.waitForLine("at \(point.step)")
    }
    return stopped
  }

  /// Runs one case: seeds a due session, holds it on a replica (a `LoginClient` of this
  /// process), kills a worker at `point`, and lets a new worker refresh.
  func kill(at point: Point, grace: Bool, setup: StoreSetup) async throws -> Row {
    let server = try RotatingTokenServer(
      reuseDetection: true, reuseGrace: grace ? Self.grace : nil)
    defer { server.close() }
    let store = try await setup.make()
    // Each case's Redis connections (pool, subscription, renewer) are closed with it: the
    // test process spawns children, and Foundation's `Process.run` crashed copying a list of
    // well over a thousand open descriptors.
    defer { (store as? RedisSessionStore)?.client.close() }
    let subject = "crash-\(point.rawValue)-\(grace)-\(UInt32.random(in: 0...UInt32.max))"
    let key = SessionKey(provider: "crash", subject: subject)
    _ = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at-0", refreshToken: "rt-0",
          expiresAt: Date().addingTimeInterval(-60))),
      expectedVersion: nil)
    let client = try LoginClient(
      providers: [RefreshOnlyProvider(id: "crash", tokenEndpoint: server.tokenEndpoint)],
      store: store, policy: RefreshPolicy(proactiveMargin: nil))
    let replica = try #require(try await client.loadSession(key))

    let killed = try await stoppedWorker(
      at: point, setup: setup, server: server, subject: subject, grace: grace)
    killed.kill()
    // The provider answers a client that is gone (or drops the unspent request).
    server.releaseHeld()

    let next = try worker(setup, server: server, subject: subject, pauseAt: "none", grace: grace)
    _ = try await next.waitForLine("ready")
    next.go()
    let outcome = String(try await next.waitForLine("outcome ").dropFirst("outcome ".count))
    // The replica that held the session all along: a caller of it now.
    _ = try? await withDeadline(.seconds(45), "the replica's caller") {
      try await replica.freshAccessToken(timeout: .seconds(40))
    }
    return Row(
      point: point, grace: grace, outcome: outcome, replicaState: replica.currentState,
      replaysWithinGrace: server.replaysWithinGrace, spentTwice: server.replaysOutsideGrace,
      spentTwiceAfterDelivery: server.spentTwiceAfterDelivery)
  }

  /// What every kill must show.
  func check(_ row: Row) {
    #expect(row.spentTwiceAfterDelivery == 0, "\(row)")
    if row.point.losesTheAnswer && !row.grace {
      // The inherent window: named on every replica, one second spend (the retry that learnt
      // the answer was lost), nothing else.
      #expect(row.outcome == "error:signed_out:\(SignOutReason.refreshResponseLost)", "\(row)")
      #expect(row.replicaState == .signedOut(.refreshResponseLost), "\(row)")
      #expect(row.spentTwice == 1, "\(row)")
    } else {
      #expect(row.outcome.hasPrefix("token:at-"), "\(row)")
      #expect(row.replicaState == .signedIn, "\(row)")
      #expect(row.spentTwice == 0, "\(row)")
      #expect(row.replaysWithinGrace == (row.point.losesTheAnswer ? 1 : 0), "\(row)")
    }
  }

  @Test(arguments: Point.allCases, [false, true])
  func fileStore(point: Point, grace: Bool) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "crash-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let setup = StoreSetup(argument: directory.path, extraArguments: []) {
      try FileSessionStore(directory: directory)
    }
    let row = try await kill(at: point, grace: grace, setup: setup)
    print("crash matrix file: \(row)")
    check(row)
  }

  /// The Redis store's options for `prefix`, as the workers' flags set them.
  static func redisOptions(prefix: String, grace: Bool) -> RedisSessionStore.Options {
    RedisSessionStore.Options(
      keyPrefix: prefix, leaseTimeToLive: .milliseconds(leaseMilliseconds),
      leasePollInterval: .milliseconds(100),
      spendClaimTimeToLive: .milliseconds(claimMilliseconds),
      refreshTokenReuseGrace: grace ? ["crash": Self.grace] : [:])
  }

  static func redisArguments(prefix: String) -> [String] {
    [
      "--prefix", prefix, "--lease-ttl-ms", String(leaseMilliseconds),
      "--claim-ttl-ms", String(claimMilliseconds), "--poll-ms", "100",
    ]
  }

  @Test(.redisAvailable, arguments: Point.allCases, [false, true])
  func redisStore(point: Point, grace: Bool) async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let setup = StoreSetup(
        argument: server.url, extraArguments: Self.redisArguments(prefix: prefix)
      ) {
        try server.store(Self.redisOptions(prefix: prefix, grace: grace))
      }
      let row = try await kill(at: point, grace: grace, setup: setup)
      print("crash matrix redis: \(row)")
      check(row)
    }
  }

  /// Redis restarted (saved first, as with persistence) while the worker stands at `point`;
  /// the worker then goes on: one refresh, nothing spent twice, nobody signed out.
  @Test(.redisAvailable, arguments: Point.allCases)
  func redisRestarted(point: Point) async throws {
    try await RedisFixture.withOwn { redis in
      let row = try await disrupt(at: point, url: redis.url, store: { try redis.store($0) }) {
        try await redis.restart()
      }
      print("crash matrix redis restart: \(row)")
    }
  }

  /// The master failed over by the sentinels while the worker stands at each point in turn
  /// (one deployment for all of them): the same promises as a restart.
  @Test(.redisAvailable) func sentinelFailedOver() async throws {
    try await RedisTestSentinels.with { deployment in
      for point in Point.allCases {
        let row = try await disrupt(
          at: point, url: deployment.url(),
          store: {
            RedisSessionStore(
              client: RedisClient(configuration: try deployment.configuration()),
              sealing: TestSealing.sealing, options: $0)
          }
        ) {
          _ = try await deployment.failOver()
        }
        print("crash matrix sentinel failover: \(row)")
      }
    }
  }

  /// Stops a worker at `point`, runs `disruption` (Redis restarted, failed over), lets the
  /// worker go on, and checks it refreshed once with nothing spent twice and nobody signed
  /// out. Returns the case's line.
  func disrupt(
    at point: Point, url: String,
    store makeStore: (RedisSessionStore.Options) throws -> RedisSessionStore,
    disruption: () async throws -> Void
  ) async throws -> String {
    let prefix = uniquePrefix()
    let tokens = try RotatingTokenServer(reuseDetection: true)
    defer { tokens.close() }
    // A lease that outlives the disruption: the worker stands still while Redis is away.
    var options = Self.redisOptions(prefix: prefix, grace: false)
    options.leaseTimeToLive = .seconds(20)
    let store = try makeStore(options)
    defer { store.client.close() }
    let subject = "disrupt-\(point.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
    let key = SessionKey(provider: "crash", subject: subject)
    _ = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at-0", refreshToken: "rt-0", expiresAt: Date().addingTimeInterval(-60))),
      expectedVersion: nil)
    let setup = StoreSetup(
      argument: url,
      extraArguments: Self.redisArguments(prefix: prefix) + ["--lease-ttl-ms", "20000"]
    ) { store }
    let worker = try await stoppedWorker(
      at: point, setup: setup, server: tokens, subject: subject, grace: false)
    try await disruption()
    if point.step == "none" { tokens.releaseHeld() } else { worker.go() }
    let outcome = try await worker.waitForLine("outcome ")
    _ = try await worker.waitForLine("done")
    let stored = try await store.load(key)
    let row =
      "\(point.rawValue): \(outcome), spent \(tokens.spent), spent twice "
      + "\(tokens.replaysOutsideGrace), stored \(stored?.credential.accessToken.revealed ?? "none")"
    #expect(tokens.replaysOutsideGrace == 0, "\(row)")
    #expect(!outcome.contains("signed_out"), "\(row)")
    if point == .sentUnspent {
      // The unspent request was answered 503: nothing was spent, the session keeps its
      // token (degraded), and the next caller refreshes.
      #expect(tokens.spent == 0, "\(row)")
      #expect(stored?.credential.accessToken.revealed == "at-0", "\(row)")
    } else {
      #expect(outcome.hasPrefix("outcome token:at-"), "\(row)")
      #expect(tokens.spent == 1, "\(row)")
      let current = tokens.currentRefreshToken.replacingOccurrences(of: "rt-", with: "at-")
      #expect(stored?.credential.accessToken.revealed == current, "\(row)")
    }
    return row
  }
}
