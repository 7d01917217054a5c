import Foundation

/// One session as a store holds it: the credential, who it belongs to, and a version for
/// compare-and-swap writes.
public struct StoredSession: Hashable, Sendable, Codable {
  /// The session's key (provider + subject).
  public var key: SessionKey
  /// The current credential.
  public var credential: Credential
  /// The identity fetched at login, when known.
  public var identity: Identity?
  /// The store's version of this record: 1 for the first write, then +1 per write.
  /// Callers pass the version they read to ``SessionStore/save(_:expectedVersion:)``.
  ///
  /// Versions never go back: a record created after a delete continues from the deleted
  /// record's version, so a writer still holding a version read before the delete gets a
  /// conflict instead of overwriting the new session (the ABA problem).
  public var version: UInt64
  /// `true` when the last refresh with this record's refresh token was sent and its answer
  /// never came (``AuthError/answerLost``): the provider may have spent the token. A later
  /// refusal of the token then signs out with ``SignOutReason/refreshResponseLost``. `nil`
  /// otherwise (and in records written before it existed); a refresh that succeeds clears it.
  public var refreshAnswerLost: Bool?
  /// When the login that began this session completed: a new login sets it, refreshes keep
  /// it. It tells a refresh of this session (same time) from a new login of the account
  /// (another time) at sign-out, and bounds the session's life when
  /// ``RefreshPolicy/maximumSessionLifetime`` is set. `nil` in records written before it
  /// existed; the session then counts from when it was loaded and stores that time with its
  /// next write.
  public var signedInAt: Date?

  /// The version a store gives the next write after `current` (`nil`: no record yet, so
  /// after `deleted`, the last deleted record's version). Versions read from files and shared
  /// stores are outside data: at `UInt64.max` there is no next one, and the write fails with
  /// ``AuthError/Code/storageFailed`` instead of trapping or reusing a version.
  static func nextVersion(after current: UInt64?, deleted: UInt64 = 0, key: SessionKey)
    throws(AuthError) -> UInt64
  {
    let (next, overflow) = (current ?? deleted).addingReportingOverflow(1)
    guard !overflow else {
      throw AuthError(
        .storageFailed,
        "Session \(key.provider.rawValue): the stored version is at its maximum; the record "
          + "was not written by this SDK.",
        provider: key.provider)
    }
    return next
  }

  /// Creates a record. New records use version 0 until the store assigns one.
  public init(
    key: SessionKey, credential: Credential, identity: Identity? = nil, version: UInt64 = 0,
    signedInAt: Date? = nil
  ) {
    self.key = key
    self.credential = credential
    self.identity = identity
    self.version = version
    self.signedInAt = signedInAt
  }
}

/// Where sessions live between refreshes and across processes.
///
/// Writes are compare-and-swap on a per-session version, so a shared store (a directory
/// shared by processes, Redis, a database) never lets a stale writer overwrite a newer refresh
/// token. ``lockRefresh(for:)`` serializes the spending of one session's refresh token across
/// everything that shares the store.
///
/// ```swift
/// let store = try FileSessionStore(directory: configDirectory)
/// let client = try LoginClient(providers: [...], store: store)
/// ```
public protocol SessionStore: Sendable {
  /// Reads one session, or `nil` when there is none.
  /// Throws ``AuthError/Code/storageCorrupt`` (after setting the record aside) when it
  /// cannot be decoded, and ``AuthError/Code/storageFailed`` when it cannot be read.
  func load(_ key: SessionKey) async throws -> StoredSession?

  /// Reads every session. Records that cannot be decoded are set aside and reported in
  /// ``StoreSnapshot/failures``; they never hide the others.
  func loadAll() async throws -> StoreSnapshot

  /// Writes `session` if the stored version equals `expectedVersion` (`nil`: only if absent),
  /// and returns the record as stored, with its new version.
  /// Throws ``AuthError/Code/storageConflict`` when someone else wrote first.
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession

  /// Deletes a session. Deleting a missing session is not an error.
  func delete(_ key: SessionKey) async throws

  /// Deletes the session under `key` only if the stored record is at `version`, in one atomic
  /// step (compare-and-delete), leaving the version behind so that a record created later
  /// continues from it. Returns whether it deleted; `false` when there is no record or it is
  /// at another version (someone wrote it meanwhile: a refresh elsewhere, or a new login that
  /// must not be erased).
  ///
  /// Sessions sign out with it. There is no default implementation: a read followed by
  /// ``delete(_:)`` could erase a login completed between the two, so every store compares
  /// and deletes under its own lock (or script).
  ///
  /// ```swift
  /// let deleted = try await store.delete(record.key, ifVersion: record.version)
  /// ```
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool

  /// Takes the exclusive right to spend `key`'s refresh token, across every process that
  /// shares this store, until the returned lease is released.
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease

  /// Like ``lockRefresh(for:)``, but a caller holding record `version` that finds, before or
  /// while it waits, that another holder already stored a newer record gets that record
  /// instead of the lease (``RefreshTurn/superseded(_:)``).
  ///
  /// This is what keeps the waiters of a shared store from queueing behind one another for a
  /// lease they only want in order to re-read what the leader just wrote: without it, each
  /// replica woken by the leader's release takes the lease in turn, re-reads and releases it,
  /// and the last one waits for all the others. A store that can check the version and take
  /// the lease in one step (Redis, in one script) implements it; the default takes the lease.
  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn

