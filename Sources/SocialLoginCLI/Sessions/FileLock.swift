import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock(2)` on a small lock file (created 0600, never deleted), held until
/// ``unlock()``. The CLI takes it around the read-modify-write of its profile file; it blocks
/// the calling thread, which is fine for a short file rewrite in a command-line process.
struct FileLock {
  private let descriptor: Int32

  init(path: String) throws(AuthError) {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw AuthError(.storageFailed, "Cannot open the lock file \(path) (errno \(errno)).")
    }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let code = errno
        close(descriptor)
        throw AuthError(.storageFailed, "Cannot lock \(path) (errno \(code)).")
      }
    }
    self.descriptor = descriptor
  }

  func unlock() {
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
