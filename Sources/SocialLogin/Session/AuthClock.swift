import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A clock that can both sleep and tell wall-clock time, so that expiry, backoff and
/// proactive refresh can be driven by one injected source of time.
///
/// The SDK uses ``SystemAuthClock`` by default; tests inject `ManualClock` from
/// `SocialLoginTesting` and advance it by hand.
public protocol AuthClock: Clock, Sendable where Duration == Swift.Duration {
  /// The current wall-clock time.
  var wallTime: Date { get }

  /// The current wall-clock time in seconds since 1970, read as cheaply as the platform allows
  /// (it may be a few milliseconds coarse). The cached-token path reads only this.
  var coarseWallTime: Double { get }
}

extension AuthClock {
  /// `wallTime.timeIntervalSince1970`.
  public var coarseWallTime: Double { wallTime.timeIntervalSince1970 }
}

/// The real clock: `ContinuousClock` for sleeping and `Date()` for wall time.
public struct SystemAuthClock: AuthClock {
  /// Creates the system clock.
  public init() {}

  /// `ContinuousClock.now`.
  public var now: ContinuousClock.Instant { ContinuousClock.now }
  /// `ContinuousClock`'s resolution.
  public var minimumResolution: Duration { ContinuousClock().minimumResolution }
  /// `Date()`.
  public var wallTime: Date { Date() }

  /// `CLOCK_REALTIME_COARSE` on Linux (a vDSO memory read, about 4 ms resolution, far finer
  /// than any token leeway); `Date()` elsewhere.
  public var coarseWallTime: Double { SystemAuthClock.coarseNow() }

  /// The coarse system wall time in seconds since 1970; see ``coarseWallTime``.
  @inlinable
  public static func coarseNow() -> Double {
    #if os(Linux)
      var now = timespec()
      clock_gettime(CLOCK_REALTIME_COARSE, &now)
      return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    #else
      return Date().timeIntervalSince1970
    #endif
  }

  /// Sleeps on `ContinuousClock`.
  public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }
}

extension AuthClock {
  /// Sleeps for `seconds` of this clock's time.
  func sleep(seconds: TimeInterval) async throws {
    try await sleep(until: now.advanced(by: .seconds(seconds)), tolerance: nil)
  }
}

extension AuthClock {
  /// Starts a task that sleeps until `delay` after now — the deadline is fixed by this call —
  /// and then runs `body`; cancelling the task before the deadline skips `body`.
  func startTimer(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> Task<
    Void, Never
  > {
    let deadline = now.advanced(by: delay)
    return Task {
      do {
        try await sleep(until: deadline, tolerance: nil)
      } catch {
        return
      }
      body()
    }
  }
}

extension AuthClock {
  /// A reading of the time elapsed since this call, on this clock: lets state that cannot name
  /// the clock's `Instant` type (a session holds `any AuthClock`) compare deadlines.
  func stopwatch() -> @Sendable () -> Duration {
    let start = now
    return { start.duration(to: self.now) }
  }
}
