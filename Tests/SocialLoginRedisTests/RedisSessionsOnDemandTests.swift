import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// The newcomer's backend: three replicas on one Redis, started before a user signs in on one
/// of them. The others serve the session on its first request (one store read however many
/// requests arrive at once), and an operator process that holds no session signs the user
/// out everywhere, ending even the actors request handlers still hold.
@Suite(.redisAvailable, .timeLimit(.minutes(2)))
struct RedisSessionsOnDemandTests {
  let key = SessionKey(provider: "scripted", subject: "alice")

  /// A client on its own store (own connections and subscription) under `prefix`, reading
  /// through a ``CountingSessionStore`` whose reads wait at `gate`.
  func replica(url: String, prefix: String, gate: Gate? = nil, restore: Bool = true)
    async throws -> (
      LoginClient, CountingSessionStore
    )
  {
    let store = try await RedisSessionStore.connect(
      url: url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix), environment: [:])
    let counting = CountingSessionStore(base: store, holdingLoads: gate)
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: SystemAuthClock())], store: counting,
      policy: RefreshPolicy(proactiveMargin: nil))
    if restore { try await client.restoreSessions() }
    return (client, counting)
  }

  @Test func replicasStartedBeforeALoginServeItAndAnOperatorEndsItEverywhere() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let gates = [Gate(), Gate()]
      let first = try await replica(url: server.url, prefix: prefix)
      let others = [
        try await replica(url: server.url, prefix: prefix, gate: gates[0]),
        try await replica(url: server.url, prefix: prefix, gate: gates[1]),
      ]
      // The login, on the first replica, after every replica started.
      let loggedIn = try await first.0.register(
        credential: Credential(
          accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date().addingTimeInterval(3600)),
        identity: Identity(provider: "scripted", subject: "alice"))
      for (client, _) in others { #expect(client.session(for: key) == nil) }

      // A thousand first requests on each of the other replicas: one store read each.
      var held: [SessionActor] = [loggedIn]
      for ((client, counting), gate) in zip(others, gates) {
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
          for _ in 0..<1000 {
            group.addTask {
              guard let session = try await client.loadSession(key) else { return "none" }
              return try await session.freshAccessToken()
            }
          }
          try await gate.waitForWaiters(count: 1)
          for _ in 0..<50 { await Task.yield() }
          gate.open()
          var tokens: [String] = []
          for try await token in group { tokens.append(token) }
          return tokens
        }
        #expect(tokens == Array(repeating: "at-1", count: 1000))
        #expect(counting.loads == 1)
        held.append(try #require(client.session(for: key)))
      }

      // restoreSessions() again keeps the actor the handlers hold.
      try await others[0].0.restoreSessions()
      #expect(others[0].0.session(for: key) === held[1])

      // An operator process with its own connections and no live session.
      let (operatorClient, _) = try await replica(
        url: server.url, prefix: prefix, restore: false)
      #expect(operatorClient.sessionCount == 0)
      let outcome = try await operatorClient.signOut(key, revoke: false)
      #expect(outcome != nil)
      for session in held {
        try await WaitTimeout.yieldUntil("the sign-out on every replica", timeout: .seconds(20)) {
          session.currentState == .signedOut(.signedOutByOperator)
        }
        #expect(await session.signedOutReasonForNextCaller() == .signedOutByOperator)
      }
      for (client, _) in [first] + others { #expect(client.session(for: key) == nil) }
      withExtendedLifetime((first, others, operatorClient)) {}
    }
  }
}
