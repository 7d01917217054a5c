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
}
