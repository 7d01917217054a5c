import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct LoginClientTests {
  /// Found by `sociallogin-bench emulator` with 32 clients: concurrent logins of one account
  /// raced on its stored version and all but one failed with `storageConflict`. A new login
  /// replaces the session, so every one of them must succeed and one of their tokens must win.
  @Test func concurrentLoginsOfOneAccountAllSucceedAndOneWins() async throws {
    let clock = ManualClock()
    let store = InMemorySessionStore()
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock)
    let identity = Identity(provider: "scripted", subject: "same-user")
    let tokens = (0..<24).map { "at-\($0)" }
    let sessions = try await withThrowingTaskGroup(of: SessionActor.self) { group in
      for token in tokens {
        group.addTask {
          try await client.register(
            credential: Credential(accessToken: Secret(token)), identity: identity)
        }
      }
      return try await group.reduce(into: [SessionActor]()) { $0.append($1) }
    }
    #expect(sessions.count == tokens.count)
    #expect(client.sessionCount == 1)
    let stored = try #require(try await store.load(identity.sessionKey))
    #expect(tokens.contains(stored.credential.accessToken.revealed))
    // The one live session holds what the store holds (once, two live sessions of one account
    // were made by racing logins, and the registry kept a stale one).
    let live = try #require(client.session(for: identity.sessionKey))
    #expect(sessions.allSatisfy { $0 === live })
    #expect(try await live.freshAccessToken() == stored.credential.accessToken.revealed)
  }

  /// Logins of one account through several clients sharing a store (replicas, processes):
  /// every one reads "no record" (the store holds their reads until all have read), all but
  /// one lose the compare-and-swap, and each loser writes again over the newer version.
  @Test func concurrentLoginsThroughClientsSharingAStoreAllSucceed() async throws {
    let clock = ManualClock()
    let replicas = 8
    let store = LoadBarrierStore(waitingFor: replicas)
    let identity = Identity(provider: "scripted", subject: "same-user")
    let clients = try (0..<replicas).map { _ in
      try LoginClient(providers: [ScriptedProvider(clock: clock)], store: store, clock: clock)
    }
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for (index, client) in clients.enumerated() {
        group.addTask {
          let session = try await client.register(
            credential: Credential(accessToken: Secret("at-\(index)")), identity: identity)
          return try await session.freshAccessToken()
        }
      }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(tokens.count == replicas)
    #expect(await store.barrierTimedOut == false)
    let stored = try #require(try await store.load(identity.sessionKey))
    #expect(tokens.contains(stored.credential.accessToken.revealed))
    #expect(stored.version == UInt64(replicas))
  }

  @Test func restoresStoredSessionsAtStart() async throws {
    let clock = ManualClock()
    let store = InMemorySessionStore()
    for subject in ["a", "b", "c"] {
      _ = try await store.save(
        StoredSession(
          key: SessionKey(provider: "scripted", subject: subject),
          credential: Credential(accessToken: Secret("at-\(subject)"))),
        expectedVersion: nil)
    }
    _ = try await store.save(
      StoredSession(
        key: SessionKey(provider: "unregistered", subject: "z"),
        credential: Credential(accessToken: "x")),
      expectedVersion: nil)
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock)
    let failures = try await client.restoreSessions()
    #expect(failures.isEmpty)
    #expect(client.sessionCount == 3)
    let session = try #require(client.session(for: SessionKey(provider: "scripted", subject: "b")))
    #expect(try await session.freshAccessToken() == "at-b")
  }

  @Test func oneUsersRefreshDoesNotBlockAnother() async throws {
    let clock = ManualClock()
    let provider = ScriptedProvider(clock: clock)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let expired = Credential(
      accessToken: "old", refreshToken: "rt-slow", expiresAt: clock.wallTime.addingTimeInterval(-1))
    let slow = try await client.register(
      credential: expired, identity: Identity(provider: "scripted", subject: "slow"))
    let fast = try await client.register(
      credential: Credential(
        accessToken: "old", refreshToken: "rt-fast",
        expiresAt: clock.wallTime.addingTimeInterval(-1)),
      identity: Identity(provider: "scripted", subject: "fast"))
    let gate = Gate()
    await provider.enqueueRefresh { _ in
      await gate.wait()
      return Credential(accessToken: "slow-new", refreshToken: "rt-slow-2")
    }
    let held = Task { try await slow.freshAccessToken() }
    try await gate.waitForWaiters(count: 1)
    // The slow user's refresh is held at the gate; the fast user's goes through.
    #expect(try await fast.freshAccessToken() == "at-1001")
    gate.open()
    #expect(try await held.value == "slow-new")
  }

  @Test func registeringTheSameAccountAgainUpdatesTheLiveSession() async throws {
    let clock = ManualClock()
    let store = InMemorySessionStore()
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: store, clock: clock)
    let identity = Identity(provider: "scripted", subject: "a")
    let first = try await client.register(
      credential: Credential(accessToken: "one"), identity: identity)
    let second = try await client.register(
      credential: Credential(accessToken: "two"), identity: identity)
    #expect(first === second)
    #expect(try await first.freshAccessToken() == "two")
    #expect(try await store.load(identity.sessionKey)?.credential.accessToken == "two")
  }

  @Test func unknownProviderIsATypedError() async throws {
    let client = try LoginClient(providers: [], store: InMemorySessionStore())
    let error = #expect(throws: AuthError.self) { try client.provider(.line) }
    #expect(error?.code == .unknownProvider)
  }
}

@Suite(.timeLimit(.minutes(5))) struct LoginClientVerifyTests {
  @Test func verifyAsksTheNamedProvider() async throws {
    let clock = ManualClock()
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: InMemorySessionStore(), clock: clock)
    let identity = try await client.verify(.accessToken("from-a-phone"), from: "scripted").identity
    #expect(identity.subject == "user-1")
    #expect(client.sessionCount == 0, "verifying creates no session")
    await #expect(throws: AuthError.self) {
      try await client.verify(.accessToken("x"), from: .line)
    }
  }
}

/// An in-memory store whose first `count` loads, once read, wait for each other (at most
/// 60 s, a hang guard) before returning, so that that many concurrent writers certainly read
/// the same version.
actor LoadBarrierStore: SessionStore {
  private let inner = InMemorySessionStore()
  private var remaining: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []
  /// Whether the barrier gave up waiting (the readers never all arrived).
  private(set) var barrierTimedOut = false

  init(waitingFor count: Int) { remaining = count }

  func load(_ key: SessionKey) async throws -> StoredSession? {
    // Read first, then wait: every reader of the barrier has read before anyone writes.
    let loaded = try await inner.load(key)
    if remaining > 0 {
      remaining -= 1
      if remaining == 0 {
        for continuation in waiting { continuation.resume() }
        waiting = []
      } else {
        let deadline = Task { [weak self] in
          try? await Task.sleep(for: .seconds(60))
          await self?.releaseAll()
        }
        await withCheckedContinuation { waiting.append($0) }
        deadline.cancel()
      }
    }
    return loaded
  }

  private func releaseAll() {
    if remaining > 0 { barrierTimedOut = true }
    remaining = 0
    for continuation in waiting { continuation.resume() }
    waiting = []
  }

  func loadAll() async throws -> StoreSnapshot { try await inner.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await inner.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await inner.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await inner.delete(key, ifVersion: version)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await inner.lockRefresh(for: key)
  }
}
