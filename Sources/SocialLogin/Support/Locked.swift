import Foundation

/// A value guarded by an `NSLock`, for small critical sections shared across the package's
/// targets (stores, transports, test doubles).
///
/// `NSLock` rather than `Synchronization.Mutex`: on Linux the thread sanitizer cannot see
/// `Mutex`'s PI futexes and reports false data races under contention (toolchain notes §7),
/// which would hide real ones. (`Mutex` remains where a hot path needs it and no TSan run
/// covers it, such as the session's token cache.)
///
/// `@unchecked Sendable` is sound because `value` is private and only read or written inside
/// ``withLock(_:)``, which holds `lock` for the whole access, and `Value` is itself `Sendable`,
/// so whatever escapes a critical section may cross threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Wraps `value`.
  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value. `body` must not suspend or re-enter.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
