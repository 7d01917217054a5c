import Foundation
import SocialLoginRedis

/// `redis_cluster_cross_process_refresh` (with `--cluster-store redis://any-node:port`): the
/// cross-process refresh (4 worker processes × 250 callers, one expired session) on a Redis
/// Cluster, with the provider requests it cost and the Redis commands the masters processed
/// per replica (summed `total_commands_processed` of every master, the workers' connection
/// set-up and slot-map reads included).
extension ReplicasBench {
  static var clusterURL: String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--cluster-store"), index + 1 < arguments.count
    else { return nil }
    return arguments[index + 1]
  }

  static func clusterRefresh(url: String, rttMicroseconds: Double) async throws -> Figure {
    let prefix = "bench\(UInt32.random(in: 0...UInt32.max))"
    let store = try await RedisSessionStore.connect(
      url: url, options: RedisSessionStore.Options(keyPrefix: prefix))
    defer { store.client.close() }
    let masters = try await clusterMasters(store.client)
    defer { for master in masters { master.close() } }
    let before = try await commandsProcessed(masters)
    let figure = try await crossProcess(
      store: store, prefix: prefix, rttMicroseconds: rttMicroseconds, url: url,
      name: "redis_cluster_cross_process_refresh")
    let after = try await commandsProcessed(masters)
    let refreshes = figure.fields.first { $0.0 == "provider_requests" }?.1 ?? "n/a"
    // Every INFO read counts once on its master.
    let commands = max(0, after - before - masters.count)
    return Figure(
      figure.name,
      figure.fields + [
        ("masters", String(masters.count)),
        ("provider_requests_per_due_session", refreshes),
        ("redis_commands_per_replica_per_refresh", fmt(Double(commands) / 4)),
      ])
  }

  /// A client on each master named by `CLUSTER SLOTS`.
  static func clusterMasters(_ client: RedisClient) async throws -> [RedisClient] {
    var seen = Set<String>()
    var masters: [RedisClient] = []
    for range in try await client.send(["CLUSTER", "SLOTS"]).elements ?? [] {
      guard let node = range.elements?.dropFirst(2).first?.elements, node.count >= 2,
        let host = node[0].string, let port = node[1].integer,
        seen.insert("\(host):\(port)").inserted
      else { continue }
      masters.append(try RedisClient(url: "redis://\(host.isEmpty ? "127.0.0.1" : host):\(port)"))
    }
    return masters
  }

  static func commandsProcessed(_ clients: [RedisClient]) async throws -> Int {
    var total = 0
    for client in clients { total += try await commandsProcessed(client) }
    return total
  }
}
