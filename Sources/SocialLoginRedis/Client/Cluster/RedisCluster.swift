import SocialLogin

/// A Redis Cluster behind one ``RedisClient``: the slot map, a connection pool per node, and
/// the routing of every command to the master of its key's slot, following `MOVED` (the map
/// is refreshed) and `ASK` (`ASKING` first, once), waiting out `TRYAGAIN`, `CLUSTERDOWN` and
/// unreachable nodes with a bounded retry (``ClusterRetry``).
///
/// A pipeline is split by node: each node gets its commands in one write, in order, all nodes
/// at once, and the replies are put back in the caller's order. Commands are never merged
/// across slots into one command, so nothing is ever `CROSSSLOT`.
///
/// The nodes are untrusted: a `MOVED` or `ASK` to an endpoint the slot map does not name is
/// followed only once a `CLUSTER SLOTS` read from a node the map does name confirms it (else
/// ``RedisError/Kind/unexpectedReply``, and nothing is sent there); every map is checked
/// against ``RedisConfiguration/topologyHosts`` and bounded (``ClusterSlotMap``); a map read
/// waits at most the command timeout; and the node pools follow the map, so a node that
/// left it has its pool closed.
///
/// The map, the node pools and the refresh's life are a ``ClusterMapStateMachine`` held under
/// this cluster's lock; the cluster feeds it events and performs what it returns (open or
/// close pools, start or join a refresh task).
final class RedisCluster: Sendable {
  let seed: RedisConfiguration
  private let seedPool: RedisConnectionPool
  private let state: Locked<State>

  /// The machine, and the task of each refresh it started that has not ended.
  private struct State {
    var machine: ClusterMapStateMachine<RedisConnectionPool>
    var refreshTasks: [ClusterMapStateMachine<RedisConnectionPool>.RefreshID: Task<Void, Never>] =
      [:]
  }

  init(seed: RedisConfiguration, seedPool: RedisConnectionPool, map: ClusterSlotMap) {
    self.seed = seed
    self.seedPool = seedPool
    state = Locked(State(machine: ClusterMapStateMachine(seed: seed.endpoint, map: map)))
  }

  /// The current slot map.
  var map: ClusterSlotMap { state.withLock { $0.machine.map } }
  /// How many times the map was read again (after `MOVED`, a failover, an unreachable node).
  var refreshCount: Int { state.withLock { $0.machine.refreshes } }

  /// The node serving `slot` by the current map; a command without a key (`PING`, `INFO`,
  /// `CLUSTER ...`) goes to the URL's node, as it would without a cluster, or, once that node
  /// could not be reached (`retried`), to a master that is not it.
  func endpoint(for slot: UInt16?, retried: Bool = false) -> RedisConfiguration.Endpoint? {
    guard let slot else {
      guard retried else { return seed.endpoint }
      return state.withLock { state in
        state.machine.map.masters.first { $0 != seed.endpoint } ?? seed.endpoint
      }
    }
    return state.withLock { $0.machine.map.master(for: slot) }
  }

  /// Whether `endpoint` is the URL's node or one the current map names: the only nodes this
  /// client sends anything to.
  func knows(_ endpoint: RedisConfiguration.Endpoint) -> Bool {
    state.withLock { $0.machine.knows(endpoint) }
  }

  /// The endpoints that have a pool (tests).
  var pooledEndpoints: Set<RedisConfiguration.Endpoint> {
    state.withLock { Set($0.machine.pools.keys) }
  }

  /// The pool of `endpoint`'s node, opened on first use. Only called for a node ``knows(_:)``
  /// (the URL's, a node of the map, or a redirect target the map confirmed), so there are at
  /// most ``ClusterSlotMap/maximumNodes`` pools; ``adopt(_:)`` closes those of nodes that left.
  func pool(for endpoint: RedisConfiguration.Endpoint) -> RedisConnectionPool {
    if endpoint == seed.endpoint { return seedPool }
    let (pool, closeFirst) = state.withLock { state -> (RedisConnectionPool, Bool) in
      switch state.machine.poolNeeded(endpoint) {
      case .use(let pool):
        return (pool, false)
      case .closeAndUse(let pool):
        return (pool, true)
      case .open:
        let pool = RedisConnectionPool(configuration: seed.clusterNode(endpoint))
        return (pool, state.machine.poolOpened(endpoint, pool))
      }
    }
    if closeFirst { pool.close() }
    return pool
  }

