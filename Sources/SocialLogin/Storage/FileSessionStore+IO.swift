import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A record that could not be read, as an error so it can travel in a `Result`.
struct RecordReadFailure: Error {
  var report: StoreFailure
}

extension FileSessionStore {
  /// Runs blocking file-system work on the store's queue and resumes with its result.
  ///
  /// The work is short (bounded by other writers' critical sections) and is not cancellable
  /// once started.
  func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String { directoryPath + "/" + name }

  /// Reads one record; a corrupt one is re-checked under the write lock and moved aside.
  func loadRecord(fileName: String) -> Result<StoredSession?, RecordReadFailure> {
    let stem = String(fileName.dropLast(".json".count))
    let location = path(fileName)
    do {
      switch try readRecord(fileName: fileName, stem: stem) {
      case .absent: return .success(nil)
      case .found(let session): return .success(session)
      case .corrupt: break
      }
      // Re-read under the write lock: a writer may have replaced the file since, and only a
      // file that is still corrupt may be moved aside.
      return try withWriteLock(stem: stem) {
        lockFile throws(AuthError) -> Result<StoredSession?, RecordReadFailure> in
        switch try readRecord(fileName: fileName, stem: stem) {
        case .absent: return .success(nil)
        case .found(let session): return .success(session)
        case .corrupt(let reason):
          let movedTo = quarantine(fileName: fileName, lockFile: lockFile, stem: stem)
          let fate = movedTo.map { "it was moved to \($0)" } ?? "it could not be moved aside"
          let error = AuthError(
            .storageCorrupt, "Session store: \(location) is corrupt (\(reason)); \(fate).")
          return .failure(
            RecordReadFailure(
              report: StoreFailure(location: location, quarantinedAt: movedTo, error: error)))
        }
      }
    } catch {
      return .failure(RecordReadFailure(report: StoreFailure(location: location, error: error)))
    }
  }

  /// Reads and classifies one file without taking any lock (renames make that safe).
  func readRecord(fileName: String, stem: String) throws(AuthError) -> FileReadOutcome {
    let location = path(fileName)
    let fd: Int32
    // O_NOFOLLOW: never follow a planted symlink. O_NONBLOCK: a FIFO cannot hang the read.
    switch POSIXFile.openFile(location, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
    case .descriptor(let opened): fd = opened
    case .failed(let code) where code == ENOENT: return .absent
    case .failed(let code) where code == ELOOP:
      return .corrupt(reason: "it is a symbolic link")
    case .failed(let code): throw POSIXFile.failure("open", location, errno: code)
    }
    defer { POSIXFile.closeFile(fd) }
    let info = try POSIXFile.status(of: fd, path: location)
    guard info.st_mode & POSIXFile.typeMask == POSIXFile.regularType else {
      return .corrupt(reason: "it is not a regular file")
    }
    guard info.st_size <= Self.maximumFileSize else {
      return .corrupt(reason: "larger than \(Self.maximumFileSize) bytes")
    }
    guard let data = try POSIXFile.readAll(fd, limit: Self.maximumFileSize, path: location)
    else {
      return .corrupt(reason: "larger than \(Self.maximumFileSize) bytes")
    }
    return try Self.decode(openRecord(data, fileName: fileName), stem: stem, path: location)
  }

  /// The bytes a record file holds for `record`: sealed with the ring's sealing key and
  /// bound to `fileName`, or `record` itself without a key ring.
  func sealRecord(_ record: Data, fileName: String) -> Data {
    guard sealing.isSealing else { return record }
    return Data(sealing.seal(Array(record), context: Self.sealingContext(fileName: fileName)))
  }

  /// The record in the bytes of `fileName` (see ``sealRecord(_:fileName:)``).
  ///
  /// Throws ``AuthError/Code/storageSealedWithUnknownKey`` or
  /// ``AuthError/Code/storageTampered``; such a file is not corrupt JSON but data this store
  /// cannot open, so callers leave it where it is.
  func openRecord(_ data: Data, fileName: String) throws(AuthError) -> Data {
    guard sealing.isSealing || SealingKeyRing.isSealed(Array(data)) else { return data }
    do {
      return Data(
        try sealing.open(Array(data), context: Self.sealingContext(fileName: fileName)).bytes)
    } catch {
      throw AuthError(sealing: error, location: path(fileName))
    }
  }

