import Foundation

/// How a session decides that its token needs refreshing, and how it retries.
///
/// ```swift
/// let policy = RefreshPolicy(leeway: .seconds(60), proactiveMargin: .seconds(300))
/// ```
public struct RefreshPolicy: Sendable {
  /// A token is treated as expired this long before its expiry, to absorb clock skew and
  /// request latency.
  public var leeway: Duration
  /// When set, the session refreshes on its own this long before expiry (for providers that
  /// can refresh). `nil` turns proactive refresh off.
  public var proactiveMargin: Duration?
  /// The backoff used after transient failures (`.degraded(retryAt:)`).
  public var backoff: BackoffPolicy

  /// Creates a policy. Defaults: 30 s leeway, proactive refresh 2 minutes before expiry,
  /// exponential backoff from 1 s to 5 minutes with jitter.
  public init(
    leeway: Duration = .seconds(30),
    proactiveMargin: Duration? = .seconds(120),
    backoff: BackoffPolicy = BackoffPolicy()
  ) {
    self.leeway = leeway
    self.proactiveMargin = proactiveMargin
    self.backoff = backoff
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  var timeInterval: TimeInterval {
    let parts = components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
  }
}
