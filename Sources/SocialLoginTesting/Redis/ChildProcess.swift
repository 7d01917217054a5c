import CChildProcess
import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process that dies with this process (Linux), is stopped with SIGKILL and reaped
/// exactly once, so neither an orphan nor a zombie stays behind.
final class ChildProcess: Sendable {
  /// The child's process id, valid until it is reaped.
  let pid: pid_t
  /// The wait status once reaped; `nil` while it may still run. Held while signalling or
  /// reaping, so a reaped pid (which the system may reuse) is never signalled.
  private let reaped = Locked<Int32?>(nil)

  /// Starts `executable` (an absolute path) with `arguments`, its stdout and stderr into the
  /// file at `output`, with an empty signal mask and default signal dispositions.
  init(executable: String, arguments: [String], output: String) throws(RedisTestServerError) {
    let strings = ([executable] + arguments).map { strdup($0) }
    defer { for string in strings { free(string) } }
    let result = (strings + [nil]).withUnsafeBufferPointer { argv in
      cchildprocess_spawn(executable, argv.baseAddress, output)
    }
    guard result > 0 else {
      throw RedisTestServerError(
        .spawnFailed, "could not start \(executable): \(String(cString: strerror(-result)))")
    }
    pid = result
  }

  /// The wait status if the child has exited (reaping it), `nil` while it runs.
  func exitStatus() -> Int32? {
    reaped.withLock { reaped in
      if reaped == nil {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = status }
      }
      return reaped
    }
  }

  /// Kills the child with SIGKILL (it cannot block or ignore it) and reaps it; does nothing
  /// once it was reaped.
  func killAndReap() {
    reaped.withLock { reaped in
      guard reaped == nil else { return }
      _ = kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      reaped = status
    }
  }

  /// "exited with status 1" or "killed by signal 9", from a wait status.
  static func describe(_ status: Int32) -> String {
    status & 0x7f == 0
      ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
  }

  deinit { killAndReap() }
}
