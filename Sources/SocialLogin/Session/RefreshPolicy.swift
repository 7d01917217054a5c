import Foundation

/// How a session decides that its token needs refreshing, and how it retries.
///
/// ```swift
/// let policy = RefreshPolicy(leeway: .seconds(60), proactiveMargin: .seconds(300))
/// ```
///
/// Two rules decide when a token is refreshed:
///
/// - **On demand**: a caller asking for a token gets a refresh when the token has less than
///   ``leeway`` left (or less than the caller's own minimum TTL). A provider that grants
///   tokens lasting no longer than the leeway therefore causes a refresh on almost every
///   request; the session logs a warning, once per provider for each client, when it is
///   handed such a token.
/// - **Proactively** (sessions with automatic refresh, which ``LoginClient`` starts for every
///   session): at `max(expiry − max(proactiveMargin, leeway), issued + lifetime ×
///   earliestProactiveRefreshFraction)`. With the defaults that is 2 minutes before expiry,
///   but never before halfway through the token's life: a 1-hour token is refreshed after
///   58 minutes, a 150-second token after 75 seconds, and a provider granting tokens shorter
///   than the margin is not asked for a new one in a loop. A provider's minimum interval
///   between refreshes comes on top (Apple: once a day).
public struct RefreshPolicy: Sendable {
  /// A token is treated as expired this long before its expiry, to absorb clock skew and
  /// request latency. A token granted for no longer than this is expired on arrival.
  public var leeway: Duration
  /// When set, the session refreshes on its own this long before expiry (for providers that
  /// can refresh), but not before ``earliestProactiveRefreshFraction`` of the token's life.
  /// `nil` turns proactive refresh off.
  public var proactiveMargin: Duration?
  /// How much of a token's lifetime must pass before a proactive refresh, from 0 to 1
  /// (default 0.5: halfway). The floor keeps short-lived tokens from being refreshed again
  /// as soon as they arrive; raise it to refresh later (fewer refreshes), lower it to refresh
  /// earlier (more slack before expiry). Values outside 0...1 are clamped to it; a value
  /// that is not a number is the default.
  public var earliestProactiveRefreshFraction: Double {
    get { fraction }
    set { fraction = Self.clamped(newValue) }
  }
  private var fraction = 0.5
  /// The backoff used after transient failures (`.degraded(retryAt:)`).
  public var backoff: BackoffPolicy
  /// How long callers wait for one refresh (store lease, provider request, store write)
  /// before they are told it timed out, whatever their own timeouts. `nil`: no limit.
  ///
  /// An overdue refresh is not cancelled — cancelling after the provider answered would lose
  /// a rotated refresh token — it finishes in the background and its tokens are kept. Until
  /// then the session is `.degraded(retryAt:)` and callers fail fast with
  /// ``AuthError/Code/timedOut`` (or get the current token while it is still valid).
  public var refreshDeadline: Duration?
  /// At most this many automatic refreshes (proactive ones and retries at `retryAt`) run at
  /// once for one client; the others wait their turn, earliest due first. Callers asking for
  /// a token are never held back by this. A service restarted after an outage, with
  /// thousands of expired sessions, then does not burst its provider into rate limiting.
  public var maxConcurrentAutomaticRefreshes: Int
  /// An absolute bound on a session's life, counted from the login that began it
  /// (``StoredSession/signedInAt``; refreshes do not extend it, a new login of the account
  /// restarts it). Past it the session signs out with
  /// ``SignOutReason/maximumLifetimeReached`` however fresh its tokens are: callers get
  /// ``AuthError/Code/signedOut``, and a session with automatic refresh signs out on its own
  /// at that time. `nil` (the default): no bound.
  ///
  /// ```swift
  /// var policy = RefreshPolicy()
  /// policy.maximumSessionLifetime = .seconds(12 * 3600)  // sign in again every 12 hours
  /// ```
  ///
  /// Records written before ``StoredSession/signedInAt`` existed count from when they were
  /// loaded.
  public var maximumSessionLifetime: Duration?

  /// Creates a policy. Defaults: 30 s leeway, proactive refresh 2 minutes before expiry (but
  /// not before halfway through the token's life: ``earliestProactiveRefreshFraction``),
  /// exponential backoff from 1 s to 5 minutes with jitter, a 60 s refresh deadline, at most
  /// 32 automatic refreshes at once, no maximum session lifetime.
  public init(
    leeway: Duration = .seconds(30),
    proactiveMargin: Duration? = .seconds(120),
    backoff: BackoffPolicy = BackoffPolicy(),
    refreshDeadline: Duration? = .seconds(60),
    maxConcurrentAutomaticRefreshes: Int = 32,
    maximumSessionLifetime: Duration? = nil
  ) {
    self.leeway = leeway
    self.proactiveMargin = proactiveMargin
    self.backoff = backoff
    self.refreshDeadline = refreshDeadline
    self.maxConcurrentAutomaticRefreshes = maxConcurrentAutomaticRefreshes
    self.maximumSessionLifetime = maximumSessionLifetime
  }

  /// `value` within 0...1; not a number is the default, 0.5.
  private static func clamped(_ value: Double) -> Double {
    value.isNaN ? 0.5 : min(1, max(0, value))
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  var timeInterval: TimeInterval {
    let parts = components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
  }
}
