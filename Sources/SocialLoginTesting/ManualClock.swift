import Foundation
import SocialLogin

/// A clock whose time moves only when a test advances it.
///
/// `ManualClock` is a real `Clock`: code under test can `sleep` on it, and those sleeps end
/// when the test calls ``advance(by:)``. Its ``wallTime`` moves with it, so token expiry,
/// backoff and proactive refresh are all driven by one hand.
///
/// ```swift
/// let clock = ManualClock()
/// let session = SessionActor(..., clock: clock)
/// try await clock.waitForSleepers(count: 1)   // the session scheduled a refresh
/// clock.advance(by: .seconds(3600))       // ...which now runs
/// ```
public final class ManualClock: AuthClock {
  /// A point on a manual clock: the time since the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock's origin.
    public var offset: Duration

    /// Creates an instant `offset` after the origin.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The duration from `self` to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Orders instants by offset.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [UInt64: Sleeper] = [:]
    var nextID: UInt64 = 0
  }

  // NSLock, not `Mutex`: ThreadSanitizer cannot see Linux's `Mutex` (PI futexes) and reports
  // false races under contention, and this clock runs inside users' TSan test runs.
  private let state = Locked(State())
  private let origin: Date

  /// Creates a clock whose wall time starts at `wallTime` (default: 2023-11-14T22:13:20Z).
  public init(wallTime: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
    origin = wallTime
  }

  /// The current instant.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: a manual clock is exact.
  public var minimumResolution: Duration { .zero }

  /// The wall-clock time: the start time plus everything advanced so far.
  public var wallTime: Date {
    let offset = now.offset.components
    return origin.addingTimeInterval(
      TimeInterval(offset.seconds) + TimeInterval(offset.attoseconds) / 1e18)
  }

  /// The number of tasks sleeping on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the
  /// sleeping task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        // Checked under the lock: when the task was cancelled before this point, `onCancel`
        // already ran and found no sleeper, so registering one now would never resume.
        let resumeNow = state.withLock { state -> Bool in
          if deadline <= state.now || Task.isCancelled { return true }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    try Task.checkCancellation()
  }

  /// Moves time forward by `duration` and wakes every sleeper whose deadline has come, in
  /// deadline order.
  public func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let ready = state.sleepers.filter { $0.value.deadline <= now }
      for id in ready.keys { state.sleepers.removeValue(forKey: id) }
      return ready.values.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits, by yielding, until at least `count` tasks sleep on this clock.
  ///
  /// Use it before ``advance(by:)`` so that the code under test has reached its sleep.
  ///
  /// - Parameters:
  ///   - count: How many tasks must be asleep on this clock.
  ///   - timeout: Real (not manual) time to wait before giving up.
  /// - Throws: ``WaitTimeout`` when fewer than `count` tasks sleep in time, so a test whose
  ///   code never sleeps fails instead of hanging.
  public func waitForSleepers(count: Int, timeout: Duration = WaitTimeout.defaultTimeout)
    async throws
  {
    try await WaitTimeout.yield(
      until: { sleeperCount >= count }, timeout: timeout,
      "\(count) sleepers on the manual clock (\(sleeperCount) sleeping)")
  }
}