  /// A new stream of the changes made to this store by anyone sharing it (this process
  /// included), or `nil` when the store cannot report them (the default).
  ///
  /// A shared store that can (Redis, through pub/sub) reports every successful write and
  /// delete, and ``SessionStoreChange/interrupted`` / ``SessionStoreChange/resumed`` around a
  /// lost feed; ``LoginClient`` follows them, so a sign-out on one replica ends the session on
  /// every replica. A store without a feed may implement it by polling its records and
  /// comparing versions; ``FileSessionStore`` does not report changes (its processes re-read
  /// the file under the refresh lock).
  /// Ending the loop over the stream unsubscribes.
  func changes() -> AsyncStream<SessionStoreChange>?

  /// Like ``delete(_:ifVersion:)``, and records `reason` with the deletion, so that the other
  /// holders of the session (``changes()``, ``deletionReason(for:)``) end it with the same
  /// reason. The default ignores the reason.
  func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason) async throws
    -> Bool

  /// Why the session under `key` was deleted, when the store recorded it (a tombstone of
  /// ``delete(_:ifVersion:reason:)``) and no record has been written since; `nil` otherwise
  /// (the default). A replica that finds its session gone after missing the change reads it.
  func deletionReason(for key: SessionKey) async throws -> SignOutReason?
}

/// How a wait for a session's refresh lease ended.
public enum RefreshTurn: Sendable {
  /// This caller holds the lease: re-read the store, then refresh if still needed.
  case acquired(any RefreshLease)
  /// This caller holds the lease, and the store checked in the same step that the stored
  /// record is still at the caller's version: refresh without re-reading (a round trip less
  /// between the lease and the provider, which every waiter of the refresh waits through).
  case current(any RefreshLease)
  /// Another holder stored a newer record than the caller's, so there is nothing to wait
  /// for: adopt it (and take the lease only if it does not serve).
  case superseded(StoredSession)
}

extension SessionStore {
  /// Takes the lease: stores that cannot compare the version while they wait re-read under it.
  public func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    .acquired(try await lockRefresh(for: key))
  }
}

/// The exclusive right to refresh one session; release it when the refresh is persisted.
///
/// A lease that can lapse (a Redis lease has a time to live, renewed while the refresh runs)
/// says so through ``isHeld()``. The session uses it when its compare-and-swap write conflicts:
/// a holder that still holds the lease overwrites (the conflicting write skipped the lease),
/// but one whose lease lapsed — a leader that stalled while another replica took over — adopts
/// the stored record instead, so it can never overwrite a newer credential.
public protocol RefreshLease: Sendable {
  /// Gives the right up. Calling it twice is harmless.
  func release() async

  /// Whether the lease is still certainly held (not released, not lapsed, not taken over).
  /// Leases that cannot lapse (file locks, in-process locks) return `true` until released;
  /// that is the default.
  func isHeld() async -> Bool

  /// Records in the store, before the refresh request is sent, that the holder is about to
  /// spend the refresh token whose digest is `refreshTokenDigest` (``SpendIntent``). Saving
  /// the answer or releasing the lease settles it; a holder killed in between leaves it for
  /// the next one (``interruptedIntent()``).
  ///
  /// A store shared by processes implements it; the default records nothing (an in-process
  /// lease dies with the only process that could have lost the answer).
  ///
  /// - Throws: `AuthError` `.storageFailed` when the store cannot take it, or when the lease
  ///   lapsed before it was recorded: the session then does not spend the token.
  func recordIntent(toSpend refreshTokenDigest: String) async throws

  /// The intent a previous holder of this lease recorded and never settled — it was killed,
  /// or lost the lease, between recording it and saving or releasing — as found when this
  /// lease was taken; `nil` when there was none (the default). If it names the refresh token
  /// the session is about to spend, that token may already be spent, its answer lost.
  func interruptedIntent() async -> SpendIntent?
}

extension RefreshLease {
  /// Leases that cannot lapse are held until released.
  public func isHeld() async -> Bool { true }

  /// Stores that are not shared by processes record nothing.
  public func recordIntent(toSpend refreshTokenDigest: String) async throws {}

  /// Stores that record nothing find nothing.
  public func interruptedIntent() async -> SpendIntent? { nil }
}

/// Everything a store holds, plus the records it could not read.
public struct StoreSnapshot: Sendable {
  /// The sessions that were read.
  public var sessions: [StoredSession]
  /// The records that could not be read, with the error for each.
  public var failures: [StoreFailure]

  /// Creates a snapshot.
  public init(sessions: [StoredSession], failures: [StoreFailure] = []) {
    self.sessions = sessions
    self.failures = failures
  }
}

/// A record a store could not read.
public struct StoreFailure: Sendable {
  /// Where the record was (a file name, a key).
  public var location: String
  /// Where it was moved to, when it was set aside.
  public var quarantinedAt: String?
  /// What went wrong.
  public var error: AuthError

  /// Creates a failure report.
  public init(location: String, quarantinedAt: String? = nil, error: AuthError) {
    self.location = location
    self.quarantinedAt = quarantinedAt
    self.error = error
  }
}
