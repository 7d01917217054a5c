import Foundation
import SocialLogin
import SocialLoginTesting

/// A store that can be told to fail writes, wrapping a real store; it counts the refresh
/// leases it handed out that are not released yet.
final class FlakyStore: SessionStore {
  let base: any SessionStore
  private let failing = FailSwitch()
  private let failuresLeft = Locked(0)
  private let leases = Locked(LeaseCounts())

  init(base: any SessionStore) { self.base = base }

  func failWrites(_ fail: Bool) { failing.set(fail) }
  /// Fails only the next `count` writes (a connection cut once, a failover).
  func failNextWrites(_ count: Int) { failuresLeft.withLock { $0 = count } }

  /// The refresh leases asked for, taken and still held through this store.
  var leaseCounts: LeaseCounts { leases.withLock { $0 } }

  func load(_ key: SessionKey) async throws -> StoredSession? { try await base.load(key) }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    let failOnce = failuresLeft.withLock { left -> Bool in
      guard left > 0 else { return false }
      left -= 1
      return true
    }
    if failing.value || failOnce { throw AuthError(.storageFailed, "disk full (test)") }
    return try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    leases.withLock { $0.askedFor += 1 }
    let lease = try await base.lockRefresh(for: key)
    leases.withLock {
      $0.taken += 1
      $0.outstanding += 1
    }
    return CountedLease(base: lease, counts: leases)
  }
}

/// What a ``FlakyStore`` counted of its refresh leases.
struct LeaseCounts: Sendable, Equatable {
  /// `lockRefresh` calls, including those still waiting.
  var askedFor = 0
  /// Leases handed out.
  var taken = 0
  /// Leases handed out and not released yet.
  var outstanding = 0
}

/// A lease that tells its store's count when it is released (once).
private final class CountedLease: RefreshLease {
  let base: any RefreshLease
  let counts: Locked<LeaseCounts>
  private let released = Locked(false)

  init(base: any RefreshLease, counts: Locked<LeaseCounts>) {
    self.base = base
    self.counts = counts
  }

  func release() async {
    let first = released.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    if first { counts.withLock { $0.outstanding -= 1 } }
    await base.release()
  }

  func isHeld() async -> Bool { await base.isHeld() }
}

final class FailSwitch: Sendable {
  private let flag = Locked(false)
  var value: Bool { flag.withLock { $0 } }
  func set(_ value: Bool) { flag.withLock { $0 = value } }
}

/// Builds a session whose access token is already expired (or not) on a manual clock.
struct SessionFixture {
  let clock = ManualClock()
  let key = SessionKey(provider: "scripted", subject: "user-1")
  let provider: ScriptedProvider
  let store: any SessionStore

  init(
    store: any SessionStore = InMemorySessionStore(),
    classifier: (@Sendable (any Error) -> RefreshFailure)? = nil
  ) {
    self.store = store
    provider = ScriptedProvider(clock: clock, classifier: classifier)
  }

  /// Stores a credential `at-0`/`rt-0` that expires `expiresIn` seconds from now (negative: expired).
  func storeInitial(expiresIn: TimeInterval = -60) async throws -> StoredSession {
    let credential = Credential(
      accessToken: "at-0", refreshToken: "rt-0",
      expiresAt: clock.wallTime.addingTimeInterval(expiresIn), issuedAt: clock.wallTime)
    return try await store.save(
      StoredSession(
        key: key, credential: credential,
        identity: Identity(provider: "scripted", subject: "user-1")),
      expectedVersion: nil)
  }

  /// Queues a refresh that waits at the returned gate, then issues credential `number`
  /// (`at-<number>`): the refresh held in flight while callers join or leave.
  func holdNextRefresh(issuing number: Int) async -> Gate {
    let gate = Gate()
    let provider = self.provider
    let clock = self.clock
    await provider.enqueueRefresh { _ in
      await gate.wait()
      return provider.makeCredential(number: number, clockNow: clock.wallTime)
    }
    return gate
  }

  func makeSession(
    record: StoredSession, store: (any SessionStore)? = nil,
    policy: RefreshPolicy = RefreshPolicy(proactiveMargin: nil)
  ) -> SessionActor {
    SessionActor(
      record: record, provider: provider, store: store ?? self.store, clock: clock, policy: policy)
  }
}

extension AuthError {
  static func oauth(_ code: String, status: Int = 400, description: String? = nil) -> AuthError {
    AuthError(
      .providerError, "token endpoint error", httpStatus: status,
      oauth: OAuthErrorFields(error: code, errorDescription: description))
  }
}
