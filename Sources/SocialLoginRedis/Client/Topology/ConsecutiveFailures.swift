import SocialLogin

/// How many attempts to reach a server failed in a row: the one count every retry of the
/// client backs off with (a connection of the pool, a sentinel discovery, a subscription, a
/// `+switch-master` watch).
///
/// ## Why one type
/// The pool and the connector each kept a counter of their own (and the reconnect loop a
/// third), so a failing master was backed off twice, from two counts that disagreed. The
/// count lives in ``SentinelStateMachine`` for the connections of a client (shared by the pool
/// and the connector, under the connector's lock), and in ``RedisReconnectLoop`` for a
/// long-lived link; the decisions that use it are theirs.
struct ConsecutiveFailures: Sendable, Equatable {
  /// Failures are counted up to this many: the policy's delay is capped long before, and the
  /// count must not grow without bound on a server that never comes back.
  static let maximum = 30

  /// The failures in a row so far.
  private(set) var count = 0

  /// An attempt succeeded: the backoff starts over.
  mutating func reset() {
    count = 0
  }

  /// Counts a failure; returns how long to wait before the next attempt (`backoff`'s delay
  /// for the failures before this one: the first failure waits the base delay).
  mutating func record(_ backoff: BackoffPolicy) -> Duration {
    let delay = backoff.delay(attempt: count)
    count = min(count + 1, Self.maximum)
    return delay
  }

  /// How long a new attempt must wait after the failures so far, `nil` when there were none:
  /// a caller that arrives while the server is failing for others backs off too.
  func delayBeforeAttempt(_ backoff: BackoffPolicy) -> Duration? {
    count > 0 ? backoff.delay(attempt: count - 1) : nil
  }
}
