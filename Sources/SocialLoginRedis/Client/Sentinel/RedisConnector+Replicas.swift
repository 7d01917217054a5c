import SocialLogin

extension RedisConnector {
  /// How long a replica count is trusted before it is asked again.
  static let replicaCountLifetime = Duration.seconds(5)

  /// Records the replica count a `ROLE` reply gave for `generation`'s master.
  func noteReplicas(_ count: Int, generation: UInt64) {
    state.withLock { state in
      guard state.generation == generation else { return }
      state.replicas = (count, .now, generation)
    }
  }

  /// How many replicas the master has, cheaply: the count learnt at connect (a sentinel
  /// configuration checks `ROLE` there) or by a `ROLE` sent through `pool` at most every
  /// ``replicaCountLifetime`` and after every change of master. A server that refuses `ROLE`
  /// (an ACL, a proxy) counts as having none, so `WAIT` is never sent to it.
  func replicaCount(through pool: RedisConnectionPool) async -> Int {
    let cached = state.withLock { state -> Int? in
      guard let known = state.replicas, known.generation == state.generation,
        known.at.duration(to: .now) < Self.replicaCountLifetime
      else { return nil }
      return known.count
    }
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
