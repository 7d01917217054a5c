import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``SessionStore`` that keeps one JSON file per session in a private directory, shared
/// safely by every process (and every store instance) that opens the same directory.
///
/// ```swift
/// let directory = FileManager.default.homeDirectoryForCurrentUser
///   .appendingPathComponent(".config/myapp/sessions")
/// let store = try FileSessionStore(directory: directory)
///
/// let key = SessionKey(provider: .twitter, subject: "42")
/// let lease = try await store.lockRefresh(for: key)  // excludes other processes too
/// let current = try await store.load(key)            // re-read under the lease
/// // ... spend current's refresh token, then persist the result before telling anyone:
/// // try await store.save(refreshed, expectedVersion: current?.version)
/// await lease.release()
/// ```
///
/// ## Security
/// Without a key ring, tokens are stored **in plain text**, as `gh`, `gcloud` and most
/// command-line tools store theirs: file permissions are the protection. Pass
/// `sealing: SealingKeyRing` to seal every record with XChaCha20-Poly1305 (see
/// ``init(directory:sealing:)``), so a backup or a copied disk reveals no token. The
/// directory is created with mode `0700` and every session file with `0600`. A directory
/// that already exists must be owned by this user; if its mode is anything other than `0700`
/// (for example `0755` from a `mkdir -p`), the initializer tightens it to `0700`. A directory
/// owned by someone else is refused with ``AuthError/Code/storageFailed``. Use a key ring, an
/// encrypted volume or a keychain-backed ``SessionStore`` if plain files are not acceptable.
///
/// ## Layout
/// For each session, with `<stem>` the key's provider and subject in lower-case base32 joined
/// by `-` (never raw user text in a path; safe on case-insensitive file systems), or
/// `_sha256_<hex>` for keys too long for a file name:
/// - `<stem>.json` — the record (`{"format": 1, "session": {...}}`, sorted keys).
/// - `<stem>.lock` — a file whose `flock(2)` serializes writers (compare-and-swap); after a
///   delete it holds the deleted record's version in decimal, so versions never go back.
/// - `<stem>.lease` — an empty file whose `flock(2)` is the refresh lease.
/// - `<stem>.json.corrupt-<unix time>-<random>` — a record that could not be read, set aside.
/// - `.<stem>.json.tmp-<random>` — a write in progress (or left behind by a crash).
///
/// Lock files are never deleted (deleting a lock file races with processes that opened it).
///
/// ## Guarantees
/// - Writes are atomic: a temporary file is written, `fsync`ed and renamed over the record,
///   then the directory is `fsync`ed. Readers see the old or the new record, never a mix.
/// - ``save(_:expectedVersion:)`` compares versions while holding the session's write lock,
///   so of two writers (threads, store instances or processes) with the same expected
///   version exactly one succeeds.
/// - ``lockRefresh(for:)`` is exclusive across processes and never blocks a thread.
/// - A record that cannot be decoded never hides the others and is never deleted.
/// - With a key ring, a record that fails to open (sealed with a key the ring lacks,
///   tampered with, copied from another record's file, or plain text) is reported as
///   ``AuthError/Code/storageSealedWithUnknownKey`` or ``AuthError/Code/storageTampered``,
///   never served, and left untouched where it is: a missing key must not destroy data.
///
/// Advisory `flock(2)` locks only work on local file systems; do not point the store at NFS
/// or other network file systems shared between machines.
public final class FileSessionStore: SessionStore {
  /// The format number written into every session file.
  public static let formatVersion = 1
  /// Session files larger than this (1 MiB) are treated as corrupt without being read.
  public static let maximumFileSize = 1 << 20

  /// The directory that holds the session files.
  public let directory: URL

  let directoryPath: String
  /// How record files are sealed (``RecordSealing/unsealed`` without a key ring).
  let sealing: RecordSealing
  let refreshLocks = AsyncKeyedLock<SessionKey>()
  /// Runs the blocking file-system work (fsync, write locks) off the cooperative pool.
  let queue = DispatchQueue(
    label: "SocialLogin.FileSessionStore", qos: .userInitiated, attributes: .concurrent)