  /// The associated data that binds a sealed record to its file: the UTF-8 of
  /// `"sociallogin-file-session\0"` and the file name.
  static func sealingContext(fileName: String) -> [UInt8] {
    Array("sociallogin-file-session\u{0}\(fileName)".utf8)
  }

  /// Moves a corrupt file aside (never deletes it). Call with the write lock held.
  /// Returns the new path, or `nil` when the rename failed.
  ///
  /// A version still readable in the file is kept as the deleted version first (like a
  /// delete), so the record created next continues after it: a writer or a signing-out
  /// session that still holds that version can never match a new record (no ABA).
  func quarantine(fileName: String, lockFile: Int32, stem: String) -> String? {
    if let salvaged = salvageVersion(fileName: fileName),
      salvaged > deletedVersion(lockFile: lockFile)
    {
      try? recordDeletedVersion(salvaged, lockFile: lockFile, stem: stem)
    }
    let stamp = Int(Date().timeIntervalSince1970)
    let target = path("\(fileName).corrupt-\(stamp)-\(Self.randomSuffix(bytes: 4))")
    do {
      try POSIXFile.move(path(fileName), to: target)
      try? POSIXFile.syncDirectory(directoryPath)
      return target
    } catch {
      return nil
    }
  }

  /// The `session.version` of a file that is otherwise unreadable, when it is a regular file
  /// whose JSON still holds a version below `UInt64.max`; `nil` otherwise.
  func salvageVersion(fileName: String) -> UInt64? {
    let location = path(fileName)
    guard
      case .descriptor(let fd) = POSIXFile.openFile(location, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    else { return nil }
    defer { POSIXFile.closeFile(fd) }
    guard let info = try? POSIXFile.status(of: fd, path: location),
      info.st_mode & POSIXFile.typeMask == POSIXFile.regularType,
      let stored = try? POSIXFile.readAll(fd, limit: Self.maximumFileSize, path: location),
      let data = try? openRecord(stored, fileName: fileName)
    else { return nil }
    struct Versioned: Decodable {
      struct Session: Decodable { var version: UInt64 }
      var session: Session
    }
    guard let version = try? Self.makeDecoder().decode(Versioned.self, from: data).session.version,
      version < UInt64.max
    else { return nil }
    return version
  }

  /// Runs `body` holding the exclusive `flock(2)` on `<stem>.lock`.
  ///
  /// Blocks the calling thread while another writer holds it, so call it only from
  /// ``perform(_:)``. Writers hold it for one read-compare-write, never across network I/O.
  func withWriteLock<T>(
    stem: String, _ body: (_ lockFile: Int32) throws(AuthError) -> T
  ) throws(AuthError) -> T {
    let fd = try PrivateFiles.openLocked(path(stem + ".lock"))
    defer { POSIXFile.closeFile(fd) }  // closing drops the lock
    return try body(fd)
  }

  /// The version of the last deleted record, kept in the lock file (which is never deleted)
  /// so that a record created later continues from it. 0 when none was deleted; a lock file
  /// holding anything but decimal digits below `UInt64.max` counts as 0 rather than blocking
  /// writes.
  func deletedVersion(lockFile fd: Int32) -> UInt64 {
    var buffer = [UInt8](repeating: 0, count: 24)
    let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0, count < buffer.count else { return 0 }
    // A version no write could follow (see `StoredSession.nextVersion`) is garbage too.
    let version = UInt64(String(decoding: buffer[0..<count], as: UTF8.self)) ?? 0
    return version < UInt64.max ? version : 0
  }

  /// Records `version` as the last deleted one in the lock file, durably, before the record
  /// itself is removed. Call with the write lock held.
  func recordDeletedVersion(_ version: UInt64, lockFile fd: Int32, stem: String) throws(AuthError) {
    try POSIXFile.replaceContent(
      of: fd, with: Array(String(version).utf8), path: path(stem + ".lock"), what: "lock file")
  }

  /// Replaces `fileName` with `data` atomically and durably: a `0600` temporary file in the
  /// same directory (`O_CREAT | O_EXCL`), `fsync`, `rename` over the target, `fsync` of the
  /// directory. The temporary file is removed if anything fails before the rename.
  func writeAtomically(_ data: Data, fileName: String) throws(AuthError) {
    try PrivateFiles.write(data, to: path(fileName))
  }

  /// Takes the exclusive `flock(2)` on the lease file without blocking a thread: tries with
  /// `LOCK_NB` and sleeps 1, 2, 4 … 20 ms (real time) between tries. Cancellation ends the
  /// wait with `CancellationError` and closes the descriptor, so no lock can leak.
  func acquireFileLease(at leasePath: String) async throws -> Int32 {
    let fd: Int32
    switch POSIXFile.openFile(leasePath, O_RDWR | O_CREAT | O_NOFOLLOW) {
    case .descriptor(let opened): fd = opened
    case .failed(let code): throw POSIXFile.failure("open lease file", leasePath, errno: code)
    }
    var delay = Duration.milliseconds(1)
    while true {
      let code = POSIXFile.lockFile(fd, LOCK_EX | LOCK_NB)
      if code == 0 {
        if Task.isCancelled {
          POSIXFile.closeFile(fd)
          throw CancellationError()
        }
        return fd
      }
      guard code == EWOULDBLOCK || code == EAGAIN else {
        POSIXFile.closeFile(fd)
        throw POSIXFile.failure("flock", leasePath, errno: code)
      }
      do {
        try await Task.sleep(for: delay)
      } catch {
        POSIXFile.closeFile(fd)
        throw error
      }
      delay = min(delay * 2, .milliseconds(20))
    }
  }

  /// `bytes` random bytes as lower-case hex, for unique temporary and set-aside names.
  static func randomSuffix(bytes: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<bytes).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return String(byte, radix: 16).leftPadded(to: 2)
    }.joined()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// The file store's refresh lease: the `flock(2)` on `<stem>.lease` plus the store's
/// in-process lock for the key.
///
/// Releasing closes the descriptor (dropping the `flock`) and then hands the in-process lock
/// to the next waiting task. Releasing twice is harmless; a dropped lease releases itself.
final class FileRefreshLease: RefreshLease {
  private let descriptor: Locked<Int32?>
  private let locks: AsyncKeyedLock<SessionKey>
  private let key: SessionKey
  /// The lease file's path, for errors.
  let path: String
  /// The intent the lease file held when the lease was taken (``FileSpendIntent``).
  private let interrupted: SpendIntent?
  /// Whether this holder recorded an intent of its own (its release then clears it; another
  /// holder's unsettled intent stays for the next one).
  private let recorded = Locked(false)

