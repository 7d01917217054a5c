import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Four OS processes (`sociallogin-bench replicas-worker`) share one Redis and one expired X
/// session, refreshing with the real `XProvider` against the provider emulator's X, whose
/// refresh tokens are single use and rotate. The emulator's transcript is the witness of what
/// reached the provider.
@Suite(.redisAvailable, .serialized, .timeLimit(.minutes(5))) struct ReplicaProcessTests {
  static let callers = 250

  struct Fixture {
    /// `redis://...`, or `rediss://...?ca=` for the TLS run.
    let url: String
    let emulator: ProviderEmulator
    let store: RedisSessionStore
    let prefix: String
    let initial: StoredSession

    /// `count` workers; a killed leader's spend claim outlives its last renewal by
    /// `claimMilliseconds` (a short one, so that the tests of a dead leader end quickly).
    func workers(_ count: Int = 4, leaseMilliseconds: Int, claimMilliseconds: Int = 2000) throws
      -> [WorkerProcess]
    {
      try (0..<count).map { _ in
        try WorkerProcess(arguments: [
          "--redis", url, "--prefix", prefix,
          "--x-emulator", emulator.host.description, "--subject", initial.key.subject,
          "--callers", String(ReplicaProcessTests.callers),
          "--lease-ttl-ms", String(leaseMilliseconds), "--poll-ms", "100",
          "--claim-ttl-ms", String(claimMilliseconds),
        ])
      }
    }

    var stored: StoredSession? {
      get async throws { try await store.load(initial.key) }
    }

    /// The refresh grants that reached the emulator's X token endpoint, in order.
    var refreshStatuses: [Int] {
      emulator.requests(to: .twitter, endpoint: "token", grantType: "refresh_token").map(\.status)
    }
  }

  /// A real login at the emulator's X, stored in Redis with its access token already expired
  /// (over TLS, on a server of the test's own with `--tls-port`, when `tls`).
  func withFixture(tls: Bool = false, _ body: (Fixture) async throws -> Void) async throws {
    if tls {
      try await TLSRedisServer.withOwn { server in
        try await withFixture(url: server.url(), body)
      }
    } else {
      try await RedisFixture.with { server in try await withFixture(url: server.url, body) }
    }
  }

  /// The fixture on the Redis at `url` (a cluster's node, for the cluster tests).
  func withFixture(url: String, _ body: (Fixture) async throws -> Void) async throws {
    try await ProviderEmulator.run { emulator in
      let x = XProvider(
        configuration: try .init(
          clientID: EmulatorApps.twitterClientID,
          clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
          environment: [:]))
      let client = try LoginClient(providers: [x], store: InMemorySessionStore())
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      var credential = try #require(await session.credential)
      credential.expiresAt = Date().addingTimeInterval(-60)
      let prefix = uniquePrefix()
      let store = try await RedisSessionStore.connect(
        url: url, sealing: TestSealing.sealing,
        options: RedisSessionStore.Options(keyPrefix: prefix))
      let initial = try await store.save(
        StoredSession(key: session.key, credential: credential, identity: await session.identity),
        expectedVersion: nil)
      emulator.clearRequests()
      try await body(
        Fixture(url: url, emulator: emulator, store: store, prefix: prefix, initial: initial))
      store.client.close()
    }
  }

  func start(_ workers: [WorkerProcess]) async throws {
    for worker in workers { _ = try await worker.waitForLine("ready") }
    for worker in workers { worker.go() }
  }

  /// The same over `rediss://` (the workers verify the server with the test CA).
  @Test(arguments: [false] + (TLSRedisServer.shouldRun ? [true] : []))
  func fourProcessesOf250CallersSpendExactlyOneRefresh(tls: Bool) async throws {
    try await withFixture(tls: tls) { fixture in
      fixture.emulator.inject(
        EmulatorFault(provider: .twitter, endpoint: "token", latencyMilliseconds: 50, count: 1))
      let workers = try fixture.workers(leaseMilliseconds: 5000)
      try await start(workers)
      var outcomes: [String: Int] = [:]
      for worker in workers {
        for (outcome, count) in try await worker.result().outcomes {
          outcomes[outcome, default: 0] += count
        }
      }
      let stored = try #require(try await fixture.stored)
      #expect(outcomes == ["token:" + stored.credential.accessToken.revealed: 4 * Self.callers])
      #expect(fixture.refreshStatuses == [200], "exactly one refresh reached the provider")
      #expect(workers.filter { $0.hasLine("leading") }.count == 1)
      #expect(stored.credential.refreshToken != fixture.initial.credential.refreshToken)
      #expect(stored.credential.accessToken != fixture.initial.credential.accessToken)
    }
  }

  @Test func aLeaderKilledBeforeTheProviderAnsweredIsReplacedAndTheUserStaysSignedIn()
    async throws
  {
    try await withFixture { fixture in
      // The emulator holds the first refresh; when its client dies it drops it unspent.
      fixture.emulator.inject(
        EmulatorFault(provider: .twitter, endpoint: "token", latencyMilliseconds: 60_000, count: 1))
      let workers = try fixture.workers(leaseMilliseconds: 1000)
      try await start(workers)
      try await waitFor { fixture.emulator.faults.isEmpty }  // the request is held
      let leader = try #require(workers.first { $0.hasLine("leading") })
      leader.kill()

      let survivors = workers.filter { $0 !== leader }
      var outcomes: [String: Int] = [:]
      for worker in survivors {
        for (outcome, count) in try await worker.result().outcomes {
          outcomes[outcome, default: 0] += count
        }
      }
      let stored = try #require(try await fixture.stored)
      #expect(outcomes == ["token:" + stored.credential.accessToken.revealed: 3 * Self.callers])
      #expect(
        fixture.refreshStatuses == [0, 200],
        "the killed leader's refresh was dropped unspent, the new leader's spent the same token")
      #expect(survivors.filter { $0.hasLine("leading") }.count == 1)
      #expect(stored.credential.refreshToken != fixture.initial.credential.refreshToken)
    }
  }

  /// The case no client can save: X rotated the refresh token and the only process that saw
  /// the answer died before persisting it. The survivors spend the old token, X refuses it,
  /// the one that tried re-reads once and signs out with a typed reason, the others find the
  /// session gone: no hang, no retry loop.
  @Test func aLeaderKilledAfterTheProviderSpentTheTokenEndsInATypedSignOut() async throws {
    try await withFixture { fixture in
      fixture.emulator.inject(
        EmulatorFault(provider: .twitter, endpoint: "token", latencyMilliseconds: 400, count: 1))
      let workers = try fixture.workers(leaseMilliseconds: 1000)
      try await start(workers)
      try await waitFor { fixture.emulator.faults.isEmpty }  // the request is held
      let leader = try #require(workers.first { $0.hasLine("leading") })
      // Frozen before the emulator answers: the answer (new tokens, old ones spent) reaches
      // its socket but never its store.
      leader.suspend()
      try await waitFor { fixture.refreshStatuses == [200] }
      leader.kill()

      for worker in workers where worker !== leader {
        let result = try await worker.result()
        #expect(result.outcomes.values.reduce(0, +) == Self.callers)
        for outcome in result.outcomes.keys {
          #expect(outcome.hasPrefix("error:signed_out:"), "\(outcome)")
        }
      }
      let statuses = fixture.refreshStatuses
      #expect(statuses.first == 200)
      #expect(statuses.dropFirst().allSatisfy { $0 == 400 }, "\(statuses)")
      #expect(statuses.count <= 4, "at most one rejected try per replica, no loop")
      #expect(try await fixture.stored == nil, "the dead session was removed")
    }
  }
}
