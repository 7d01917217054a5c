import SocialLogin

/// Following a master through Redis Sentinel as one value: which master connections go to,
/// when the sentinels must be asked again, and when the *generation* moves. The sentinel part
/// of the topology, next to ``RedisTopologyStateMachine`` (single node or cluster) and
/// ``ClusterMapStateMachine`` (a cluster's slot map).
///
/// Each method is an event (a connection is wanted, a sentinel named a master, `+switch-master`
/// arrived, a master failed us, `ROLE` answered, an attempt failed) and returns what the owner
/// (``RedisConnector``) must do; nothing here opens a socket, sleeps or takes a lock, so every
/// order of events — two connections rediscovering at once, a stale failure, an announcement
/// during a rediscovery — is tested without sentinels.
///
/// The rule the generation follows: it moves only when the master changes (an announcement or
/// a sentinel naming an address other than the one in use, or the one that failed). The
/// sentinels naming the same address again changes nothing, so a master refusing writes while
/// its replica resynchronises does not cut every subscription at each refusal.
struct SentinelStateMachine: Sendable {
  typealias Endpoint = RedisConfiguration.Endpoint

  /// Where the following is.
  enum State: Sendable, Equatable {
    /// No sentinel asked yet.
    case unknown
    /// Connections go to this master.
    case following(Endpoint)
    /// `previous` failed us (unreachable, `READONLY`, `NOREPLICAS`, not a master): the next
    /// connection asks the sentinels again, and the generation moves only if they name another.
    case rediscovering(previous: Endpoint)
  }

  /// What a caller that wants a connection must do.
  enum ConnectAction: Sendable, Equatable {
    /// Connect to this master and check `ROLE`; stamp the connection with `generation`.
    case connect(Endpoint, generation: UInt64)
    /// Ask the sentinels, in this order, for the master (then ``sentinelNamed(_:by:)``);
    /// `generation` is the one a failure is reported against.
    case discover(order: [Int], generation: UInt64)
  }

  /// What taking a master named by a sentinel changed.
  struct Adoption: Sendable, Equatable {
    /// The generation of the master now in use.
    let generation: UInt64
    /// Whether the master changed: the owner tells its listeners (which drop older
    /// connections).
    let moved: Bool
  }

  /// What the owner must do after a failed attempt to reach the master.
  enum FailureAction: Sendable, Equatable {
    /// Throw the error: asking again cannot cure it, the deadline would pass first, or the
    /// connector is closed.
    case giveUp
    /// Sleep this long, then ask for a connection again.
    case retry(after: Duration)
  }

  /// A replica count learnt from `ROLE`, with when and for which master.
  struct ReplicaCount: Sendable, Equatable {
    let count: Int
    let at: ContinuousClock.Instant
    let generation: UInt64
  }

  /// Errors that asking again cannot cure: thrown at once, with their own kind.
  static let permanentKinds: Set<RedisError.Kind> = [
    .authenticationFailed, .configuration, .topologyOutsidePattern, .tlsUnavailable,
    .tlsUntrustedCertificate, .tlsHostNameMismatch, .tlsCertificateExpired,
    .tlsClientCertificateRefused,
  ]

  /// How long a replica count is trusted before it is asked again.
  static let replicaCountLifetime = Duration.seconds(5)

  /// How many sentinels are configured (the discovery order covers them all).
  let sentinelCount: Int
  /// The current state; only the events below change it.
  private(set) var state: State = .unknown
  /// Stamped on every connection; moves only when the master changes.
  private(set) var generation: UInt64 = 1
  /// The sentinel that answered last: asked first next time.
  private(set) var preferredSentinel = 0
  /// How many times the master changed under a live client (tests and metrics).
  private(set) var switches = 0
  /// Whether the `+switch-master` watch was started.
  private(set) var watching = false
  /// Whether the connector was closed.
  private(set) var closed = false
  /// The last replica count learnt.
  private(set) var replicas: ReplicaCount?
  /// The sentinel the watch tries next; `nil` before its first attempt.
  private var watchNext: Int?
  /// Failed attempts in a row to reach the master (or, without sentinels, the server), by
  /// every caller of the connector: the pool's retries and the connector's own back off
  /// from this one count (``attemptFailed(_:generation:backoff:now:deadline:)``).
  private(set) var failures = ConsecutiveFailures()

  init(sentinelCount: Int) {
    self.sentinelCount = sentinelCount
  }

  /// The master in use, if known.
  var master: Endpoint? {
    if case .following(let master) = state { return master }
    return nil
  }

  /// The master a new announcement is compared with: the one in use, or the one that failed.
  private var known: Endpoint? {
    switch state {
    case .unknown: nil
    case .following(let master): master
    case .rediscovering(let previous): previous
    }
  }

  /// A connection is wanted: to the master in use, or ask the sentinels (the one that
  /// answered last first).
  func connectRequested() -> ConnectAction {
    if case .following(let master) = state { return .connect(master, generation: generation) }
    return .discover(
      order: SentinelReplies.order(count: sentinelCount, preferred: preferredSentinel),
      generation: generation)
  }

  /// Sentinel `index` named `master` (already checked against the allowed hosts): use it.
  mutating func sentinelNamed(_ master: Endpoint, by index: Int) -> Adoption {
    if (0..<sentinelCount).contains(index) { preferredSentinel = index }
    return adopt(master)
  }

