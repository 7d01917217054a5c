import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

@Suite(.redisAvailable, .timeLimit(.minutes(2))) struct RedisPendingLoginStoreTests {
  func pending(_ state: String = UUID().uuidString, lifetime: TimeInterval = 600) -> PendingLogin {
    PendingLogin(
      provider: .twitter, state: Secret(state), redirectURI: "https://app.example/cb",
      codeVerifier: "verifier", createdAt: Date(), expiresAt: Date().addingTimeInterval(lifetime))
  }

  @Test func beginLoginOnOneReplicaCompletesOnAnother() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let clock = ManualClock(wallTime: Date())
      func replica() async throws -> LoginClient {
        let store = try await RedisSessionStore.connect(
          url: server.url, sealing: TestSealing.sealing,
          options: RedisSessionStore.Options(keyPrefix: prefix))
        return try LoginClient(
          providers: [ScriptedProvider(id: "corp", clock: clock)], store: store, clock: clock,
          pendingLogins: store.pendingLogins(clock: clock))
      }
      let first = try await replica()
      let second = try await replica()
      let handle = try await first.beginLogin("corp", redirectURI: "https://app.example/cb")
      let callback = try AuthorizationCallback(
        url: URL(string: "https://app.example/cb?state=\(handle.state)&code=c")!)
      let session = try await second.completeLogin(
        callback: callback, expectedState: handle.state)
      #expect(session.key.provider == "corp")
      let replay = await #expect(throws: AuthError.self) {
        _ = try await first.completeLogin(callback: callback, expectedState: handle.state)
      }
      #expect(replay?.code == .stateMismatch, "single use across replicas")
    }
  }

  @Test func aTakeIsSingleUseAndAFailedValidationPutsTheLoginBack() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let a = RedisPendingLoginStore(
        client: try RedisClient(url: server.url), sealing: TestSealing.sealing, keyPrefix: prefix)
      let b = RedisPendingLoginStore(
        client: try RedisClient(url: server.url), sealing: TestSealing.sealing, keyPrefix: prefix)
      let login = pending()
      try await a.insert(login)
      let duplicate = await #expect(throws: AuthError.self) { try await b.insert(login) }
      #expect(duplicate?.code == .configuration)

      struct Forged: Error {}
      await #expect(throws: Forged.self) {
        _ = try await b.take(state: login.state.revealed) { _ in throw Forged() }
      }
      let taken = try await b.take(state: login.state.revealed)
      #expect(taken == login)
      let again = await #expect(throws: AuthError.self) {
        _ = try await a.take(state: login.state.revealed)
      }
      #expect(again?.code == .stateMismatch)
    }
  }

  @Test func aConcurrentTakeWhileValidatingIsRefused() async throws {
    try await RedisFixture.with { server in
      let store = RedisPendingLoginStore(
        client: try RedisClient(url: server.url), sealing: TestSealing.sealing)
      let login = pending()
      try await store.insert(login)
      let gate = Gate()
      let first = Task {
        try await store.take(state: login.state.revealed) { pending in
          await gate.wait()
          return pending.redirectURI
        }
      }
      // Wait until the first take has claimed it.
      try await waitFor { gate.waiterCount == 1 }
      let second = await #expect(throws: AuthError.self) {
        _ = try await store.take(state: login.state.revealed)
      }
      #expect(second?.code == .invalidCallback)
      gate.open()
      #expect(try await first.value == "https://app.example/cb")
    }
  }

  @Test func expiredLoginsAreGoneInRedisAndRefusedByTheClock() async throws {
    try await RedisFixture.with { server in
      let client = try RedisClient(url: server.url)
      let store = RedisPendingLoginStore(client: client, sealing: TestSealing.sealing)
      let short = pending(lifetime: 0.2)
      try await store.insert(short)
      try await Task.sleep(for: .milliseconds(400))
      let error = await #expect(throws: AuthError.self) {
        _ = try await store.take(state: short.state.revealed)
      }
      #expect(error?.code == .stateMismatch)
      #expect(try await client.send(["DBSIZE"]) == .integer(0), "Redis expired it by itself")

      let clock = ManualClock(wallTime: Date())
      let clocked = RedisPendingLoginStore(
        client: client, sealing: TestSealing.sealing, clock: clock)
      let login = pending()
      try await clocked.insert(login)
      clock.advance(by: .seconds(601))
      let late = await #expect(throws: AuthError.self) {
        _ = try await clocked.take(state: login.state.revealed)
      }
      #expect(late?.code == .stateMismatch)
      let keys = try await client.send(["KEYS", "*"])
      #expect(keys.elements?.isEmpty == true, "the expired login and its claim are gone")
    }
  }

  @Test func theSessionStoreHandsOutAPendingStoreOnItsClientAndPrefix() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let store = try await RedisSessionStore.connect(
        url: server.url, sealing: TestSealing.sealing,
        options: RedisSessionStore.Options(keyPrefix: prefix))
      let handedOut = store.pendingLogins()
      #expect(handedOut.client === store.client)
      let login = pending()
      try await handedOut.insert(login)
      let keys = try await store.client.send(["KEYS", "\(prefix):pending:*"])
      #expect(keys.elements?.count == 1, "saved under the session store's prefix")
      let elsewhere = RedisPendingLoginStore(
        client: try RedisClient(url: server.url), sealing: TestSealing.sealing, keyPrefix: prefix)
      #expect(try await elsewhere.take(state: login.state.revealed) == login)
    }
  }

  @Test func keyNamesNeverContainTheState() async throws {
    try await RedisFixture.with { server in
      let client = try RedisClient(url: server.url)
      let store = RedisPendingLoginStore(client: client, sealing: TestSealing.sealing)
      let login = pending("secret-state-value")
      try await store.insert(login)
      let keys = try await client.send(["KEYS", "*"]).elements?.compactMap(\.string) ?? []
      #expect(keys.count == 1)
      #expect(keys.allSatisfy { !$0.contains("secret-state-value") })
    }
  }
}
