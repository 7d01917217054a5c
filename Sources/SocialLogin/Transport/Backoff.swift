import Foundation

/// Exponential backoff with jitter for retrying transient failures, honouring `Retry-After`.
///
/// The delay before retry number `attempt` (zero-based) is
/// `min(maximumDelay, baseDelay × multiplier^attempt)`, then jittered:
/// - ``Jitter/full``: a random value in `0...delay` (the default; spreads a herd the most),
/// - ``Jitter/equal``: `delay/2` plus a random value in `0...delay/2` (never retries instantly),
/// - ``Jitter/none``: exactly `delay`.
///
/// ```swift
/// let policy = BackoffPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(60))
/// let retryAt = policy.retryDate(
///   attempt: failures, now: clock.wallTime, retryAfter: response.retryAfter(now: clock.wallTime))
/// state = .degraded(retryAt: retryAt)
/// ```
///
/// Tests pass a fixed random source to make delays exact:
///
/// ```swift
/// let policy = BackoffPolicy(jitter: .full, random: { $0.upperBound })
/// ```
public struct BackoffPolicy: Sendable {
  /// How the computed delay is randomized.
  public enum Jitter: Hashable, Sendable {
    /// No randomness: always the computed delay.
    case none
    /// A random delay in `0...delay`.
    case full
    /// `delay/2` plus a random delay in `0...delay/2`.
    case equal
  }

  /// The delay before the first retry, before jitter.
  public var baseDelay: Duration
  /// How much the delay grows with each attempt. Default 2.
  public var multiplier: Double
  /// The largest delay, before jitter.
  public var maximumDelay: Duration
  /// How the delay is randomized.
  public var jitter: Jitter
  /// The longest server-requested `Retry-After` that is honoured in full.
  ///
  /// A `Retry-After` further in the future than this is treated as absurd (a misconfigured
  /// server, a clock far off, or a hostile peer) and clamped to `now + retryAfterLimit`: the only
  /// case in which the policy retries earlier than the server asked. The default, one hour,
  /// is longer than the rate-limit windows of the supported providers (X: 15 minutes).
  public var retryAfterLimit: Duration
  /// Returns a random value in the given range; injectable for tests.
  public var random: @Sendable (ClosedRange<Double>) -> Double

  /// Creates a policy. The defaults retry after about 1, 2, 4, ... seconds, up to 5 minutes,
  /// with full jitter.
  public init(
    baseDelay: Duration = .seconds(1),
    multiplier: Double = 2,
    maximumDelay: Duration = .seconds(300),
    jitter: Jitter = .full,
    retryAfterLimit: Duration = .seconds(3600),
    random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
  ) {
    self.baseDelay = baseDelay
    self.multiplier = multiplier
    self.maximumDelay = maximumDelay
    self.jitter = jitter
    self.retryAfterLimit = retryAfterLimit
    self.random = random
  }

  /// The delay before retry number `attempt` (0 for the first retry), jittered, never more
  /// than ``maximumDelay`` and never negative. A negative `attempt` counts as 0.
  public func delay(attempt: Int) -> Duration {
    let cap = max(0, Self.seconds(maximumDelay))
    let base = max(0, Self.seconds(baseDelay))
    let growth = Foundation.pow(max(multiplier, 1), Double(max(attempt, 0)))
    var ceiling = base * growth
    if !ceiling.isFinite || ceiling > cap { ceiling = cap }
    let seconds: Double
    switch jitter {
    case .none:
      seconds = ceiling
    case .full:
      seconds = Self.clamp(random(0...ceiling), to: 0...ceiling)
    case .equal:
      let half = ceiling / 2
      seconds = half + Self.clamp(random(0...half), to: 0...half)
    }
    return .seconds(seconds)
  }

  /// When to make retry number `attempt`: `now` plus ``delay(attempt:)``, but never earlier than
  /// the server's `retryAfter` (from ``TransportResponse/retryAfter(now:)``).
  ///
  /// A `retryAfter` in the past is ignored; one more than ``retryAfterLimit`` after `now` is
  /// clamped to `now + retryAfterLimit`.
  public func retryDate(attempt: Int, now: Date, retryAfter: Date?) -> Date {
    let backoff = now.addingTimeInterval(Self.seconds(delay(attempt: attempt)))
    guard let retryAfter else { return backoff }
    let limit = now.addingTimeInterval(max(0, Self.seconds(retryAfterLimit)))
    return max(backoff, min(retryAfter, limit))
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  private static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
    guard value.isFinite else { return range.upperBound }
    return min(max(value, range.lowerBound), range.upperBound)
  }
}
