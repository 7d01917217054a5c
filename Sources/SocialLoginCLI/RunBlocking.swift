import Dispatch
import Synchronization

/// Runs an async command from the synchronous `main` and returns its exit status.
///
/// `main` stays synchronous (a semaphore waits while a detached task works) so that the binary
/// also runs under valgrind, which cannot run async-main programs.
func runBlocking(_ command: @escaping @Sendable () async -> Int32) -> Int32 {
  let status = StatusBox()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    status.value.store(await command(), ordering: .relaxed)
    done.signal()
  }
  done.wait()
  return status.value.load(ordering: .relaxed)
}

private final class StatusBox: Sendable {
  let value = Atomic<Int32>(2)
}
