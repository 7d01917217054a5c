import Foundation

/// A value guarded by a POSIX mutex, for the small critical sections of the package's targets
/// (sessions' state streams, stores, transports, user agents, test doubles).
///
/// Not `Synchronization.Mutex`: on Linux the thread sanitizer cannot see `Mutex`'s PI futexes
/// and reports false data races under contention (toolchain notes §7), which would hide real
/// ones, in our runs and in users' runs of their own tests. (`Mutex` remains only on the
/// session's cached-token read, the hot path inlined into callers.)
///
/// `@unchecked Sendable` is sound because `value` is private and only read or written inside
/// ``withLock(_:)``, which holds the mutex for the whole access, and `Value` is itself `Sendable`,
/// so whatever escapes a critical section may cross threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  /// A plain `pthread_mutex_t` rather than `NSLock`, which on Linux allocates a mutex, a
  /// condition variable and a second mutex besides itself (~120 bytes more per lock; every
  /// session has one in its state stream). TSan intercepts `pthread_mutex_*` all the same.
  /// Heap-allocated so its address never moves.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Wraps `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // Default attributes: fails only for lack of memory, which allocation would have hit first.
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. `body` must not suspend or re-enter.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
