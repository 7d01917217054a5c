import Foundation

/// A ``SessionStore`` that keeps sessions in memory, for tests, short-lived tools and
/// services that persist sessions elsewhere.
///
/// Writes are compare-and-swap on ``StoredSession/version`` exactly like the file store, and
/// ``lockRefresh(for:)`` gives a per-session, first-come-first-served lease that suspends
/// waiters instead of blocking threads. Nothing survives the process, and only this instance
/// sees its sessions.
///
/// ```swift
/// let store = InMemorySessionStore()
/// let key = SessionKey(provider: .twitter, subject: "42")
/// let first = try await store.save(
///   StoredSession(key: key, credential: Credential(accessToken: "at")), expectedVersion: nil)
/// // first.version == 1
///
/// let lease = try await store.lockRefresh(for: key)
/// var next = try await store.load(key) ?? first  // re-read under the lease
/// next.credential = Credential(accessToken: "at2")
/// let second = try await store.save(next, expectedVersion: next.version)
/// await lease.release()
/// // second.version == 2; saving again with expectedVersion 1 throws .storageConflict
/// ```
public final class InMemorySessionStore: SessionStore {
  private let state: Locked<State>
  let refreshLocks = AsyncKeyedLock<SessionKey>()
  /// Every write and delete, for ``changes()``: the clients sharing this store follow each
  /// other's sign-outs as replicas sharing Redis do.
  private let feed = SessionStoreChangeFeed()
  /// The account links (``AccountLinkStore``), kept apart from the sessions: a link outlives
  /// its session's sign-out.
  let accountLinks = Locked(AccountLinkTable())

  /// Creates a store, optionally seeded with `sessions`.
  ///
  /// Seeded records keep their ``StoredSession/version``; a version of 0 (never stored) is
  /// stored as 1. When a key repeats, the last record wins.
  public init(sessions: [StoredSession] = []) {
    var seeded: [SessionKey: StoredSession] = [:]
    for var session in sessions {
      session.version = max(session.version, 1)
      seeded[session.key] = session
    }
    self.state = Locked(State(sessions: seeded))
  }

  private struct State {
    var sessions: [SessionKey: StoredSession]
    /// The last version of each deleted session, so that a record created later continues
    /// from it (see ``StoredSession/version``). A few bytes per deleted key.
    var deletedVersions: [SessionKey: UInt64] = [:]
    /// Why each deleted session was deleted, until a record is written again.
    var deletedReasons: [SessionKey: SignOutReason] = [:]
  }

  /// A new stream of every write and delete made through this store, in order.
  public func changes() -> AsyncStream<SessionStoreChange>? { feed.subscribe() }

  /// Returns the session stored under `key`, or `nil`.
  public func load(_ key: SessionKey) async throws -> StoredSession? {
    state.withLock { $0.sessions[key] }
  }

  /// Returns every session, ordered by key. An in-memory store never has failures.
  public func loadAll() async throws -> StoreSnapshot {
    let all = state.withLock { Array($0.sessions.values) }
    return StoreSnapshot(sessions: all.sorted { $0.key < $1.key })
  }

  /// Stores `session` if the current version equals `expectedVersion` (`nil`: only when no
  /// session is stored under its key) and returns it with its new version.
  ///
  /// The version in `session` is ignored; the stored record gets the current version + 1
  /// (1 for a new record, or the deleted record's version + 1). Throws
  /// ``AuthError/Code/storageConflict`` on a mismatch.
  public func save(
    _ session: StoredSession, expectedVersion: UInt64?
  ) async throws -> StoredSession {
    try state.withLock { state in
      let current = state.sessions[session.key]?.version
      guard current == expectedVersion else {
        throw AuthError.storageConflict(key: session.key, expected: expectedVersion, found: current)
      }
      var stored = session
      stored.version = try StoredSession.nextVersion(
        after: current, deleted: state.deletedVersions[session.key] ?? 0, key: session.key)
      state.sessions[session.key] = stored
      state.deletedReasons.removeValue(forKey: session.key)
      feed.publish(.written(stored))
      return stored
    }
  }

  /// Removes the session stored under `key`; removing a missing session does nothing.
  public func delete(_ key: SessionKey) async throws {
    state.withLock { state in
      guard let removed = state.sessions.removeValue(forKey: key) else { return }
      state.deletedVersions[key] = removed.version
      feed.publish(.deleted(key, version: removed.version, reason: nil))
    }
  }

  /// Removes the session stored under `key` if it is at `version`; returns whether it did.
  public func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    delete(key, ifVersion: version, recording: nil)
  }

  /// Removes the session stored under `key` if it is at `version`, remembering `reason`
  /// until a record is written again; returns whether it did.
  public func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    delete(key, ifVersion: version, recording: reason)
  }

  /// Why the session under `key` was deleted, while no record has been written since.
  public func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    state.withLock { $0.sessions[key] == nil ? $0.deletedReasons[key] : nil }
  }

  private func delete(
    _ key: SessionKey, ifVersion version: UInt64, recording reason: SignOutReason?
  )
    -> Bool
  {
    state.withLock { state in
      guard state.sessions[key]?.version == version else { return false }
      state.sessions.removeValue(forKey: key)
      state.deletedVersions[key] = version
      state.deletedReasons[key] = reason
      feed.publish(.deleted(key, version: version, reason: reason))
      return true
    }
  }

  /// Waits, without blocking a thread, for the exclusive right to refresh `key` within this
  /// store, and returns it as a lease.
  ///
  /// Waiters are served in arrival order. A task cancelled while waiting leaves the queue and
  /// throws `CancellationError`. Releasing the lease twice is harmless; a lease that is
  /// dropped without being released releases itself.
  public func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await refreshLocks.lock(key)
    return KeyedLockLease(lock: refreshLocks, key: key)
  }
}

extension AuthError {
  /// A compare-and-swap conflict on `key`. Never includes any credential value.
  package static func storageConflict(
    key: SessionKey, expected: UInt64?, found: UInt64?
  ) -> AuthError {
    func describe(_ version: UInt64?) -> String { version.map { "version \($0)" } ?? "no record" }
    return AuthError(
      .storageConflict,
      "Session \(key.provider.rawValue) was written by someone else: expected "
        + "\(describe(expected)), found \(describe(found)).",
      provider: key.provider)
  }
}