  /// Records that `endpoint` (a node of the map) serves `slot` now, until the next refresh;
  /// returns whether the map names it.
  @discardableResult
  func assign(_ slot: UInt16, to endpoint: RedisConfiguration.Endpoint) -> Bool {
    state.withLock { $0.machine.movedReceived(slot, to: endpoint) }
  }

  /// Replaces the map with `map` and closes the pools of the nodes it no longer names (the
  /// URL's node keeps its pool); returns `false` for a map with no slot assigned (ignored).
  private func adopt(_ map: ClusterSlotMap) -> Bool {
    let result = state.withLock { $0.machine.mapRefreshed(map) }
    guard case .adopted(let stale) = result else { return false }
    for pool in stale { pool.close() }
    return true
  }

  /// Closes every node pool this cluster opened (the URL's is the client's to close).
  func close() {
    let pools = state.withLock { $0.machine.closeRequested() }
    for pool in pools { pool.close() }
  }

  // MARK: - Commands

  /// One command's progress through redirects.
  private struct Pending {
    var index: Int
    /// Where to send it; `nil`: by the map.
    var target: RedisConfiguration.Endpoint?
    var asking = false
    var retry = ClusterRetry()
  }

  /// Runs `commands`, each on its slot's master, and returns their replies in order.
  ///
  /// - Parameter initial: Replies the seed node already gave (by a client that did not know it
  ///   was talking to a cluster); only the redirected ones are sent again.
  func execute(_ commands: [RedisCommand], timeout: Duration, initial: [RESPValue]? = nil)
    async throws -> [RESPValue]
  {
    let deadline = ContinuousClock.now + timeout
    var replies = initial ?? [RESPValue](repeating: .null, count: commands.count)
    var pending: [Pending] = []
    if let initial {
      let (next, _, _) = try settle(
        initial.indices.map { Pending(index: $0) }, replies: initial,
        from: seed.endpoint, into: &replies)
      pending = next
      _ = try await confirmTargets(of: pending, deadline: deadline)
    } else {
      pending = commands.indices.map { Pending(index: $0) }
    }
    while !pending.isEmpty {
      // Group by node, in the callers' order within each node.
      var groups: [RedisConfiguration.Endpoint: [Pending]] = [:]
      var order: [RedisConfiguration.Endpoint] = []
      var unrouted: [Pending] = []
      for item in pending {
        guard
          let endpoint = item.target
            ?? endpoint(for: commands[item.index].hashSlot, retried: item.retry.retries > 0)
        else {
          unrouted.append(item)
          continue
        }
        if groups[endpoint] == nil { order.append(endpoint) }
        groups[endpoint, default: []].append(item)
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else {
        throw RedisError(.timedOut, "The Redis Cluster did not answer within the command timeout.")
      }
      let results = try await withThrowingTaskGroup(
        of: (RedisConfiguration.Endpoint, [Pending], Result<[RESPValue], RedisError>).self
      ) { group in
        for endpoint in order {
          let items = groups[endpoint] ?? []
          let pool = pool(for: endpoint)
          group.addTask {
            var batch: [RedisCommand] = []
            for item in items {
              if item.asking { batch.append(["ASKING"]) }
              batch.append(commands[item.index])
            }
            do {
              let raw = try await pool.execute(batch, timeout: remaining)
              var answers: [RESPValue] = []
              var position = 0
              for item in items {
                if item.asking { position += 1 }
                answers.append(raw[position])
                position += 1
              }
              return (endpoint, items, .success(answers))
            } catch let error as RedisError where error.kind == .connectionFailed {
              // Never sent: safe to send elsewhere once the map says where.
              return (endpoint, items, .failure(error))
            }
          }
        }
        var all: [(RedisConfiguration.Endpoint, [Pending], Result<[RESPValue], RedisError>)] = []
        for try await result in group { all.append(result) }
        return all
      }
      var next: [Pending] = []
      var delay = Duration.zero
      var refresh = false
      var preferred: RedisConfiguration.Endpoint?
      var lastFailure: RedisError?
      for (endpoint, items, result) in results {
        switch result {
        case .success(let answers):
          let (again, wait, moved) = try settle(
            items, replies: answers, from: endpoint, into: &replies)
          next += again
          delay = max(delay, wait.delay)
          refresh = refresh || wait.refresh
          if let moved { preferred = moved }
        case .failure(let error):
          lastFailure = error
          for var item in items {
            item.target = nil
            item.asking = false
            switch item.retry.next(after: .unreachable) {
            case .retry(let after, _):
              delay = max(delay, after)
              refresh = true
              next.append(item)
            default:
              throw error
            }
          }
        }
      }
      // A redirect to a node the map does not name is followed only once the map names it.
      let confirmed = try await confirmTargets(of: next, deadline: deadline)
      for var item in unrouted {
        // No master known for the slot: the cluster is down or the map is stale.
        switch item.retry.next(after: .clusterDown) {
        case .retry(let after, _):
          delay = max(delay, after)
          refresh = true
          next.append(item)
        default:
          throw RedisError(
            .server, "No node of the Redis Cluster serves the key's hash slot.",
            serverMessage: "CLUSTERDOWN Hash slot not served")
        }
      }
      if refresh, !confirmed { await refreshMap(preferring: preferred, deadline: deadline) }
      if delay > .zero {
        guard ContinuousClock.now + delay < deadline else {
          if let lastFailure { throw lastFailure }
          // The last error replies stand (CLUSTERDOWN, TRYAGAIN).
          return replies
        }
        try await Task.sleep(for: delay)
      }
      pending = next
    }
    return replies
  }

  /// Stores the final replies of `items` and returns those to send again, with the longest
  /// wait any asked for and the last `MOVED` target (the node that knows the newest map).
  private func settle(
    _ items: [Pending], replies answers: [RESPValue], from endpoint: RedisConfiguration.Endpoint,
    into replies: inout [RESPValue]
  ) throws(RedisError) -> (
    [Pending], (delay: Duration, refresh: Bool), RedisConfiguration.Endpoint?
  ) {
    let currentHost = endpoint.host
    var again: [Pending] = []
    var delay = Duration.zero
    var refresh = false
    var moved: RedisConfiguration.Endpoint?
    for (item, answer) in zip(items, answers) {
      replies[item.index] = answer
      guard let redirect = try ClusterRedirect.of(answer, currentHost: currentHost) else {
        continue
      }
      var item = item
      switch item.retry.next(after: redirect) {
      case .redirect(let target, let asking, let refreshMap):
        item.target = target
        item.asking = asking
        if refreshMap, case .moved(let slot, _) = redirect, knows(target) {
          assign(slot, to: target)
          refresh = true
          moved = target
          // Routed by the map from now on (patched above, then refreshed).
          item.target = nil
        }
        again.append(item)
      case .retry(let after, let refreshMap):
        item.target = nil
        item.asking = false
        delay = max(delay, after)
        refresh = refresh || refreshMap
        again.append(item)
      case .giveUp:
        continue
      }
    }
    return (again, (delay, refresh), moved)
  }

  /// Checks the redirect targets of `items` that the map does not name: each must match
  /// ``RedisConfiguration/topologyHosts``, and the map is read again (from nodes it names);
  /// a target it still does not name is refused. Returns whether the map was read.
  ///
  /// - Throws: ``RedisError/Kind/topologyOutsidePattern`` for a target outside the pattern,
  ///   ``RedisError/Kind/unexpectedReply`` for one the new map does not confirm.
  private func confirmTargets(of items: [Pending], deadline: ContinuousClock.Instant)
    async throws(RedisError) -> Bool
  {
    let unknown = Set(items.compactMap(\.target).filter { !knows($0) })
    guard !unknown.isEmpty else { return false }
    for target in unknown {
      try seed.checkTopologyHost(target, namedBy: "A MOVED or ASK redirect")
    }
    await refreshMap(deadline: deadline)
    if let refused = unknown.first(where: { !knows($0) }) {
      throw RedisError(
        .unexpectedReply,
        "A node redirected a command to \(refused), which the cluster's slot map (read again "
          + "from its known nodes) does not name; the redirect was not followed and nothing "
          + "was sent there.")
    }
    return true
  }

  // MARK: - The slot map

  /// Reads the map again (`CLUSTER SLOTS`) from `preferred` first (only when the map names
  /// it), then the known masters, the other nodes and the URL's node; keeps the current map
  /// when none answers with a valid one. Concurrent callers share one refresh, which takes at
  /// most the command timeout in all; a caller waits for it at most until `deadline` (by
  /// default the command timeout from now), so a node that never answers cannot hold
  /// commands past their timeout.
  func refreshMap(
    preferring preferred: RedisConfiguration.Endpoint? = nil,
    deadline: ContinuousClock.Instant? = nil
  ) async {
    let task = state.withLock { current -> Task<Void, Never>? in
      switch current.machine.refreshRequested(preferring: preferred) {
      case .wait(let id):
        return current.refreshTasks[id]
      case .startRefresh(let id, let candidates):
        let task = Task { [self] in
          let end = ContinuousClock.now + seed.commandTimeout
          for endpoint in candidates {
            let remaining = ContinuousClock.now.duration(to: end)
            guard remaining > .zero else { break }
            if let map = try? await Self.readMap(
              from: pool(for: endpoint), endpoint: endpoint,
              allowedHosts: seed.topologyHostsInEffect, timeout: remaining),
              adopt(map)
            {
              break
            }
          }
          state.withLock {
            $0.refreshTasks[id] = nil
            $0.machine.refreshEnded(id)
          }
        }
        current.refreshTasks[id] = task
        return task
      }
    }
    // The table holds a task while the machine says its refresh is out.
    guard let task else { return }
    await Self.wait(for: task, until: deadline ?? ContinuousClock.now + seed.commandTimeout)
  }

  /// Waits for `task` to end, or until `deadline` (the task goes on).
  private static func wait(for task: Task<Void, Never>, until deadline: ContinuousClock.Instant)
    async
  {
    let resumed = Locked(false)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      @Sendable func resume() {
        let first = resumed.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume() }
      }
      let timer = Task {
        try? await Task.sleep(until: deadline, clock: .continuous)
        resume()
      }
      Task {
        await task.value
        timer.cancel()
        resume()
      }
    }
  }

  /// `CLUSTER SLOTS` from one node, parsed, within `timeout` (the command timeout by default).
  /// An error reply (`ERR This instance has cluster support disabled`) is `nil`.
  static func readMap(
    from pool: RedisConnectionPool, endpoint: RedisConfiguration.Endpoint,
    allowedHosts: RedisConfiguration.HostPattern, timeout: Duration? = nil
  ) async throws -> ClusterSlotMap? {
    let reply = try await pool.execute([["CLUSTER", "SLOTS"]], timeout: timeout)[0]
    if case .error = reply { return nil }
    return try ClusterSlotMap.parse(
      slots: reply, askedHost: endpoint.host, allowedHosts: allowedHosts)
  }
}

extension RedisCluster {
  /// A `MOVED` or `ASK` seen outside ``execute(_:timeout:initial:)`` (the lease renewer's own
  /// connections): for a `MOVED` to a node the map names, patch the slot now; either way read
  /// the whole map again in the background. Returns whether the target may be followed (the
  /// map names it); an unknown one is not, until a later map confirms it.
  @discardableResult
  func noteRedirect(_ slot: UInt16, to endpoint: RedisConfiguration.Endpoint, moved: Bool)
    -> Bool
  {
    let known = knows(endpoint)
    if known, moved { assign(slot, to: endpoint) }
    if moved || !known { Task { await refreshMap(preferring: endpoint) } }
    return known
  }
}
