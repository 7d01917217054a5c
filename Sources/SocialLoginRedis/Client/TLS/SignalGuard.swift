#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps a write that OpenSSL makes with `write(2)` from raising SIGPIPE (which ends a process
/// that does not ignore it) when the server has closed the connection: the signal is blocked
/// on the calling thread for the call, and one it raised is taken off the thread's pending set
/// before the mask is restored. The call then fails with `EPIPE`, as `send(2)` with
/// `MSG_NOSIGNAL` does for plaintext.
enum SignalGuard {
  /// Runs `body` with SIGPIPE blocked on this thread. `failed` says, from its result, whether
  /// it may have written to a closed connection; only then is the pending set looked at (a
  /// signal that was already pending before is left alone).
  static func withoutSIGPIPE<Result>(
    _ body: () -> Result, failed: (Result) -> Bool = { _ in true }
  ) -> Result {
    #if os(Linux)
      var blocked = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGPIPE)
      var previous = sigset_t()
      pthread_sigmask(SIG_BLOCK, &blocked, &previous)
      defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
      let result = body()
      // A SIGPIPE raised by `body` stays pending while blocked; take it so it is not
      // delivered when the mask is restored. (A thread that blocked SIGPIPE itself keeps
      // whatever is pending: it is never delivered there.)
      if failed(result), sigismember(&previous, SIGPIPE) == 0 {
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
          var immediately = timespec(tv_sec: 0, tv_nsec: 0)
          _ = sigtimedwait(&blocked, nil, &immediately)
        }
      }
      return result
    #else
      return body()
    #endif
  }
}