  /// A `+switch-master` for our name announced `master` (already checked against the allowed
  /// hosts): use it from now on.
  mutating func switchAnnounced(_ master: Endpoint) -> Adoption {
    adopt(master)
  }

  /// The watch's sentinel answered `get-master-addr-by-name` with `master` on (re)subscribing,
  /// which catches up on a switch missed while no subscription was up. Taken only while a
  /// master is in use: before the first connection, or while rediscovering, the next
  /// connection asks the sentinels anyway (and checks `ROLE`), so `nil`.
  mutating func watchAnswered(_ master: Endpoint) -> Adoption? {
    guard case .following = state else { return nil }
    return adopt(master)
  }

  /// Takes `master`; the generation moves when it differs from the known one.
  private mutating func adopt(_ master: Endpoint) -> Adoption {
    let known = self.known
    state = .following(master)
    guard let known, known != master else { return Adoption(generation: generation, moved: false) }
    generation &+= 1
    switches += 1
    return Adoption(generation: generation, moved: true)
  }

  /// The master of `generation` failed us (unreachable, `READONLY`, `NOREPLICAS`, not a
  /// master): ask the sentinels again before the next connection. Nothing changes when the
  /// master changed since (a stale report) or none is in use.
  mutating func masterFailed(generation failed: UInt64) {
    guard failed == generation, case .following(let master) = state else { return }
    state = .rediscovering(previous: master)
  }

  /// The master of `generation` answered `ROLE` with `role` at `now`: `true` when it is a
  /// master (its replica count is kept), `false` when it is not (then it counts as failed).
  mutating func roleAnswered(
    _ role: SentinelReplies.Role, generation answered: UInt64, at now: ContinuousClock.Instant
  ) -> Bool {
    guard case .master(let count) = role else {
      masterFailed(generation: answered)
      return false
    }
    replicasNoted(count, generation: answered, at: now)
    return true
  }

  /// An attempt at `generation` failed with `kind` at `now`: it is counted (``failures``) and
  /// the master counts as failed. It is retried after `backoff`'s delay for the failures in a
  /// row unless the error is permanent, the connector is closed, or `deadline` would pass
  /// first.
  mutating func attemptFailed(
    _ kind: RedisError.Kind, generation failed: UInt64, backoff: BackoffPolicy,
    now: ContinuousClock.Instant, deadline: ContinuousClock.Instant
  ) -> FailureAction {
    masterFailed(generation: failed)
    let delay = failures.record(backoff)
    if Self.permanentKinds.contains(kind) || closed || now + delay >= deadline {
      return .giveUp
    }
    return .retry(after: delay)
  }

  /// An attempt reached the server (the master): the backoff starts over for every caller.
  mutating func connected() {
    failures.reset()
  }

  /// What a caller about to open a connection must do first, at `now`, given the failures in
  /// a row so far (by any caller): go ahead (`.retry(after: .zero)`), wait, or give up when
  /// the wait would reach `deadline` (the server is failing; this call does not add to it).
  func beforeAttempt(
    backoff: BackoffPolicy, now: ContinuousClock.Instant, deadline: ContinuousClock.Instant
  ) -> FailureAction {
    guard let delay = failures.delayBeforeAttempt(backoff) else { return .retry(after: .zero) }
    return now + delay >= deadline ? .giveUp : .retry(after: delay)
  }

  /// Whether a call that already made `attempt` attempts (each counted by
  /// ``attemptFailed(_:generation:backoff:now:deadline:)``), the last failing with `kind`,
  /// may make another: not for an error retrying cannot cure (also a refused `SELECT`,
  /// `.server`), not once the connector is closed, not beyond `maximumAttempts`.
  func retriesCall(after kind: RedisError.Kind, attempt: Int, maximumAttempts: Int) -> Bool {
    !(Self.permanentKinds.contains(kind) || kind == .server || closed
      || attempt >= maximumAttempts)
  }

  /// `ROLE` said the master of `generation` has `count` replicas, at `now`; ignored when the
  /// master changed since.
  mutating func replicasNoted(
    _ count: Int, generation noted: UInt64, at now: ContinuousClock.Instant
  ) {
    guard noted == generation else { return }
    replicas = ReplicaCount(count: count, at: now, generation: noted)
  }

  /// The replica count to use at `now` without asking: learnt for the current master less
  /// than ``replicaCountLifetime`` ago, else `nil`.
  func cachedReplicas(at now: ContinuousClock.Instant) -> Int? {
    guard let replicas, replicas.generation == generation,
      replicas.at.duration(to: now) < Self.replicaCountLifetime
    else { return nil }
    return replicas.count
  }

  /// The watch is wanted: `true` the first time (start it), `false` once started or closed.
  mutating func watchRequested() -> Bool {
    guard !watching, !closed else { return false }
    watching = true
    return true
  }

  /// The watch is about to subscribe: the sentinel to try. The first time, the one that
  /// answered discovery last; after a sentinel that failed, the next one (in a ring); after a
  /// link that was up broke, the same one again (``watchSubscribed(to:)``).
  mutating func watchAttempt() -> Int {
    guard sentinelCount > 0 else { return 0 }
    let index = (watchNext ?? preferredSentinel) % sentinelCount
    watchNext = index + 1
    return index
  }

  /// The watch subscribed on sentinel `index`: if that link breaks, it is tried again first.
  mutating func watchSubscribed(to index: Int) {
    watchNext = index
  }

  /// The connector is closing: no watch starts, and failed attempts give up.
  mutating func closeRequested() {
    closed = true
  }
}
