extension RedisSessionStore {
  /// The channel the save and release scripts publish on: the lease channel on a single
  /// server, none ("") on a Redis Cluster, where a classic `PUBLISH` is broadcast to every
  /// node of the cluster for every write; there lease waiters find the result by their bounded
  /// poll (``Options/leasePollInterval``) instead.
  var publishChannel: String { client.isCluster ? "" : keys.leaseChannel }
}
