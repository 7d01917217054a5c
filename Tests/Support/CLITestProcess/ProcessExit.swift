import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Waits for a child process's exit without `Process.waitUntilExit()`, which on Linux can miss
/// the exit of one of many children started at once from several threads (the child stays a
/// zombie and the wait never ends: seen in a full run with the Redis cluster suites). It asks
/// the kernel with `waitid(WNOWAIT)`, which sees the exit without reaping, so Foundation may
/// still reap it; after `deadline` seconds it interrupts the child, and kills it 10 s later.
public enum ProcessExit {
  /// The exit status (128 + the signal for a child ended by one).
  public static func wait(for process: Process, deadline: TimeInterval) -> Int32 {
    let pid = process.processIdentifier
    let interruptAt = Date().addingTimeInterval(deadline)
    let killAt = interruptAt.addingTimeInterval(10)
    var interrupted = false
    while true {
      var info = siginfo_t()
      if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
        info.si_signo == SIGCHLD
      {
        let code = info._sifields._sigchld.si_status
        return info.si_code == Int32(CLD_EXITED) ? code : 128 + code
      }
      if !process.isRunning { return process.terminationStatus }
      let now = Date()
      if now >= killAt {
        kill(pid, SIGKILL)
      } else if now >= interruptAt, !interrupted {
        kill(pid, SIGINT)
        interrupted = true
      }
      usleep(5_000)
    }
  }
}
