import SocialLogin

/// Whether a client's server is a single node (or a proxy) or a Redis Cluster, found out once
/// on first use with one `CLUSTER SLOTS` (an error reply, as from a server without cluster
/// support, means a single node), and again should a single node ever answer `MOVED`.
/// Afterwards a single node costs one lock read per command and nothing more.
///
/// The owner of a ``RedisTopologyStateMachine``: it holds the machine under its lock, feeds it
/// events and performs the actions it returns (start a probe task, wait for one, close a
/// cluster), so the decisions live in one value that is tested without a server.
final class RedisTopology: Sendable {
  /// Single node or cluster, as the machine names them.
  typealias Mode = RedisTopologyStateMachine<RedisCluster>.Mode
  /// One probe's handle.
  private typealias ProbeID = RedisTopologyStateMachine<RedisCluster>.ProbeID

  /// The machine, and the task of each probe it started that has not reported yet (one at a
  /// time in practice); a task leaves the table under the same lock as it reports.
  private struct State {
    var machine = RedisTopologyStateMachine<RedisCluster>()
    var probes: [ProbeID: Task<Mode, any Error>] = [:]
  }

  private let state = Locked(State())

  /// The mode found so far; `nil` before the first command.
  var mode: Mode? { state.withLock { $0.machine.mode } }

  /// The cluster, once the server is known to be one.
  var cluster: RedisCluster? {
    if case .cluster(let cluster) = mode { return cluster }
    return nil
  }

  /// Finds out the mode (concurrent callers share one probe); a cluster, once found, stays.
  /// A failure to reach the server leaves the mode as it was, so a later command asks again.
  ///
  /// - Parameter moved: A node taken for a single one answered `MOVED`, so a known single
  ///   node is probed again.
  func detect(configuration: RedisConfiguration, pool: RedisConnectionPool, moved: Bool = false)
    async throws -> Mode
  {
    enum Next {
      case known(Mode)
      case wait(Task<Mode, any Error>)
      case fail(RedisError)
    }
    let next = state.withLock { state -> Next in
      let action = moved ? state.machine.movedReceived() : state.machine.probeRequested()
      switch action {
      case .use(let mode):
        return .known(mode)
      case .fail(let error):
        return .fail(error)
      case .wait(let id):
        // The task is in the table while the machine says the probe is out.
        guard let task = state.probes[id] else {
          return .fail(RedisError(.closed, "The Redis topology lost track of its probe."))
        }
        return .wait(task)
      case .startProbe(let id):
        let task = startProbe(id, configuration: configuration, pool: pool)
        state.probes[id] = task
        return .wait(task)
      }
    }
    switch next {
    case .known(let mode): return mode
    case .fail(let error): throw error
    case .wait(let task): return try await task.value
    }
  }

  /// The task of probe `id`: one `CLUSTER SLOTS`, whose result (or failure) it reports to the
  /// machine itself, so exactly one report reaches it whoever waits.
  private func startProbe(
    _ id: ProbeID, configuration: RedisConfiguration, pool: RedisConnectionPool
  ) -> Task<Mode, any Error> {
    Task { [self] in
      let found: Mode
      do {
        if let map = try await RedisCluster.readMap(
          from: pool, endpoint: configuration.endpoint,
          allowedHosts: configuration.topologyHostsInEffect)
        {
          found = .cluster(RedisCluster(seed: configuration, seedPool: pool, map: map))
        } else {
          found = .single
        }
      } catch {
        state.withLock { state in
          state.probes[id] = nil
          state.machine.probeFailed(id)
        }
        throw error
      }
      let action = state.withLock { state in
        state.probes[id] = nil
        return state.machine.probeSucceeded(id, found: found)
      }
      switch action {
      case .use(let mode):
        return mode
      case .closeAndUse(let cluster):
        cluster.close()
        return .cluster(cluster)
      }
    }
  }

  /// Closes the cluster's node pools, if the server is one; a probe still out closes what it
  /// finds when it ends.
  func close() {
    let action = state.withLock { $0.machine.closeRequested() }
    switch action {
    case .closeCluster(let cluster): cluster.close()
    case .none: break
    }
  }
}
