import Foundation

/// An async, per-key, first-come-first-served exclusive lock that never blocks a thread.
///
/// Waiters suspend on continuations; `unlock(_:)` hands the lock directly to the oldest
/// waiter. A waiter whose task is cancelled leaves the queue and throws `CancellationError`.
///
/// ```swift
/// let locks = AsyncKeyedLock<SessionKey>()
/// try await locks.lock(key)
/// defer { locks.unlock(key) }
/// ```
final class AsyncKeyedLock<Key: Hashable & Sendable>: Sendable {
  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Entry {
    /// Waiters in arrival order; the holder is not in this list.
    var waiters: [Waiter] = []
  }

  private struct State {
    /// A key is held exactly when it has an entry.
    var entries: [Key: Entry] = [:]
    var nextID: UInt64 = 0
  }

  private let state = Locked(State())

  init() {}

  /// Waits until `key` is free, then holds it until ``unlock(_:)``.
  ///
  /// Throws `CancellationError` (without holding the key) when the task is cancelled before
  /// or while waiting. A task whose cancellation races with the hand-over may still be
  /// granted the key; it then releases it and throws, so a throwing call never holds the key.
  func lock(_ key: Key) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = state.withLock { state in
          // `Task.isCancelled` is set before the cancellation handler runs, so checking it
          // under the lock closes the race with a handler that found nothing to remove.
          if Task.isCancelled { return .failure(CancellationError()) }
          if state.entries[key] == nil {
            state.entries[key] = Entry()
            return .success(())
          }
          state.entries[key]?.waiters.append(Waiter(id: id, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let removed = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard var entry = state.entries[key],
          let index = entry.waiters.firstIndex(where: { $0.id == id })
        else { return nil }
        let waiter = entry.waiters.remove(at: index)
        state.entries[key] = entry
        return waiter.continuation
      }
      removed?.resume(throwing: CancellationError())
    }
    if Task.isCancelled {
      unlock(key)
      throw CancellationError()
    }
  }

  /// Releases `key`, handing it to the oldest waiter if there is one.
  /// Only the holder may call this, once per successful ``lock(_:)``.
  func unlock(_ key: Key) {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard var entry = state.entries[key] else { return nil }
      if entry.waiters.isEmpty {
        state.entries[key] = nil
        return nil
      }
      let waiter = entry.waiters.removeFirst()
      state.entries[key] = entry
      return waiter.continuation
    }
    next?.resume()
  }

  /// Whether `key` is currently held (for tests and diagnostics).
  func isLocked(_ key: Key) -> Bool {
    state.withLock { $0.entries[key] != nil }
  }

  /// How many tasks are waiting for `key` (for tests and diagnostics).
  func waiterCount(_ key: Key) -> Int {
    state.withLock { $0.entries[key]?.waiters.count ?? 0 }
  }
}

/// A lease on one key of an ``AsyncKeyedLock``, released at most once.
///
/// Releasing twice is harmless, and a lease that is dropped without being released releases
/// itself, so a forgotten `release()` cannot wedge a session forever.
final class KeyedLockLease<Key: Hashable & Sendable>: RefreshLease {
  private let lock: AsyncKeyedLock<Key>
  private let key: Key
  private let released = Locked(false)

  init(lock: AsyncKeyedLock<Key>, key: Key) {
    self.lock = lock
    self.key = key
  }

  deinit { releaseNow() }

  func release() async { releaseNow() }

  /// Releases synchronously; later calls do nothing.
  func releaseNow() {
    let first = released.withLock { released -> Bool in
      defer { released = true }
      return !released
    }
    if first { lock.unlock(key) }
  }
}
