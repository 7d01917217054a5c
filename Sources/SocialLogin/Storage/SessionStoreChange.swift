/// A change to a shared store, as a store that can tell about them reports it
/// (``SessionStore/changes()``): what another replica (or this one) wrote or deleted, and
/// when the report itself was interrupted.
///
/// A ``LoginClient`` follows them: a session signed out on one replica ends on every replica
/// that holds it, with the same ``SignOutReason``, and a newer record (a refresh elsewhere,
/// a new login) is adopted, instead of each replica serving its cached token until it
/// expires.
///
/// ```swift
/// if let changes = store.changes() {
///   for await change in changes {
///     if case .deleted(let key, _, let reason) = change { print(key, reason ?? .storageLost) }
///   }
/// }
/// ```
public enum SessionStoreChange: Sendable, Hashable {
  /// `record` was written, with its new ``StoredSession/version``.
  case written(StoredSession)
  /// The session under the key was deleted at `version`, for `reason` when the deleting
  /// side gave one (``SessionStore/delete(_:ifVersion:reason:)``); `nil` for a plain
  /// ``SessionStore/delete(_:)``.
  case deleted(SessionKey, version: UInt64, reason: SignOutReason?)
  /// The feed was cut (a lost connection, a failover): changes made from now on may be
  /// missed until ``resumed``.
  case interrupted
  /// The feed is back after ``interrupted``: changes made meanwhile were missed, so holders
  /// re-read their sessions before serving another cached token.
  case resumed
}

extension SessionStore {
  /// Stores that cannot report changes report none.
  public func changes() -> AsyncStream<SessionStoreChange>? { nil }

  /// Compares and deletes without recording why: stores that do not keep a reason.
  public func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    try await delete(key, ifVersion: version)
  }

  /// Stores that do not keep a reason know none.
  public func deletionReason(for key: SessionKey) async throws -> SignOutReason? { nil }
}
