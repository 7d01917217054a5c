import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Four OS processes (`sociallogin-bench replicas-worker`) share one Redis and one expired
/// X-like session whose refresh tokens are single use and rotate (``RotatingTokenServer``).
@Suite(redisAvailable, .serialized, .timeLimit(.minutes(5))) struct ReplicaProcessTests {
  static let callers = 250

  struct Fixture {
    let server: RedisTestServer
    let tokens: RotatingTokenServer
    let store: RedisSessionStore
    let prefix: String

    func workers(_ count: Int = 4, leaseMilliseconds: Int) throws -> [WorkerProcess] {
      try (0..<count).map { _ in
        try WorkerProcess(arguments: [
          "--redis", server.url, "--prefix", prefix,
          "--token-endpoint", tokens.tokenEndpoint.absoluteString,
          "--callers", String(ReplicaProcessTests.callers),
          "--lease-ttl-ms", String(leaseMilliseconds), "--poll-ms", "100",
        ])
      }
    }

    var storedRefreshToken: String? {
      get async throws {
        try await store.load(SessionKey(provider: .twitter, subject: ReplicaSetup.subject))?
          .credential.refreshToken?.revealed
      }
    }
  }

  func withFixture(latency: Duration = .zero, _ body: (Fixture) async throws -> Void)
    async throws
  {
    try await RedisTestServer.with { server in
      let tokens = try RotatingTokenServer(latency: latency)
      defer { tokens.close() }
      let prefix = uniquePrefix()
      let store = try await RedisSessionStore.connect(
        url: server.url, options: RedisSessionStore.Options(keyPrefix: prefix))
      _ = try await store.save(expiredSession(), expectedVersion: nil)
      try await body(Fixture(server: server, tokens: tokens, store: store, prefix: prefix))
    }
  }

  func start(_ workers: [WorkerProcess]) async throws {
    for worker in workers { _ = try await worker.waitForLine("ready") }
    for worker in workers { worker.go() }
  }

  @Test func fourProcessesOf250CallersSpendExactlyOneRefresh() async throws {
    try await withFixture(latency: .milliseconds(50)) { fixture in
      let workers = try fixture.workers(leaseMilliseconds: 5000)
      try await start(workers)
      for worker in workers {
        let result = try await worker.result()
        #expect(result.outcomes == ["token:at-1": Self.callers])
      }
      #expect(fixture.tokens.spent == 1)
      #expect(fixture.tokens.attempts == 1, "exactly one refresh reached the provider")
      #expect(workers.filter { $0.hasLine("leading") }.count == 1)
      #expect(try await fixture.storedRefreshToken == "rt-1")
    }
  }

  @Test func aLeaderKilledBeforeTheProviderAnsweredIsReplacedAndTheUserStaysSignedIn()
    async throws
  {
    try await withFixture { fixture in
      // The provider holds the request and drops it unspent once the client is gone.
      fixture.tokens.holdNextRefresh(spendFirst: false)
      let workers = try fixture.workers(leaseMilliseconds: 1000)
      try await start(workers)
      try await waitFor { fixture.tokens.held == 1 }
      let leader = try #require(workers.first { $0.hasLine("leading") })
      leader.kill()
      fixture.tokens.releaseHeld()

      let survivors = workers.filter { $0 !== leader }
      for worker in survivors {
        let result = try await worker.result()
        #expect(result.outcomes == ["token:at-1": Self.callers])
      }
      #expect(fixture.tokens.spent == 1, "the new leader spent rt-0 once; nothing was lost")
      #expect(survivors.filter { $0.hasLine("leading") }.count == 1)
      #expect(try await fixture.storedRefreshToken == "rt-1")
    }
  }

  /// The case no client can save: X rotated rt-0 into rt-1 and the only process that saw rt-1
  /// died before persisting it. The survivors spend rt-0, X refuses it, each re-reads once and
  /// signs out with a typed reason: no hang, no retry loop.
  @Test func aLeaderKilledAfterTheProviderSpentTheTokenEndsInATypedSignOut() async throws {
    try await withFixture { fixture in
      fixture.tokens.holdNextRefresh(spendFirst: true)
      let workers = try fixture.workers(leaseMilliseconds: 1000)
      try await start(workers)
      try await waitFor { fixture.tokens.held == 1 }
      let leader = try #require(workers.first { $0.hasLine("leading") })
      leader.kill()
      fixture.tokens.releaseHeld()

      for worker in workers where worker !== leader {
        let result = try await worker.result()
        #expect(result.outcomes.values.reduce(0, +) == Self.callers)
        for outcome in result.outcomes.keys {
          #expect(outcome.hasPrefix("error:signed_out:"), "\(outcome)")
        }
      }
      #expect(fixture.tokens.spent == 1)
      #expect(fixture.tokens.attempts <= 4, "at most one rejected try per replica, no loop")
      #expect(try await fixture.storedRefreshToken == nil, "the dead session was removed")
    }
  }
}
