import SocialLogin

extension RedisConnector {
  /// Records the replica count a `ROLE` reply gave for `generation`'s master.
  func noteReplicas(_ count: Int, generation: UInt64) {
    state.withLock { $0.machine.replicasNoted(count, generation: generation, at: .now) }
  }

  /// How many replicas the master has, cheaply: the count learnt at connect (a sentinel
  /// configuration checks `ROLE` there) or by a `ROLE` sent through `pool` at most every
  /// ``SentinelStateMachine/replicaCountLifetime`` and after every change of master. A server that refuses `ROLE`
  /// (an ACL, a proxy) counts as having none, so `WAIT` is never sent to it.
  func replicaCount(through pool: RedisConnectionPool) async -> Int {
    let cached = state.withLock { $0.machine.cachedReplicas(at: .now) }
    if let cached { return cached }
    let generation = self.generation
    let count: Int
    do {
      let reply = try await pool.execute([RedisCommand(["ROLE"])])[0]
      if case .master(let replicas) = try SentinelReplies.role(reply) {
        count = replicas
      } else {
        count = 0
      }
    } catch {
      count = 0
    }
    noteReplicas(count, generation: generation)
    return count
  }
}
