import Foundation

/// A clock that can both sleep and tell wall-clock time, so that expiry, backoff and
/// proactive refresh can be driven by one injected source of time.
///
/// The SDK uses ``SystemAuthClock`` by default; tests inject `ManualClock` from
/// `SocialLoginTesting` and advance it by hand.
public protocol AuthClock: Clock, Sendable where Duration == Swift.Duration {
  /// The current wall-clock time.
  var wallTime: Date { get }
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
