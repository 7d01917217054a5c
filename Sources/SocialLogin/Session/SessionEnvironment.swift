import Foundation
import Synchronization

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
  /// The tasks running the sessions' refreshes (``SessionActor/finishRefreshes()``).
  let runningFlights = RunningFlights()
  /// The policy's leeway in seconds, computed once for the hot path.
  let leewaySeconds: Double
  /// The policy's leeway.
  @usableFromInline let leeway: Duration
  /// Whether `clock` is the system clock, whose coarse reading can be called directly rather
  /// than through the existential.
  @usableFromInline let usesSystemClock: Bool
  /// The providers whose too-short token lifetime was logged already: the warning comes once
  /// per provider for each client, not once per session or per refresh.
  private let shortLifetimesLogged = Mutex<Set<ProviderID>>([])

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

  /// Logs a warning, the first time for `provider`, when `credential` was granted for no
  /// longer than the policy's leeway: such a token is expired on arrival, so every caller's
  /// request refreshes it (5-second tokens made 11 refreshes for 150 callers in issue 33).
  /// The record names the provider, the lifetime and the leeway, never a token.
  func noteGrantedLifetime(of credential: Credential, provider: ProviderID) {
    let lifetime = credential.lifetime
    guard lifetime.isFinite, lifetime <= leewaySeconds, logger.isEnabled(.warning),
      shortLifetimesLogged.withLock({ $0.insert(provider).inserted })
    else { return }
    let shown = lifetime == lifetime.rounded() ? String(Int(lifetime)) : String(lifetime)
    let leewayShown =
      leewaySeconds == leewaySeconds.rounded()
      ? String(Int(leewaySeconds)) : String(leewaySeconds)
    logger.log(
      .warning,
      "\(provider) granted an access token for \(shown) s, no longer than the refresh leeway "
        + "of \(leewayShown) s (RefreshPolicy.leeway): it is expired on arrival and nearly every "
        + "token request refreshes it. Lower the leeway below the lifetime, or have the "
        + "provider grant longer-lived tokens. Logged once per provider.",
      metadata: [
        "provider": provider.rawValue, "lifetime_seconds": shown, "leeway_seconds": leewayShown,
      ])
  }

  /// The clock's coarse wall time in seconds since 1970.
  @inlinable
  func coarseNow() -> Double {
    usesSystemClock ? SystemAuthClock.coarseNow() : clock.coarseWallTime
  }
}