  /// Opens (creating if needed) the session directory at `directory`.
  ///
  /// Missing parent directories are created with the default permissions; the directory
  /// itself is created with mode `0700`. An existing directory must be a directory owned by
  /// this user, and its mode is set to `0700` if it is anything else.
  ///
  /// With `sealing`, each record file holds its JSON sealed by the ring's sealing key, bound
  /// to the file's name (a file copied over another session's file fails to open). A record
  /// sealed with an older key of the ring still opens and is resealed with the current key
  /// on its next write. Without it, records are plain JSON (and a sealed file is reported as
  /// ``AuthError/Code/storageSealedWithUnknownKey``, left in place).
  ///
  /// - Parameters:
  ///   - directory: The session directory.
  ///   - sealing: The keys that seal and open record files; `nil` stores plain text.
  /// - Throws: ``AuthError/Code/configuration`` for a non-file URL,
  ///   ``AuthError/Code/storageFailed`` when the directory cannot be created, is not a
  ///   directory, belongs to another user, or its mode cannot be fixed.
  public init(directory: URL, sealing: SealingKeyRing? = nil) throws {
    guard directory.isFileURL else {
      throw AuthError(.configuration, "FileSessionStore needs a file URL, not \(directory).")
    }
    let path = directory.standardizedFileURL.path
    self.directory = URL(fileURLWithPath: path, isDirectory: true)
    self.directoryPath = path
    self.sealing = sealing.map { .keyRing($0) } ?? .unsealed
    try PrivateFiles.prepareDirectory(path)
  }

  // MARK: - SessionStore

  /// Reads the session stored under `key`, or `nil` when there is none.
  ///
  /// - Throws: ``AuthError/Code/storageCorrupt`` when the file cannot be decoded, is too
  ///   large, is not a regular file or holds another key; the file is first moved aside to
  ///   `<stem>.json.corrupt-…`, so the next call returns `nil`.
  ///   ``AuthError/Code/storageFailed`` when the file cannot be read (permissions, I/O) or
  ///   was written by a newer SDK; ``AuthError/Code/storageSealedWithUnknownKey`` or
  ///   ``AuthError/Code/storageTampered`` when it cannot be opened with the store's keys. In
  ///   those cases the file is left in place.
  public func load(_ key: SessionKey) async throws -> StoredSession? {
    let stem = Self.stem(for: key)
    return try await perform {
      switch self.loadRecord(fileName: stem + ".json") {
      case .success(let session): return session
      case .failure(let failure): throw failure.report.error
      }
    }
  }

