import Foundation

/// Exponential backoff with jitter for retrying transient failures.
public struct BackoffPolicy: Sendable {
  /// The first delay.
  public var baseDelay: Duration
  /// The largest delay.
  public var maximumDelay: Duration
  /// A source of randomness in a range (injectable for tests).
  public var random: @Sendable (ClosedRange<Double>) -> Double

  /// Creates a policy.
  public init(
    baseDelay: Duration = .seconds(1),
    maximumDelay: Duration = .seconds(300),
    random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
  ) {
    self.baseDelay = baseDelay
    self.maximumDelay = maximumDelay
    self.random = random
  }

  /// The delay before retry number `attempt` (1-based).
  public func delay(attempt: Int) -> Duration {
    let base = Double(baseDelay.components.seconds)
    let cap = Double(maximumDelay.components.seconds)
    let ceiling = min(cap, base * pow(2, Double(max(0, attempt - 1))))
    return .seconds(random((ceiling / 2)...ceiling))
  }

  /// When to retry after failure number `attempt`, never before the server's `retryAfter`.
  public func retryDate(attempt: Int, now: Date, retryAfter: Date?) -> Date {
    let seconds = delay(attempt: attempt).components
    let own = now.addingTimeInterval(TimeInterval(seconds.seconds))
    guard let retryAfter else { return own }
    return max(own, min(retryAfter, now.addingTimeInterval(Double(maximumDelay.components.seconds))))
  }
}
