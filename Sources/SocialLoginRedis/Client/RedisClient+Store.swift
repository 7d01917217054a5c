/// What the session store needs from its client beyond commands, said here so the store does
/// not reach through the client's pool, connector and topology to get it.
extension RedisClient {
  /// A lease renewer on connections of its own to the (sentinel-followed) master, or to each
  /// cluster node, named `name` in `CLIENT LIST`.
  func makeLeaseRenewer(name: String) -> LeaseRenewer {
    LeaseRenewer(connector: pool.connector, name: name, topology: topology)
  }

  /// How many replicas the current master has (cached briefly; `0` when unknown), so a store
  /// sends `WAIT` only where a replica can answer it.
  func replicaCount() async -> Int {
    await pool.connector.replicaCount(through: pool)
  }

  /// A subscription to `channel` on this client's server (the master the sentinels name, or
  /// the URL's node), which listens on another node of the slot map while its own cannot be
  /// reached (any node of a cluster hears every classic `PUBLISH`).
  func makeSubscriber(
    channel: String, onLink: @escaping @Sendable (Bool) -> Void,
    handler: @escaping @Sendable ([UInt8]) -> Void
  ) -> RedisSubscriber {
    let topology = self.topology
    return RedisSubscriber(
      connector: pool.connector, channel: channel,
      alternatives: {
        guard let cluster = topology.cluster else { return [] }
        return cluster.map.nodes.filter { $0 != cluster.seed.endpoint }.map(
          cluster.seed.clusterNode)
      },
      onLink: onLink, handler: handler)
  }

  /// The masters of the current slot map, in the map's order; empty on one server and before
  /// the cluster is known. Read on every call (one lock, no copy of the map), so a caller that
  /// follows it follows failovers and slot moves.
  func clusterMasters() -> [RedisConfiguration.Endpoint] {
    topology.cluster?.map.masters ?? []
  }

  /// The configuration that reaches `endpoint`, a node of this client's cluster (its
  /// credentials, TLS and host pattern), or `nil` on one server.
  func clusterNode(_ endpoint: RedisConfiguration.Endpoint) -> RedisConfiguration? {
    topology.cluster?.seed.clusterNode(endpoint)
  }
}
