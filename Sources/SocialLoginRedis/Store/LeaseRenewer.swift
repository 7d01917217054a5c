import Dispatch
import Foundation
import SocialLogin

/// Renews a store's held refresh leases without Swift's cooperative pool.
///
/// A lease lapses when a renewal comes later than its time to live, and another replica may then
/// spend the same refresh token (the duplicate refresh that single-flight exists to prevent;
/// providers with reuse detection revoke the grant). Renewals driven by `Task.sleep` and sent
/// from tasks waited for a pool thread: in a process whose pool was busy for seconds (CPU-bound
/// work, a burst of tasks, a loaded machine) they came too late. Here a Dispatch timer on a
/// private serial queue fires each renewal, and the queue sends it on a connection of its own,
/// blocking only that queue's thread for the round trip — so a renewal is late only when the
/// machine gives the process no CPU at all.
///
/// The connection is opened on first use and after any failure. It has no reconnect loop
/// (``RedisReconnectLoop``, which the subscription and the sentinel watch share): the next
/// attempt is the next tick, a third of the lease's life later, which already spaces attempts,
/// and backing off any further would let a held lease lapse. The script is sent by `EVAL`
/// (renewals are a few per lease lifetime, and a restarted server's empty script cache then
/// needs no second round trip). On a Redis Cluster it keeps one connection per node and sends
/// each renewal to the master of the lease key's slot (see `LeaseRenewer+Cluster.swift`).
final class LeaseRenewer: @unchecked Sendable {
  // @unchecked: `connection` is only touched on `queue`, which is serial.
  let queue: DispatchQueue
  let connector: RedisConnector
  var configuration: RedisConfiguration { connector.configuration }
  /// The store's client's topology: where a cluster's renewal goes.
  let topology: RedisTopology?
  /// The connection to the one server (or the master Sentinel names).
  private var connection: RedisConnection?
  /// On a cluster, open connections by node.
  var connections: [RedisConfiguration.Endpoint: RedisConnection] = [:]

  init(connector: RedisConnector, name: String, topology: RedisTopology? = nil) {
    self.connector = connector
    self.topology = topology
    queue = DispatchQueue(label: "SocialLoginRedis.lease-renewals.\(name)")
  }

  deinit {
    connection?.close()
    for connection in connections.values { connection.close() }
  }

  /// The result of one renewal.
  enum Outcome: Equatable {
    /// The lease is still this owner's and lives `ttl` from when the renewal was sent.
    case renewed(sentAt: ContinuousClock.Instant)
    /// Another owner holds it, or nobody: it lapsed.
    case lost
    /// Redis did not answer in time or broke the connection; try again at the next tick.
    case unreachable
  }

  /// Extends `key`'s lease by `ttl` if `token` still owns it, and its spend `claim` while it is
  /// this owner's. Runs on ``queue`` only.
  func renew(
    key: String, token: String, ttl: Duration,
    claim: (key: String, value: String, milliseconds: String)
  ) -> Outcome {
    dispatchPrecondition(condition: .onQueue(queue))
    let sent = ContinuousClock.now
    // A renewal answered after a third of the lifetime is useless: the next tick sends again.
    let deadline = sent + min(configuration.commandTimeout, ttl / 3)
    let milliseconds = String(RedisSessionStore.milliseconds(ttl))
    let script = RedisScripts.renewLease
    let command = RedisCommand(
      arguments: [Array("EVAL".utf8), Array(script.source.utf8), Array("2".utf8)]
        + [Array(key.utf8), Array(claim.key.utf8), Array(token.utf8), Array(milliseconds.utf8)]
        + [Array(claim.value.utf8), Array(claim.milliseconds.utf8)])
    guard topology?.cluster != nil else { return renewOnOneServer(command, sent, deadline) }
    guard let reply = send(command, slot: HashSlot.slot(of: key), deadline: deadline) else {
      return .unreachable
    }
    // An error reply (LOADING after a restart, BUSY, CLUSTERDOWN) says nothing about the
    // owner: retry.
    if case .error = reply { return .unreachable }
    return reply.integer == 1 ? .renewed(sentAt: sent) : .lost
  }

  /// A renewal on the one server, or on the master Sentinel names (the connection is
  /// replaced when the connector found another master, and a master that refuses writes
  /// sends the connector back to the sentinels).
  private func renewOnOneServer(
    _ command: RedisCommand, _ sent: ContinuousClock.Instant, _ deadline: ContinuousClock.Instant
  ) -> Outcome {
    do throws(RedisError) {
      let open: RedisConnection
      if let connection, connector.isCurrent(connection) {
        open = connection
      } else {
        // None yet, or one to a master that is no longer the master.
        connection?.close()
        connection = nil
        open = try connector.open(deadline: deadline)
        connection = open
      }
      let reply = try open.execute([command], deadline: deadline)[0]
      if SentinelReplies.refusesWrites(reply) {
        // A demoted or cut-off master: ask the sentinels again, renew on the new master next tick.
        connector.invalidate(open.generation)
        throw RedisError(.connectionLost, "The master became a replica.")
      }
      // An error reply (LOADING after a restart, BUSY) says nothing about the owner: retry.
      if case .error = reply { return .unreachable }
      return reply.integer == 1 ? .renewed(sentAt: sent) : .lost
    } catch {
      connection?.close()
      connection = nil
      return .unreachable
    }
  }
}
