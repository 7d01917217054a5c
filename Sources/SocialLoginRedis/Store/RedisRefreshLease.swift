import SocialLogin

/// One replica's hold on a session's refresh lease in Redis.
///
/// A renewal task extends the lease every third of its time to live while it is held, with a
/// script that extends it only for this owner token. ``isHeld()`` is judged locally and
/// conservatively: the lease counts as held until the time to live measured from the moment the
/// last successful `SET`/renewal was *sent*, so a replica that stalled (and so stopped renewing)
/// knows on waking that it may have lost it, without a round trip.
final class RedisRefreshLease: RefreshLease {
  private let store: RedisSessionStore
  private let key: String
  private let tag: String
  private let token: String
  private let state: Locked<State>
  private let renewal: Locked<Task<Void, Never>?> = Locked(nil)

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
    let task = Task { [weak self] in
      while !Task.isCancelled {
        do {
          try await Task.sleep(for: ttl / 3)
        } catch {
          return
        }
        // Only a strong reference for one renewal: a lease dropped unreleased stops renewing.
        guard let lease = self, await lease.renewOnce() else { return }
      }
    }
    renewal.withLock { $0 = task }
  }

  deinit {
    renewal.withLock { $0?.cancel() }
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
    renewal.withLock { $0?.cancel() }
    _ = try? await store.evaluate(
      RedisScripts.releaseLease, keys: [key], arguments: releaseArguments)
  }

  /// Renews once; returns whether to keep renewing.
  private func renewOnce() async -> Bool {
    if store.renewalsPaused.withLock({ $0 }) { return true }
    if state.withLock({ $0.released || $0.lost }) { return false }
    let ttl = store.options.leaseTimeToLive
    let milliseconds = String(RedisSessionStore.milliseconds(ttl))
    let sent = ContinuousClock.now
    do {
      let reply = try await store.evaluate(
        RedisScripts.renewLease, keys: [key],
        arguments: [Array(token.utf8), Array(milliseconds.utf8)])
      guard reply.integer == 1 else {
        state.withLock { $0.lost = true }
        return false
      }
      state.withLock { $0.validUntil = max($0.validUntil, sent + ttl) }
    } catch {
      // Redis unreachable: keep trying; the lease counts as held only until validUntil.
    }
    return true
  }
}
