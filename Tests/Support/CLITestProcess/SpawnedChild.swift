import CChildProcess
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with `posix_spawn` (``cchildprocess_spawn_with``) instead of
/// Foundation's `Process.run()`, which crashed in a full test run (a `memcpy` past its buffer
/// while it listed the test process's open descriptors, about 1,380 of them). The child's
/// stdin, stdout and stderr are the given files; nothing else of the test process is open in
/// it.
public final class SpawnedChild: Sendable {
  /// The child's pid.
  public let processIdentifier: Int32
  /// The exit status once reaped (128 + the signal for a child ended by one).
  private let exit = Mutex<Int32?>(nil)

  /// Starts `executable` with `arguments` and exactly `environment`.
  ///
  /// - Throws: ``CLIProcessError`` when a file cannot be opened or the spawn fails.
  public init(
    _ executable: URL, arguments: [String], environment: [String: String],
    stdin: FileHandle, stdout: FileHandle, stderr: FileHandle
  ) throws {
    let argv = ([executable.path] + arguments).map { strdup($0) }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    let pid = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
      (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
        cchildprocess_spawn_with(
          executable.path, argvBuffer.baseAddress, envpBuffer.baseAddress,
          stdin.fileDescriptor, stdout.fileDescriptor, stderr.fileDescriptor)
      }
    }
    guard pid > 0 else {
      throw CLIProcessError("could not start \(executable.path): errno \(-pid)")
    }
    processIdentifier = pid
  }

  /// Whether the child has not exited yet (an exit is reaped and remembered).
  public var isRunning: Bool { status == nil }

  /// The exit status, reaping the child if it exited; `nil` while it runs.
  public var status: Int32? {
    exit.withLock { exit in
      if let exit { return exit }
      var status: Int32 = 0
      guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
      let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
      exit = code
      return code
    }
  }

  /// Sends SIGTERM.
  public func terminate() { kill(processIdentifier, SIGTERM) }

  /// Sends SIGINT.
  public func interrupt() { kill(processIdentifier, SIGINT) }

  /// Waits (blocking this thread) for the exit: at most `deadline` seconds, then SIGINT, and
  /// SIGKILL 10 s later. Returns the exit status.
  public func wait(deadline: TimeInterval) -> Int32 {
    let interruptAt = Date().addingTimeInterval(deadline)
    let killAt = interruptAt.addingTimeInterval(10)
    var interrupted = false
    while true {
      if let status { return status }
      let now = Date()
      if now >= killAt {
        kill(processIdentifier, SIGKILL)
      } else if now >= interruptAt, !interrupted {
        interrupt()
        interrupted = true
      }
      usleep(5_000)
    }
  }
}
