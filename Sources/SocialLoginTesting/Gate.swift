import SocialLogin

/// A one-shot barrier for concurrency tests: tasks ``wait()`` until the test calls ``open()``.
///
/// ```swift
/// let gate = Gate()
/// await provider.enqueueRefresh { credential in
///   await gate.wait()          // hold the refresh in flight
///   return nextCredential
/// }
/// try await gate.waitForWaiters(count: 1)
/// gate.open()
/// ```
public final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  // NSLock, not `Mutex`: ThreadSanitizer reports false races on Linux's `Mutex`.
  private let state = Locked(State())

  /// Creates a closed gate.
  public init() {}

  /// The number of tasks waiting.
  public var waiterCount: Int { state.withLock { $0.waiters.count } }

  /// Suspends until the gate is open (returns at once when it already is).
  public func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Opens the gate for good and releases every waiter.
  public func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits, by yielding, until at least `count` tasks wait at the gate.
  ///
  /// - Parameters:
  ///   - count: How many tasks must be waiting at the gate.
  ///   - timeout: Real time to wait before giving up.
  /// - Throws: ``WaitTimeout`` when fewer than `count` tasks arrived in time, so a test whose
  ///   code never reaches the gate fails instead of hanging.
  public func waitForWaiters(count: Int, timeout: Duration = WaitTimeout.defaultTimeout)
    async throws
  {
    try await WaitTimeout.yield(
      until: { waiterCount >= count }, timeout: timeout,
      "\(count) waiters at the gate (\(waiterCount) arrived)")
  }
}