  /// Reads every session, ordered by key.
  ///
  /// Files that cannot be read or opened are reported in ``StoreSnapshot/failures`` (corrupt
  /// ones after being moved aside, ones that fail to open left in place) and never hide the
  /// others. Temporary, lock and set-aside files are ignored.
  ///
  /// - Throws: ``AuthError/Code/storageFailed`` only when the directory cannot be listed.
  public func loadAll() async throws -> StoreSnapshot {
    try await perform {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: self.directoryPath)
      } catch {
        throw AuthError(
          .storageFailed, "Session store: cannot list \(self.directoryPath).",
          underlying: error)
      }
      var snapshot = StoreSnapshot(sessions: [])
      for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
        switch self.loadRecord(fileName: name) {
        case .success(let session?): snapshot.sessions.append(session)
        case .success(nil): break  // removed since the listing
        case .failure(let failure): snapshot.failures.append(failure.report)
        }
      }
      snapshot.sessions.sort { $0.key < $1.key }
      return snapshot
    }
  }

  /// Writes `session` if the stored version equals `expectedVersion` (`nil`: only when there
  /// is no record) and returns it as stored, with its new version.
  ///
  /// The comparison and the atomic replace happen under the session's exclusive write lock,
  /// so they are safe against other threads, store instances and processes. The version in
  /// `session` is ignored. A corrupt record found on disk is moved aside and counts as no
  /// record.
  ///
  /// With a key ring, the record is sealed with its current sealing key, so a record sealed
  /// with an older key moves to the current one.
  ///
  /// - Throws: ``AuthError/Code/storageConflict`` when the stored version differs;
  ///   ``AuthError/Code/storageFailed`` when the file cannot be written;
  ///   ``AuthError/Code/storageSealedWithUnknownKey`` or ``AuthError/Code/storageTampered``
  ///   when the record on disk cannot be opened (it is not overwritten).
  public func save(
    _ session: StoredSession, expectedVersion: UInt64?
  ) async throws -> StoredSession {
    let stem = Self.stem(for: session.key)
    return try await perform {
      try self.withWriteLock(stem: stem) { (lockFile) throws(AuthError) -> StoredSession in
        let fileName = stem + ".json"
        var current: UInt64?
        switch try self.readRecord(fileName: fileName, stem: stem) {
        case .absent: current = nil
        case .found(let stored): current = stored.version
        case .corrupt: _ = self.quarantine(fileName: fileName, lockFile: lockFile, stem: stem)
        }
        guard current == expectedVersion else {
          throw AuthError.storageConflict(
            key: session.key, expected: expectedVersion, found: current)
        }
        var stored = session
        stored.version = try StoredSession.nextVersion(
          after: current, deleted: current == nil ? self.deletedVersion(lockFile: lockFile) : 0,
          key: session.key)
        try self.writeAtomically(
          self.sealRecord(Self.encode(stored), fileName: fileName), fileName: fileName)
        if current == nil { self.removeDeletionNotice(stem: stem) }
        return stored
      }
    }
  }

  /// Deletes the session stored under `key`, under its write lock. Deleting a missing session
  /// does nothing.
  ///
  /// - Throws: ``AuthError/Code/storageFailed`` when the file cannot be removed;
  ///   ``AuthError/Code/storageSealedWithUnknownKey`` or ``AuthError/Code/storageTampered``
  ///   when the record cannot be opened (it is left in place).
  public func delete(_ key: SessionKey) async throws {
    let stem = Self.stem(for: key)
    try await perform {
      try self.withWriteLock(stem: stem) { (lockFile) throws(AuthError) in
        let fileName = stem + ".json"
        if case .found(let stored) = try self.readRecord(fileName: fileName, stem: stem) {
          try self.recordDeletedVersion(stored.version, lockFile: lockFile, stem: stem)
        }
        self.removeDeletionNotice(stem: stem)  // deleted without a reason
        if try POSIXFile.remove(self.path(fileName)) {
          try POSIXFile.syncDirectory(self.directoryPath)
        }
      }
    }
  }

  /// Deletes the session stored under `key` if it is at `version`, under its write lock, and
  /// returns whether it did. A corrupt record is moved aside (and not counted as deleted).
  ///
  /// - Throws: ``AuthError/Code/storageFailed`` when the file cannot be read or removed;
  ///   ``AuthError/Code/storageSealedWithUnknownKey`` or ``AuthError/Code/storageTampered``
  ///   when the record cannot be opened (it is left in place).
  public func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    let stem = Self.stem(for: key)
    return try await perform {
      try self.withWriteLock(stem: stem) { (lockFile) throws(AuthError) -> Bool in
        try self.deleteRecord(stem: stem, ifVersion: version, lockFile: lockFile)
      }
    }
  }

  /// ``delete(_:ifVersion:)`` with the write lock held.
  func deleteRecord(stem: String, ifVersion version: UInt64, lockFile: Int32) throws(AuthError)
    -> Bool
  {
    let fileName = stem + ".json"
    switch try readRecord(fileName: fileName, stem: stem) {
    case .absent:
      return false
    case .corrupt:
      _ = quarantine(fileName: fileName, lockFile: lockFile, stem: stem)
      return false
    case .found(let stored):
      guard stored.version == version else { return false }
      try recordDeletedVersion(stored.version, lockFile: lockFile, stem: stem)
      if try POSIXFile.remove(path(fileName)) {
        try POSIXFile.syncDirectory(directoryPath)
      }
      return true
    }
  }

  /// Waits for the exclusive right to refresh `key`, across every thread, store instance and
  /// process using this directory, and returns it as a lease.
  ///
  /// Tasks of this store queue in arrival order and suspend without blocking a thread; the
  /// cross-process part is a `flock(2)` on `<stem>.lease`, tried without blocking and retried
  /// with a short real-time backoff (1–20 ms) while another process holds it. A task
  /// cancelled while waiting throws `CancellationError` and holds nothing.
  ///
  /// Release the lease once the refreshed credential is saved; releasing twice is harmless,
  /// and a lease dropped without being released releases itself. Exiting the process
  /// releases it too (the kernel drops the lock with the descriptor).
  ///
  /// - Throws: `CancellationError`, or ``AuthError/Code/storageFailed`` when the lease file
  ///   cannot be opened or locked.
  public func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    let leasePath = path(Self.stem(for: key) + ".lease")
    try await refreshLocks.lock(key)
    do {
      let fd = try await acquireFileLease(at: leasePath)
      return FileRefreshLease(descriptor: fd, locks: refreshLocks, key: key, path: leasePath)
    } catch {
      refreshLocks.unlock(key)
      throw error
    }
  }
}
