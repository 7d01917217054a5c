import Dispatch
import SocialLogin

/// One replica's hold on a session's refresh lease in Redis.
///
/// A Dispatch timer extends the lease every third of its time to live while it is held, with a
/// script that extends it only for this owner token, sent by the store's ``LeaseRenewer`` off
/// Swift's cooperative pool (a busy pool must not make a held lease lapse). ``isHeld()`` is judged locally and
/// conservatively: the lease counts as held until the time to live measured from the moment the
/// last successful `SET`/renewal was *sent*, so a replica that stalled (and so stopped renewing)
/// knows on waking that it may have lost it, without a round trip.
final class RedisRefreshLease: RefreshLease {
  private let store: RedisSessionStore
  private let key: String
  private let tag: String
  private let token: String
  private let state: Locked<State>
  private let renewal: RenewalTimer

  private struct State {
    var validUntil: ContinuousClock.Instant
    var released = false
    var lost = false
  }

  init(
    store: RedisSessionStore, key: String, tag: String, token: String,
    acquiredAt: ContinuousClock.Instant
  ) {
    self.store = store
    self.key = key
    self.tag = tag
    self.token = token
    state = Locked(State(validUntil: acquiredAt + store.options.leaseTimeToLive))
    let ttl = store.options.leaseTimeToLive
    renewal = RenewalTimer(queue: store.renewer.queue, every: ttl / 3)
    // Only a weak reference: a lease dropped unreleased stops renewing.
    renewal.start { [weak self] in self?.renewOnce() ?? false }
  }

  deinit {
    renewal.cancel()
    // Dropped without release: give the lease back rather than make others wait it out.
    if !state.withLock({ $0.released }) {
      let store = self.store
      let arguments = releaseArguments
      let keys = [key]
      Task {
        _ = try? await store.evaluate(RedisScripts.releaseLease, keys: keys, arguments: arguments)
      }
    }
  }

  private var releaseArguments: [[UInt8]] {
    [Array(token.utf8), Array(store.keys.leaseChannel.utf8), Array(tag.utf8)]
  }

  func isHeld() async -> Bool {
    state.withLock { !$0.released && !$0.lost && ContinuousClock.now < $0.validUntil }
  }

  func release() async {
    let first = state.withLock { state -> Bool in
      defer { state.released = true }
      return !state.released
    }
    guard first else { return }
    renewal.cancel()
    _ = try? await store.evaluate(
      RedisScripts.releaseLease, keys: [key], arguments: releaseArguments)
  }

  /// Renews once, on the renewer's queue; returns whether to keep renewing.
  private func renewOnce() -> Bool {
    if store.renewalsPaused.withLock({ $0 }) { return true }
    if state.withLock({ $0.released || $0.lost }) { return false }
    let ttl = store.options.leaseTimeToLive
    switch store.renewer.renew(key: key, token: token, ttl: ttl) {
    case .renewed(let sent):
      state.withLock { $0.validUntil = max($0.validUntil, sent + ttl) }
      return true
    case .lost:
      state.withLock { $0.lost = true }
      return false
    case .unreachable:
      // Keep trying; the lease counts as held only until validUntil.
      return true
    }
  }
}

/// A repeating Dispatch timer on a serial queue whose handler says whether to go on.
final class RenewalTimer: @unchecked Sendable {
  // @unchecked: `source` is created in `init` and only started and cancelled afterwards,
  // which Dispatch allows from any thread.
  private let source: any DispatchSourceTimer
  private let interval: Duration

  init(queue: DispatchQueue, every interval: Duration) {
    source = DispatchSource.makeTimerSource(queue: queue)
    self.interval = interval
  }

  /// Calls `tick` every interval (on the queue) until it returns `false` or ``cancel()``.
  func start(_ tick: @escaping @Sendable () -> Bool) {
    let nanoseconds = Int(RedisSessionStore.milliseconds(interval)) * 1_000_000
    let source = self.source
    source.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
      leeway: .milliseconds(10))
    source.setEventHandler { if !tick() { source.cancel() } }
    source.resume()
  }

  func cancel() { source.cancel() }
}
