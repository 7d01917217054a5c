import SocialLogin

extension RedisSessionStore {
  /// How many leases this store took whose `WAIT 1` saw no replica confirm them within
  /// ``Options/leaseReplicaWait``: refreshes that went ahead relying on the fenced version
  /// check alone (a failover at that moment could let a second replica spend the same token).
  public var leaseReplicationTimeouts: Int { replication.counts.withLock { $0.timeouts } }

  /// How many leases a replica confirmed before their refresh token was spent.
  public var leaseReplicationConfirmations: Int {
    replication.counts.withLock { $0.confirmed }
  }

  /// `WAIT 1 <ms>` when waiting is on and the master has replicas, else `nil`: `WAIT` with no
  /// replica would block its whole timeout for nothing. Not on a Redis Cluster: a cluster
  /// splits a pipeline by node and sends a keyless `WAIT` to the URL's node, another
  /// connection than the lease's, where it would confirm nothing (there the fenced version
  /// check alone covers a failover).
  func replicaWait() async -> RedisCommand? {
    guard options.leaseReplicaWait > .zero, !client.isCluster,
      await client.replicaCount() > 0
    else { return nil }
    return RedisCommand(["WAIT", "1", String(Self.milliseconds(options.leaseReplicaWait))])
  }

  /// `SET NX PX` and, with replicas, `WAIT 1` in one pipeline (`WAIT` is per connection, so it
  /// must follow the lease on the same one); returns the `SET` reply.
  func takeLease(_ set: RedisCommand) async throws -> RESPValue {
    let wait = await replicaWait()
    let replies = try await client.pipeline([set] + (wait.map { [$0] } ?? []))
    if case .error(let message) = replies[0] {
      throw RedisError(
        .server, "Redis refused SET.", serverMessage: String(message.prefix(500)))
    }
    if wait != nil, replies[0] == .simpleString("OK") { replication.note(replies.last) }
    return replies[0]
  }

  /// The lease script and, with replicas, `WAIT 1` in one pipeline; returns the script's reply.
  func takeLease(_ script: RedisScript, keys scriptKeys: [String], arguments: [[UInt8]])
    async throws -> RESPValue
  {
    let wait = await replicaWait()
    let replies = try await client.evaluateReturningAll(
      script, keys: scriptKeys, arguments: arguments, alongside: wait.map { [$0] } ?? [])
    if wait != nil, replies[0].elements?.first?.integer == 1 { replication.note(replies.last) }
    return replies[0]
  }
}

/// Counts of what `WAIT 1` answered after a lease.
final class LeaseReplication: Sendable {
  struct Counts {
    var confirmed = 0
    var timeouts = 0
  }
  let counts = Locked(Counts())

  /// `reply`: `WAIT`'s — the number of replicas that confirmed.
  func note(_ reply: RESPValue?) {
    let confirmed = (reply?.integer ?? 0) >= 1
    counts.withLock { counts in
      if confirmed {
        counts.confirmed += 1
      } else {
        counts.timeouts += 1
      }
    }
  }
}
