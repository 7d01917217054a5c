import SocialLogin

/// Whether a client's server is a single node (or a proxy) or a Redis Cluster, found out once
/// on first use with one `CLUSTER SLOTS` (an error reply, as from a server without cluster
/// support, means a single node), and again should a single node ever answer `MOVED`.
/// Afterwards a single node costs one lock read per command and nothing more.
final class RedisTopology: Sendable {
  enum Mode: Sendable {
    case single
    case cluster(RedisCluster)
  }

  private let state = Locked(State())

  private struct State {
    var mode: Mode?
    var detecting: Task<Mode, any Error>?
    var closed = false
  }

  /// The mode found so far; `nil` before the first command.
  var mode: Mode? { state.withLock { $0.mode } }

  /// The cluster, once the server is known to be one.
  var cluster: RedisCluster? {
    if case .cluster(let cluster) = mode { return cluster }
    return nil
  }

  /// Finds out the mode (concurrent callers share one probe); a cluster, once found, stays.
  /// A failure to reach the server leaves the mode as it was, so a later command asks again.
  func detect(configuration: RedisConfiguration, pool: RedisConnectionPool) async throws -> Mode {
    enum Next {
      case known(Mode)
      case wait(Task<Mode, any Error>)
    }
    let next = state.withLock { state -> Next in
      if let mode = state.mode, case .cluster = mode { return .known(mode) }
      if let detecting = state.detecting { return .wait(detecting) }
      let task = Task<Mode, any Error> {
        guard
          let map = try await RedisCluster.readMap(
            from: pool, endpoint: configuration.endpoint,
            allowedHosts: configuration.topologyHostsInEffect)
        else { return .single }
        return .cluster(RedisCluster(seed: configuration, seedPool: pool, map: map))
      }
      state.detecting = task
      return .wait(task)
    }
    guard case .wait(let task) = next else {
      if case .known(let mode) = next { return mode }
      return .single
    }
    let found: Mode
    do {
      found = try await task.value
    } catch {
      state.withLock { state in
        if state.detecting == task { state.detecting = nil }
      }
      throw error
    }
    let (mode, closed) = state.withLock { state in
      if state.detecting == task { state.detecting = nil }
      if case .cluster = state.mode {
      } else {
        state.mode = found
      }
      return (state.mode ?? found, state.closed)
    }
    if closed, case .cluster(let cluster) = mode { cluster.close() }
    return mode
  }

  func close() {
    let cluster = state.withLock { state -> RedisCluster? in
      state.closed = true
      if case .cluster(let cluster) = state.mode { return cluster }
      return nil
    }
    cluster?.close()
  }
}
