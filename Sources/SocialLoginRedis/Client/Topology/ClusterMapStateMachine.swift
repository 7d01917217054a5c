/// The bookkeeping of a Redis Cluster's slot map as one value: the map, one pool per node
/// the client talks to, whether a refresh (`CLUSTER SLOTS` read again) is out, how many ended,
/// and whether the cluster is closed. Each method is an event and returns what the owner
/// (``RedisCluster``) must do; nothing here opens a socket, starts a task or takes a lock, so
/// a refresh that fails, a `MOVED` during a refresh or a close during one is tested without a
/// server.
///
/// Generic over the pool so the tests can stand in a plain value for ``RedisConnectionPool``.
struct ClusterMapStateMachine<Pool: Sendable>: Sendable {
  typealias Endpoint = RedisConfiguration.Endpoint

  /// Names one refresh, so its end is matched to it.
  struct RefreshID: Hashable, Sendable {
    let value: UInt64
  }

  /// The cluster's life.
  enum State: Sendable {
    /// Serving from the current map; no refresh is out.
    case idle
    /// A refresh is out; callers wait for it rather than start another.
    case refreshing(RefreshID)
    /// Closed: pools handed out from now on are closed first. A refresh may still run (and
    /// be shared), as commands already under way may ask for one.
    case closed(refreshing: RefreshID?)
  }

  /// What a caller that wants the map read again must do.
  enum RefreshAction: Sendable, Equatable {
    /// Start this refresh, asking `candidates` in order (the first valid map wins).
    case startRefresh(RefreshID, candidates: [Endpoint])
    /// A refresh is out: wait for it.
    case wait(RefreshID)
  }

  /// What became of a map a refresh read.
  enum MapResult: Sendable {
    /// The map replaced the current one: close these pools (their nodes left it).
    case adopted(closing: [Pool])
    /// The map assigns no slot: ignored, ask the next candidate.
    case ignored
  }

  /// What the owner must do to hand out a node's pool.
  enum PoolAction: Sendable {
    /// Use this pool.
    case use(Pool)
    /// Open a pool for the node and report it with ``poolOpened(_:_:)``.
    case open
    /// Use this pool, but close it first: the cluster is closed.
    case closeAndUse(Pool)
  }

  /// The current slot map.
  private(set) var map: ClusterSlotMap
  /// Where the cluster is in its life.
  private(set) var state: State = .idle
  /// The pool of each node other than the URL's (whose pool the client owns).
  private(set) var pools: [Endpoint: Pool] = [:]
  /// How many refreshes ended (with a map or not).
  private(set) var refreshes = 0
  /// The next ``RefreshID`` to hand out.
  private var nextRefresh: UInt64 = 0
  /// The URL's node, always a candidate and never pooled here.
  let seed: Endpoint

  /// Starts idle with the map the topology probe read.
  init(seed: Endpoint, map: ClusterSlotMap) {
    self.seed = seed
    self.map = map
  }

  /// Whether `endpoint` is the URL's node or one the map names.
  func knows(_ endpoint: Endpoint) -> Bool {
    endpoint == seed || map.contains(endpoint)
  }

  /// A node's pool is needed (never the URL's: its pool is the client's).
  func poolNeeded(_ endpoint: Endpoint) -> PoolAction {
    guard let pool = pools[endpoint] else { return .open }
    if case .closed = state { return .closeAndUse(pool) }
    return .use(pool)
  }

  /// The owner opened `pool` for `endpoint` after ``PoolAction/open``; it is kept so the next
  /// map can close it should the node leave. Returns whether to close it before use (the
  /// cluster is closed, so its commands fail as closed).
  mutating func poolOpened(_ endpoint: Endpoint, _ pool: Pool) -> Bool {
    pools[endpoint] = pool
    if case .closed = state { return true }
    return false
  }

  /// A `MOVED` named `endpoint` for `slot`: a node the map names serves it now, until the next
  /// refresh. Returns whether the map names it (an unknown target waits for a refresh).
  mutating func movedReceived(_ slot: UInt16, to endpoint: Endpoint) -> Bool {
    guard knows(endpoint) else { return false }
    map.assign(slot, to: endpoint)
    return true
  }

  /// Someone wants the map read again; `preferred` (the last `MOVED` target) is asked first
  /// when the map names it. After the close a refresh still runs (as before the machine);
  /// its pools are closed as they open.
  mutating func refreshRequested(preferring preferred: Endpoint?) -> RefreshAction {
    switch state {
    case .refreshing(let id), .closed(.some(let id)): return .wait(id)
    case .idle, .closed(.none): break
    }
    let known = preferred.map(knows) ?? false
    let candidates =
      (known ? [preferred].compactMap { $0 } : []) + map.masters + map.nodes + [seed]
    var seen = Set<Endpoint>()
    let id = RefreshID(value: nextRefresh)
    nextRefresh &+= 1
    if case .closed = state { state = .closed(refreshing: id) } else { state = .refreshing(id) }
    return .startRefresh(id, candidates: candidates.filter { seen.insert($0).inserted })
  }

  /// A refresh read `newMap`: it replaces the current one, and the pools of nodes it no
  /// longer names are returned to be closed. A map with no slot assigned is ignored.
  mutating func mapRefreshed(_ newMap: ClusterSlotMap) -> MapResult {
    guard newMap.assignedSlots > 0 else { return .ignored }
    map = newMap
    let gone = pools.keys.filter { !newMap.contains($0) }
    return .adopted(closing: gone.compactMap { pools.removeValue(forKey: $0) })
  }

  /// Refresh `id` ended, with a map or without (no node answered: the map stays).
  mutating func refreshEnded(_ id: RefreshID) {
    refreshes += 1
    switch state {
    case .refreshing(let current) where current == id: state = .idle
    case .closed(.some(let current)) where current == id: state = .closed(refreshing: nil)
    default: break
    }
  }

  /// The cluster is closing: every node pool it opened is returned to be closed. Twice
  /// returns nothing the second time.
  mutating func closeRequested() -> [Pool] {
    switch state {
    case .closed: return []
    case .idle: state = .closed(refreshing: nil)
    case .refreshing(let id): state = .closed(refreshing: id)
    }
    return Array(pools.values)
  }
}

// Compared in tests (with a plain value for the pool), and cheap to state here.
extension ClusterMapStateMachine.State: Equatable {}
extension ClusterMapStateMachine.PoolAction: Equatable where Pool: Equatable {}
extension ClusterMapStateMachine.MapResult: Equatable where Pool: Equatable {}
