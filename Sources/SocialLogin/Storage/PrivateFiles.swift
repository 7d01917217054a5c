import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file store's protections for private files and directories, shared with the package's
/// other targets (the CLI keeps its session profiles with them): directories `0700` and owned
/// by this user, files `0600`, owned by this user, never reached through a symbolic link
/// (`O_NOFOLLOW`), written atomically. ``FileSessionStore`` uses the same functions.
///
/// Every failure is ``AuthError/Code/storageFailed`` naming the path, never the contents.
package enum PrivateFiles {
  /// Creates the directory at `path` with mode `0700` if needed (its parents with the default
  /// permissions). An existing directory must be owned by this user; a mode other than `0700`
  /// is tightened to `0700`.
  package static func prepareDirectory(_ path: String) throws(AuthError) {
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw AuthError(
        .storageFailed, "Session store: cannot create \(parent.path).", underlying: error)
    }
    let created = try POSIXFile.makeDirectory(path, mode: 0o700)
    guard let info = try POSIXFile.status(ofPath: path) else {
      throw POSIXFile.failure("stat", path, errno: ENOENT)
    }
    guard info.st_mode & POSIXFile.typeMask == POSIXFile.directoryType else {
      throw AuthError(.storageFailed, "Session store: \(path) exists and is not a directory.")
    }
    guard info.st_uid == POSIXFile.effectiveUserID else {
      throw AuthError(
        .storageFailed,
        "Session store: \(path) belongs to another user (uid \(info.st_uid)); refusing to "
          + "keep tokens there.")
    }
    // The umask may have stripped bits from a new directory; an old one may be too open.
    if created || info.st_mode & 0o777 != 0o700 {
      try POSIXFile.setMode(path, 0o700)
    }
  }

  /// The contents of the private file at `path`, or `nil` when there is none.
  ///
  /// The file is opened with `O_NOFOLLOW` (a planted symbolic link is refused, not followed)
  /// and must be a regular file owned by this user and at most `limit` bytes; a mode other
  /// than `0600` is tightened to `0600`.
  package static func read(_ path: String, limit: Int) throws(AuthError) -> Data? {
    let fd: Int32
    switch POSIXFile.openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
    case .descriptor(let opened): fd = opened
    case .failed(let code) where code == ENOENT: return nil
    case .failed(let code) where code == ELOOP:
      throw AuthError(
        .storageFailed, "\(path) is a symbolic link; refusing to follow it (remove it).")
    case .failed(let code): throw POSIXFile.failure("open", path, errno: code)
    }
    defer { POSIXFile.closeFile(fd) }
    let info = try POSIXFile.status(of: fd, path: path)
    guard info.st_mode & POSIXFile.typeMask == POSIXFile.regularType else {
      throw AuthError(.storageFailed, "\(path) is not a regular file; refusing to read it.")
    }
    guard info.st_uid == POSIXFile.effectiveUserID else {
      throw AuthError(
        .storageFailed,
        "\(path) belongs to another user (uid \(info.st_uid)); refusing to read it.")
    }
    if info.st_mode & 0o777 != 0o600 {
      try POSIXFile.setMode(of: fd, 0o600, path: path)
    }
    guard info.st_size <= limit, let data = try POSIXFile.readAll(fd, limit: limit, path: path)
    else {
      throw AuthError(.storageFailed, "\(path) is larger than \(limit) bytes.")
    }
    return data
  }

  /// Replaces the file at `path` with `data` atomically and durably: a `0600` temporary file
  /// in the same directory (`O_CREAT | O_EXCL | O_NOFOLLOW`), `fsync`, `rename` over the
  /// target, `fsync` of the directory. The temporary file is removed if anything fails before
  /// the rename.
  package static func write(_ data: Data, to path: String) throws(AuthError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let temporary =
      directory + "/.\(url.lastPathComponent).tmp-\(FileSessionStore.randomSuffix(bytes: 8))"
    let fd: Int32
    switch POSIXFile.openFile(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
    {
    case .descriptor(let opened): fd = opened
    case .failed(let code): throw POSIXFile.failure("create", temporary, errno: code)
    }
    do {
      defer { POSIXFile.closeFile(fd) }
      try POSIXFile.setMode(of: fd, 0o600, path: temporary)
      try POSIXFile.writeAll(fd, data, path: temporary)
      try POSIXFile.sync(fd, path: temporary)
    } catch {
      _ = try? POSIXFile.remove(temporary)
      throw error
    }
    do {
      try POSIXFile.move(temporary, to: path)
    } catch {
      _ = try? POSIXFile.remove(temporary)
      throw error
    }
    try POSIXFile.syncDirectory(directory)
  }

  /// Runs `body` holding the exclusive `flock(2)` of the lock file `lockPath` (created `0600`
  /// with `O_NOFOLLOW`, never deleted). Blocks the calling thread while another process holds
  /// it: for short read-modify-writes only.
  package static func withLock<T>(_ lockPath: String, _ body: () throws -> T) throws -> T {
    let fd = try openLocked(lockPath)
    defer { POSIXFile.closeFile(fd) }  // closing drops the lock
    return try body()
  }

  /// Opens the lock file `lockPath` (created `0600` with `O_NOFOLLOW`) and takes its exclusive
  /// `flock(2)`, blocking while another process holds it. Closing the descriptor drops the lock.
  package static func openLocked(_ lockPath: String) throws(AuthError) -> Int32 {
    let fd: Int32
    switch POSIXFile.openFile(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW) {
    case .descriptor(let opened): fd = opened
    case .failed(let code): throw POSIXFile.failure("open lock file", lockPath, errno: code)
    }
    let code = POSIXFile.lockFile(fd, LOCK_EX)
    guard code == 0 else {
      POSIXFile.closeFile(fd)
      throw POSIXFile.failure("flock", lockPath, errno: code)
    }
    return fd
  }

  /// Moves the file at `source` to `target` when `target` does not exist yet: how a file
  /// kept in an old place is taken into a private directory. `source` must be a regular file
  /// owned by this user (checked without following a symbolic link); it is then read with
  /// ``read(_:limit:)``'s checks, written to `target` with ``write(_:to:)`` and removed.
  ///
  /// - Returns: Whether the file was moved (`false`: no `source`, or `target` exists).
  @discardableResult
  package static func adopt(_ source: String, as target: String, limit: Int) throws(AuthError)
    -> Bool
  {
    var existing = stat()
    guard lstat(target, &existing) != 0 else { return false }
    guard let data = try read(source, limit: limit) else { return false }
    try write(data, to: target)
    try POSIXFile.remove(source)
    return true
  }
}
