/// A ``SessionStore`` that reports its failures to an observer
/// (``AuthEvent/storeFailed(operation:provider:code:)``) and forwards everything else
/// unchanged. A ``SessionEnvironment`` with an observer wraps its store in one, so every
/// session and client operation is seen in one place; without an observer nothing is wrapped.
///
/// A write conflict (``AuthError/Code/storageConflict``) is not a failure: it is how the store
/// tells a session that another process wrote first, and the session adopts that record.
/// Cancellation is not one either. Records ``loadAll()`` set aside as unreadable are reported
/// one by one.
struct ObservedSessionStore: SessionStore {
  let base: any SessionStore
  let observer: any AuthObserver

  func load(_ key: SessionKey) async throws -> StoredSession? {
    try await observed(.load, key) { try await base.load(key) }
  }

  func loadAll() async throws -> StoreSnapshot {
    let snapshot = try await observed(.loadAll, nil) { try await base.loadAll() }
    for failure in snapshot.failures {
      observer.observe(
        .storeFailed(
          operation: .loadAll, provider: failure.error.provider, code: failure.error.code))
    }
    return snapshot
  }

  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await observed(.save, session.key) {
      try await base.save(session, expectedVersion: expectedVersion)
    }
  }

  func delete(_ key: SessionKey) async throws {
    try await observed(.delete, key) { try await base.delete(key) }
  }

  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await observed(.delete, key) { try await base.delete(key, ifVersion: version) }
  }

  func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason) async throws
    -> Bool
  {
    try await observed(.delete, key) {
      try await base.delete(key, ifVersion: version, reason: reason)
    }
  }

  func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    try await observed(.load, key) { try await base.deletionReason(for: key) }
  }

  func changes() -> AsyncStream<SessionStoreChange>? { base.changes() }

  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await observed(.lease, key) { try await base.lockRefresh(for: key) }
  }

  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    try await observed(.lease, key) {
      try await base.lockRefresh(for: key, unlessNewerThan: version)
    }
  }

  private func observed<Result>(
    _ operation: StoreOperation, _ key: SessionKey?, _ body: () async throws -> Result
  ) async throws -> Result {
    do {
      return try await body()
    } catch let error as AuthError {
      switch error.code {
      case .storageConflict, .signedOut: break
      default:
        let event = AuthEvent.storeFailed(
          operation: operation, provider: key?.provider, code: error.code)
        if let key {
          observer.report(event, subject: key.subject)
        } else {
          observer.observe(event)
        }
      }
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      observer.observe(
        .storeFailed(operation: operation, provider: key?.provider, code: .storageFailed))
      throw error
    }
  }
}
