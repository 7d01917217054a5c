import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin, errno-checked wrappers over the POSIX calls the file store needs.
///
/// Every failure becomes ``AuthError/Code/storageFailed`` with the path and `strerror`, and
/// never with file contents.
enum POSIXFile {
  /// The file type bits of a mode.
  static let typeMask = mode_t(S_IFMT)
  /// A regular file.
  static let regularType = mode_t(S_IFREG)
  /// A directory.
  static let directoryType = mode_t(S_IFDIR)

  /// `strerror(code)` as a Swift string.
  static func describe(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
  }

  /// A ``AuthError/Code/storageFailed`` error for a failed system call.
  static func failure(_ operation: String, _ path: String, errno code: Int32) -> AuthError {
    AuthError(
      .storageFailed,
      "Session store: \(operation) failed for \(path): \(describe(code)) (errno \(code)).")
  }

  /// The outcome of ``openFile(_:_:mode:)``.
  enum Opened {
    /// The new descriptor.
    case descriptor(Int32)
    /// The `errno` of the failure.
    case failed(errno: Int32)
  }

  /// `open(2)` with `O_CLOEXEC` (so children never inherit a lock), retried on `EINTR`.
  /// Returns the descriptor or the errno.
  static func openFile(_ path: String, _ flags: Int32, mode: mode_t = 0o600) -> Opened {
    while true {
      let fd = open(path, flags | O_CLOEXEC, mode)
      if fd >= 0 { return .descriptor(fd) }
      let code = errno
      if code != EINTR { return .failed(errno: code) }
    }
  }

  /// `close(2)`. Errors are ignored: on Linux and Darwin the descriptor is gone either way,
  /// and retrying could close someone else's descriptor.
  static func closeFile(_ fd: Int32) {
    _ = close(fd)
  }

  /// `flock(2)`, retried on `EINTR`. Returns 0 or the errno.
  static func lockFile(_ fd: Int32, _ operation: Int32) -> Int32 {
    while true {
      if flock(fd, operation) == 0 { return 0 }
      let code = errno
      if code != EINTR { return code }
    }
  }

  /// `fstat(2)`.
  static func status(of fd: Int32, path: String) throws(AuthError) -> stat {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("fstat", path, errno: errno) }
    return info
  }

  /// `stat(2)` (follows symbolic links). Returns `nil` when the path does not exist.
  static func status(ofPath path: String) throws(AuthError) -> stat? {
    var info = stat()
    if stat(path, &info) == 0 { return info }
    let code = errno
    if code == ENOENT { return nil }
    throw failure("stat", path, errno: code)
  }

  /// `fsync(2)`, retried on `EINTR`.
  static func sync(_ fd: Int32, path: String) throws(AuthError) {
    while fsync(fd) != 0 {
      let code = errno
      if code != EINTR { throw failure("fsync", path, errno: code) }
    }
  }

  /// Replaces the whole content of the file open at `fd` with `bytes`, durably (`ftruncate`,
  /// `pwrite` at 0, `fsync`): for the small files whose content is one value kept under a
  /// lock (a lock file's deleted version, a lease file's intent). `what` names the file in
  /// errors.
  static func replaceContent(
    of fd: Int32, with bytes: [UInt8], path: String, what: String
  ) throws(AuthError) {
    guard ftruncate(fd, 0) == 0 else { throw failure("truncate \(what)", path, errno: errno) }
    let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    guard written == bytes.count else {
      throw failure("write \(what)", path, errno: written < 0 ? errno : EIO)
    }
    try sync(fd, path: path)
  }

  /// Writes all of `data`, retrying short writes and `EINTR`.
  static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(AuthError) {
    let failed: Int32? = data.withUnsafeBytes { buffer -> Int32? in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return nil }
        let written = write(fd, base + offset, buffer.count - offset)
        if written < 0 {
          let code = errno
          if code == EINTR { continue }
          return code
        }
        offset += written
      }
      return nil
    }
    if let failed { throw failure("write", path, errno: failed) }
  }

  /// Reads at most `limit` bytes from the start of the file. Returns `nil` when the file
  /// holds more than `limit` bytes (it grew after `fstat`).
  static func readAll(_ fd: Int32, limit: Int, path: String) throws(AuthError) -> Data? {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        read(fd, buffer.baseAddress, buffer.count)
      }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        throw failure("read", path, errno: code)
      }
      if count == 0 { return data }
      data.append(contentsOf: chunk[0..<count])
      if data.count > limit { return nil }
    }
  }

  /// `rename(2)`. Throws on failure.
  static func move(_ source: String, to target: String) throws(AuthError) {
    guard rename(source, target) == 0 else {
      throw failure("rename to \(target)", source, errno: errno)
    }
  }

  /// `unlink(2)`. Returns `false` when the file did not exist.
  @discardableResult
  static func remove(_ path: String) throws(AuthError) -> Bool {
    if unlink(path) == 0 { return true }
    let code = errno
    if code == ENOENT { return false }
    throw failure("unlink", path, errno: code)
  }

  /// Flushes a directory's entries (a rename or unlink inside it) to disk.
  static func syncDirectory(_ path: String) throws(AuthError) {
    let fd: Int32
    switch openFile(path, O_RDONLY | O_DIRECTORY) {
    case .descriptor(let opened): fd = opened
    case .failed(let code): throw failure("open directory", path, errno: code)
    }
    defer { closeFile(fd) }
    try sync(fd, path: path)
  }

  /// The effective user id of this process.
  static var effectiveUserID: uid_t { geteuid() }

  /// `chmod(2)`.
  static func setMode(_ path: String, _ mode: mode_t) throws(AuthError) {
    guard chmod(path, mode) == 0 else { throw failure("chmod", path, errno: errno) }
  }

  /// `fchmod(2)`.
  static func setMode(of fd: Int32, _ mode: mode_t, path: String) throws(AuthError) {
    guard fchmod(fd, mode) == 0 else { throw failure("fchmod", path, errno: errno) }
  }

  /// `mkdir(2)`. Returns `false` when something already exists at `path`.
  static func makeDirectory(_ path: String, mode: mode_t) throws(AuthError) -> Bool {
    if mkdir(path, mode) == 0 { return true }
    let code = errno
    if code == EEXIST { return false }
    throw failure("mkdir", path, errno: code)
  }
}
