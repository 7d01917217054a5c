/// What every session of one client shares: where it persists, how it tells time, how it
/// refreshes and where it logs.
@usableFromInline
final class SessionEnvironment: Sendable {
  let store: any SessionStore
  @usableFromInline let clock: any AuthClock
  let policy: RefreshPolicy
  let logger: AuthLogger
  let onStateChange: (@Sendable (SessionKey, AuthState) -> Void)?
  /// Where ``AuthEvent``s go; `nil` records and measures nothing.
  let observer: (any AuthObserver)?
  /// Wakes the sessions for their automatic refreshes: one sleeping task for all of them.
  let scheduler: RefreshScheduler
  /// The policy's leeway in seconds, computed once for the hot path.
  let leewaySeconds: Double
  /// The policy's leeway.
  @usableFromInline let leeway: Duration
  /// Whether `clock` is the system clock, whose coarse reading can be called directly rather
  /// than through the existential.
  @usableFromInline let usesSystemClock: Bool

  init(
    store: any SessionStore,
    clock: any AuthClock,
    policy: RefreshPolicy,
    logger: AuthLogger,
    onStateChange: (@Sendable (SessionKey, AuthState) -> Void)?,
    observer: (any AuthObserver)? = nil
  ) {
    // With an observer, the store reports its failures; without one it is used as given.
    self.store = observer.map { ObservedSessionStore(base: store, observer: $0) } ?? store
    self.clock = clock
    self.policy = policy
    self.logger = logger
    self.onStateChange = onStateChange
    self.observer = observer
    scheduler = RefreshScheduler(
      clock: clock, maxConcurrent: policy.maxConcurrentAutomaticRefreshes)
    leewaySeconds = policy.leeway.timeInterval
    leeway = policy.leeway
    usesSystemClock = clock is SystemAuthClock
  }

  /// The clock's coarse wall time in seconds since 1970.
  @inlinable
  func coarseNow() -> Double {
    usesSystemClock ? SystemAuthClock.coarseNow() : clock.coarseWallTime
  }
}
