import Dispatch
import SocialLogin

/// Wakes the tasks of this process that wait for a session's refresh lease, when the release
/// message for its tag arrives, or when their poll interval ends, or when they are cancelled.
final class LeaseSignals: Sendable {
  private let waiters = Locked([String: [ObjectIdentifier: LeaseWaiter]]())

  /// Registers interest in `tag` before trying the lease, so a release between the try and
  /// the wait is not missed.
  func register(_ tag: String) -> LeaseWaiter {
    let waiter = LeaseWaiter(tag: tag)
    waiters.withLock { $0[tag, default: [:]][ObjectIdentifier(waiter)] = waiter }
    return waiter
  }

  func unregister(_ waiter: LeaseWaiter) {
    waiters.withLock { all in
      all[waiter.tag]?.removeValue(forKey: ObjectIdentifier(waiter))
      if all[waiter.tag]?.isEmpty == true { all.removeValue(forKey: waiter.tag) }
    }
  }

  /// A hint for `tag` arrived (see ``RedisStoreMessage``): wakes its waiters, which then ask
  /// Redis — a hint is never adopted as it is.
  func fire(_ tag: String) {
    let woken = waiters.withLock { $0[tag].map { Array($0.values) } ?? [] }
    for waiter in woken { waiter.fire() }
  }
}

/// One wait for one lease: fires once, from a message, its timeout or cancellation.
final class LeaseWaiter: Sendable {
  let tag: String
  private let state = Locked(State())

  private struct State {
    var fired = false
    var continuation: CheckedContinuation<Void, Never>?
  }

  init(tag: String) {
    self.tag = tag
  }

  func fire() {
    let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.fired = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume()
  }

  /// Returns when fired, after `timeout`, or when the task is cancelled.
  func wait(timeout: Duration) async {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let already = state.withLock { state -> Bool in
          if state.fired { return true }
          state.continuation = continuation
          return false
        }
        if already {
          continuation.resume()
          return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
          [self] in fire()
        }
      }
    } onCancel: {
      fire()
    }
  }
}
