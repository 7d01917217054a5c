import Dispatch
import Foundation
import SocialLogin

/// One replica's hold on a session's refresh lease in Redis.
///
/// Its ``LeaseHold`` extends the lease every third of its time to live, with a script that
/// extends it only for this owner token, sent by the store's ``LeaseRenewer`` off Swift's
/// cooperative pool (a busy pool must not make a held lease lapse). ``isHeld()`` is judged
/// locally and conservatively: the lease counts as held until the time to live measured from
/// the moment the last successful `SET`/renewal was *sent*, so a replica that stalled (and so
/// stopped renewing) knows on waking that it may have lost it, without a round trip.
final class RedisRefreshLease: RefreshLease {
  private let hold: LeaseHold
  private var store: RedisSessionStore { hold.store }
  private var key: String { hold.key }
  private var tag: String { hold.tag }
  private var token: String { hold.token }
  /// The intent the lease script found unsettled when it took the lease.
  private let interrupted: SpendIntent?

  /// The lease that `hold`'s `SET` (or lease script) took; `interrupted` is the intent
  /// another store's holder left (``RedisSessionStore/interruptedIntent(_:)``).
  init(hold: LeaseHold, interrupted: SpendIntent?) {
    self.hold = hold
    self.interrupted = interrupted
    hold.adopt()
  }

  deinit {
    // Dropped without release: give the lease back rather than make others wait it out.
    if hold.end() {
      let store = self.store
      let arguments = releaseArguments
      let keys = [key, hold.claimKey, hold.intentKey]
      Task {
        _ = try? await store.evaluate(RedisScripts.releaseLease, keys: keys, arguments: arguments)
      }
    }
  }

  private var releaseArguments: [[UInt8]] {
    [
      Array(token.utf8), Array(store.keys.hintChannel.utf8),
      RedisStoreMessage.released(tag: tag).payload,
      Array(hold.claim.utf8),
    ]
  }

  func isHeld() async -> Bool { hold.isHeld }

  func interruptedIntent() async -> SpendIntent? { interrupted }

  /// Records the claim and the intent in one script that checks the lease is still this
  /// owner's (``RedisScripts/recordIntent``): a holder whose lease lapsed does not spend.
  func recordIntent(toSpend refreshTokenDigest: String) async throws {
    let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    let intent = "\(hold.claim)|\(refreshTokenDigest)|\(milliseconds)"
    let reply: RESPValue
    do {
      reply = try await store.evaluate(
        RedisScripts.recordIntent, keys: [key, hold.claimKey, hold.intentKey],
        arguments: [
          Array(token.utf8), Array(hold.claim.utf8), Array(hold.claimMilliseconds.utf8),
          Array(intent.utf8), Array(RedisSessionStore.intentMilliseconds.utf8),
        ])
    } catch {
      throw RedisSessionStore.storeError(error, "recording the intent to refresh")
    }
    guard reply.integer == 1 else {
      throw AuthError(
        .storageFailed,
        "The refresh lease lapsed before the refresh was sent; nothing was spent.")
    }
  }

  func release() async {
    guard hold.end() else { return }
    _ = try? await store.evaluate(
      RedisScripts.releaseLease, keys: [key, hold.claimKey, hold.intentKey],
      arguments: releaseArguments)
  }
}

/// A turn's claim on a lease and its renewals, from before the `SET NX` is sent.
///
/// The renewals start *before* the attempt to take the lease, not once its reply has been
/// processed: that reply resumes a task, and on a busy cooperative pool seconds can pass before
/// it runs — long enough for an unrenewed lease to lapse under its new owner. Until the lease is
/// known to be taken (``adopt()``), a renewal that finds another owner means only "not taken
/// (yet)"; the renewal script never extends a lease this token does not hold. A turn that does
/// not take the lease ends the hold, which stops its timer.
final class LeaseHold: Sendable {
  let store: RedisSessionStore
  let key: String
  let tag: String
  let token: String
  /// The spend claim's time to live for this session's provider, in milliseconds.
  let claimMilliseconds: String
  private let state: Locked<State>
  private let timer: RenewalTimer

  private struct State {
    var validUntil: ContinuousClock.Instant
    var adopted = false
    var lost = false
    /// Released, dropped, or the turn did not take the lease: no more renewals.
    var ended = false
  }

  /// Starts renewing `key` for `token` every third of the lease's time to live; `started` is
  /// when the attempt to take it is about to be sent.
  init(
    store: RedisSessionStore, key: String, tag: String, token: String,
    claimMilliseconds: String, started: ContinuousClock.Instant
  ) {
    self.store = store
    self.key = key
    self.tag = tag
    self.token = token
    self.claimMilliseconds = claimMilliseconds
    let ttl = store.options.leaseTimeToLive
    state = Locked(State(validUntil: started + ttl))
    timer = RenewalTimer(queue: store.renewer.queue)
    // Only a weak reference: a hold dropped unended (its lease dropped) stops renewing.
    timer.start(every: ttl / 3) { [weak self] in self?.renewOnce() ?? false }
  }

  deinit {
    timer.cancel()
  }

  /// The lease was taken: from now on a renewal that finds another owner means it was lost.
  func adopt() {
    state.withLock { $0.adopted = true }
  }

  /// The session's spend-claim key, and this hold's claim in it (``RedisScripts/acquireLease``).
  var claimKey: String { store.keys.spendClaim(tag: tag) }
  /// The session's spend-intent key (``RedisScripts/recordIntent``).
  var intentKey: String { store.keys.spendIntent(tag: tag) }
  var claim: String { store.claimPrefix + token }

  /// Whether a lease took this hold over.
  var isAdopted: Bool { state.withLock { $0.adopted } }

  /// Whether the lease counts as held (see ``RedisRefreshLease``).
  var isHeld: Bool {
    state.withLock {
      $0.adopted && !$0.lost && !$0.ended && ContinuousClock.now < $0.validUntil
    }
  }

  /// Stops the renewals. Returns whether this call ended an adopted lease (whose owner should
  /// then release it in Redis); later calls return `false`.
  @discardableResult
  func end() -> Bool {
    let first = state.withLock { state -> Bool in
      defer { state.ended = true }
      return state.adopted && !state.ended
    }
    timer.cancel()
    return first
  }

  /// Renews once, on the renewer's queue; returns whether to keep renewing.
  private func renewOnce() -> Bool {
    if store.renewalsPaused.withLock({ $0 }) { return true }
    if state.withLock({ $0.ended || $0.lost }) { return false }
    let ttl = store.options.leaseTimeToLive
    let claimed = (key: claimKey, value: claim, milliseconds: claimMilliseconds)
    switch store.renewer.renew(key: key, token: token, ttl: ttl, claim: claimed) {
    case .renewed(let sent):
      state.withLock { $0.validUntil = max($0.validUntil, sent + ttl) }
      return true
    case .lost:
      // Before the lease is known to be taken, another owner (or none) means "not yet".
      return state.withLock { state -> Bool in
        guard state.adopted else { return true }
        state.lost = true
        return false
      }
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

  init(queue: DispatchQueue) {
    source = DispatchSource.makeTimerSource(queue: queue)
  }

  /// Calls `tick` every `interval` (on the queue) until it returns `false` or ``cancel()``.
  func start(every interval: Duration, _ tick: @escaping @Sendable () -> Bool) {
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