  init(descriptor: Int32, locks: AsyncKeyedLock<SessionKey>, key: SessionKey, path: String) {
    self.descriptor = Locked(descriptor)
    self.locks = locks
    self.key = key
    self.path = path
    interrupted = FileSpendIntent.read(from: descriptor)
  }

  deinit { releaseNow() }

  func release() async { releaseNow() }

  func interruptedIntent() async -> SpendIntent? { interrupted }

  /// Writes the intent into the lease file, durably, under the lease's own `flock`: a process
  /// killed before it saves or releases leaves it there for the next holder.
  func recordIntent(toSpend refreshTokenDigest: String) async throws {
    let intent = SpendIntent(
      refreshTokenDigest: refreshTokenDigest, owner: FileSpendIntent.owner, recordedAt: Date())
    let failure = descriptor.withLock { fd -> AuthError? in
      guard let fd else {
        return AuthError(.storageFailed, "The refresh lease was released before its intent.")
      }
      do {
        try FileSpendIntent.write(intent, to: fd, path: path)
        return nil
      } catch let error as AuthError {
        return error
      } catch {
        return AuthError(.storageFailed, "Recording the refresh intent failed.", underlying: error)
      }
    }
    if let failure { throw failure }
    recorded.withLock { $0 = true }
  }

  /// Releases synchronously; later calls do nothing. An intent this holder recorded is cleared
  /// first (it is done with the token, whatever the provider said); an interrupted one it
  /// found and did not replace stays, for whoever spends that token next.
  func releaseNow() {
    let fd = descriptor.withLock { descriptor -> Int32? in
      defer { descriptor = nil }
      return descriptor
    }
    guard let fd else { return }
    if recorded.withLock({ $0 }) { _ = ftruncate(fd, 0) }
    POSIXFile.closeFile(fd)
    locks.unlock(key)
  }
}
