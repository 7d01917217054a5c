import SocialLogin

/// A session store that forwards every call to another store and counts the reads, so a test
/// can show what a workload cost the store: a thousand first requests for a session another
/// replica created cost one ``load(_:)``, not a thousand.
///
/// ```swift
/// let counting = CountingSessionStore(base: store)
/// let replica = try LoginClient(providers: [provider], store: counting)
/// // ... a thousand concurrent `replica.loadSession(key)` ...
/// #expect(counting.loads == 1)
/// ```
///
/// A ``Gate`` passed as `holdingLoads` holds every ``load(_:)`` until the test opens it, so
/// the callers can be lined up behind one read before it answers.
public final class CountingSessionStore: SessionStore {
  /// The store every call goes to.
  public let base: any SessionStore
  private let holdingLoads: Gate?
  private let counts = Locked((loads: 0, loadAlls: 0))

  /// Wraps `base`.
  ///
  /// - Parameters:
  ///   - base: The store that does the work.
  ///   - holdingLoads: A gate every ``load(_:)`` waits at before it reads `base`; `nil`
  ///     (the default) holds nothing.
  public init(base: any SessionStore, holdingLoads: Gate? = nil) {
    self.base = base
    self.holdingLoads = holdingLoads
  }

  /// The ``load(_:)`` calls so far, including those held at the gate.
  public var loads: Int { counts.withLock { $0.loads } }

  /// The ``loadAll()`` calls so far.
  public var loadAlls: Int { counts.withLock { $0.loadAlls } }

  /// Counts the read, waits at the gate when there is one, then reads `base`.
  public func load(_ key: SessionKey) async throws -> StoredSession? {
    counts.withLock { $0.loads += 1 }
    await holdingLoads?.wait()
    return try await base.load(key)
  }

  /// Counts the read and reads `base`.
  public func loadAll() async throws -> StoreSnapshot {
    counts.withLock { $0.loadAlls += 1 }
    return try await base.loadAll()
  }

  /// Forwards to `base`.
  public func save(_ session: StoredSession, expectedVersion: UInt64?) async throws
    -> StoredSession
  {
    try await base.save(session, expectedVersion: expectedVersion)
  }

  /// Forwards to `base`.
  public func delete(_ key: SessionKey) async throws { try await base.delete(key) }

  /// Forwards to `base`.
  public func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }

  /// Forwards to `base`.
  public func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    try await base.delete(key, ifVersion: version, reason: reason)
  }

  /// Forwards to `base`.
  public func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    try await base.deletionReason(for: key)
  }

  /// Forwards to `base`.
  public func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await base.lockRefresh(for: key)
  }

  /// Forwards to `base`.
  public func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    try await base.lockRefresh(for: key, unlessNewerThan: version)
  }

  /// Forwards to `base`: the changes of the wrapped store.
  public func changes() -> AsyncStream<SessionStoreChange>? { base.changes() }
}
