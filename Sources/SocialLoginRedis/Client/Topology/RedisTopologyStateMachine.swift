/// The life of a client's topology as one value: not yet known, being probed (`CLUSTER SLOTS`
/// on first use, or again when a single node answers `MOVED`), a single node, a Redis Cluster,
/// closed. Each method is an event and returns what the owner (``RedisTopology``) must do;
/// nothing here opens a socket, starts a task or takes a lock, so every order of events can be
/// tested without a server, and the owner cannot drift into a mix of flags that means nothing.
///
/// Its siblings hold the rest of the topology's decisions the same way: ``ClusterMapStateMachine``
/// (a cluster's slot map, owned by ``RedisCluster``) and ``SentinelStateMachine`` (which master
/// the sentinels name and when the generation moves, owned by ``RedisConnector``).
///
/// Generic over the cluster so the tests can stand in a plain value for ``RedisCluster``.
struct RedisTopologyStateMachine<Cluster: Sendable>: Sendable {
  /// What the server was found to be.
  enum Mode: Sendable {
    case single
    case cluster(Cluster)
  }

  /// Names one probe, so a result is matched to the probe that asked for it.
  struct ProbeID: Hashable, Sendable {
    let value: UInt64
  }

  /// Where the topology is in its life.
  enum State: Sendable {
    /// Nothing asked yet.
    case idle
    /// A probe is out; `previous` is the mode it may replace (`.single` when a single node
    /// answered `MOVED`), which commands keep using until the probe ends.
    case probing(ProbeID, previous: Mode?)
    /// A single node (or a proxy): commands go to the URL's pool.
    case single
    /// A Redis Cluster; it stays one (a cluster does not become a single node).
    case cluster(Cluster)
    /// Closed; `last` is the mode known then, which later commands still see (its pools are
    /// closed, so they fail as closed).
    case closed(last: Mode?)
  }

  /// What a caller that needs the mode must do.
  enum ProbeAction: Sendable {
    /// The mode is known: use it.
    case use(Mode)
    /// A probe is out: wait for its result.
    case wait(ProbeID)
    /// Start this probe (and wait for it).
    case startProbe(ProbeID)
    /// Do not probe: the topology is closed.
    case fail(RedisError)
  }

  /// What the owner must do with a probe's result.
  enum ResultAction: Sendable {
    /// Hand this mode to the probe's callers.
    case use(Mode)
    /// The topology was closed while the probe was out: close the cluster it found, then
    /// hand it to the callers (whose commands then fail as closed).
    case closeAndUse(Cluster)
  }

  /// What the owner must do on close.
  enum CloseAction: Sendable {
    /// Close this cluster's node pools.
    case closeCluster(Cluster)
    /// Nothing to close here (a probe still out closes what it finds when it ends).
    case none
  }

  /// The current state; only the events below change it.
  private(set) var state: State = .idle
  /// The next ``ProbeID`` to hand out.
  private var nextProbe: UInt64 = 0

  /// The mode commands use now: `nil` until a probe first succeeds.
  var mode: Mode? {
    switch state {
    case .idle: nil
    case .probing(_, let previous): previous
    case .single: .single
    case .cluster(let cluster): .cluster(cluster)
    case .closed(let last): last
    }
  }

  /// A command needs the mode (first use). A known cluster is used as is; a single node is
  /// probed again only by ``movedReceived()``, so here it is used too; concurrent callers
  /// share one probe.
  mutating func probeRequested() -> ProbeAction {
    switch state {
    case .single: .use(.single)
    default: modeNeeded()
    }
  }

  /// A node taken for a single one answered `MOVED`: it is a cluster now (or refused
  /// `CLUSTER SLOTS` to this user), so probe again; a known cluster handles its own redirects.
  mutating func movedReceived() -> ProbeAction {
    modeNeeded()
  }

  /// The shared part of ``probeRequested()`` and ``movedReceived()``: anything but a cluster
  /// or a probe already out starts a probe.
  private mutating func modeNeeded() -> ProbeAction {
    switch state {
    case .cluster(let cluster):
      return .use(.cluster(cluster))
    case .probing(let id, _):
      return .wait(id)
    case .closed(.some(.cluster(let cluster))):
      // As before the close: the cluster's closed pools say it was closed.
      return .use(.cluster(cluster))
    case .closed:
      return .fail(RedisError(.closed, "The Redis client was closed."))
    case .idle:
      return startProbe(previous: nil)
    case .single:
      return startProbe(previous: .single)
    }
  }

  /// Moves to ``State/probing(_:previous:)`` with a fresh ID.
  private mutating func startProbe(previous: Mode?) -> ProbeAction {
    let id = ProbeID(value: nextProbe)
    nextProbe &+= 1
    state = .probing(id, previous: previous)
    return .startProbe(id)
  }

  /// Probe `id` found `found`. A result that arrives after the close is kept as the last mode
  /// and its cluster closed; a cluster already known is never replaced.
  mutating func probeSucceeded(_ id: ProbeID, found: Mode) -> ResultAction {
    switch state {
    case .probing(let current, _) where current == id:
      switch found {
      case .single: state = .single
      case .cluster(let cluster): state = .cluster(cluster)
      }
      return .use(found)
    case .closed(let last):
      if case .some(.cluster(let known)) = last { return .use(.cluster(known)) }
      state = .closed(last: found)
      if case .cluster(let cluster) = found { return .closeAndUse(cluster) }
      return .use(found)
    case .cluster(let known):
      return .use(.cluster(known))
    case .idle, .probing, .single:
      // Not this probe's turn (another replaced it): the caller still gets what it found.
      return .use(found)
    }
  }

  /// Probe `id` could not reach the server: the mode stays as it was, so a later command
  /// asks again. After the close, or for another probe's turn, nothing changes.
  mutating func probeFailed(_ id: ProbeID) {
    guard case .probing(let current, let previous) = state, current == id else { return }
    switch previous {
    case .none: state = .idle
    case .some(.single): state = .single
    case .some(.cluster(let cluster)): state = .cluster(cluster)
    }
  }

  /// The client is closing. Closing twice does nothing the second time.
  mutating func closeRequested() -> CloseAction {
    switch state {
    case .idle:
      state = .closed(last: nil)
      return .none
    case .probing(_, let previous):
      state = .closed(last: previous)
      return .none
    case .single:
      state = .closed(last: .single)
      return .none
    case .cluster(let cluster):
      state = .closed(last: .cluster(cluster))
      return .closeCluster(cluster)
    case .closed:
      return .none
    }
  }
}

// Compared in tests (with a plain value for the cluster), and cheap to state here.
extension RedisTopologyStateMachine.Mode: Equatable where Cluster: Equatable {}
extension RedisTopologyStateMachine.State: Equatable where Cluster: Equatable {}
extension RedisTopologyStateMachine.ProbeAction: Equatable where Cluster: Equatable {}
extension RedisTopologyStateMachine.ResultAction: Equatable where Cluster: Equatable {}
extension RedisTopologyStateMachine.CloseAction: Equatable where Cluster: Equatable {}
