import Foundation
import SocialLoginRedis

/// `redis_cluster_cross_process_refresh` (with `--cluster-store redis://any-node:port`): the
/// cross-process refresh (4 worker processes × 250 callers, one expired session) on a Redis
/// Cluster, with the provider requests it cost and the Redis commands the masters processed
/// for it (see ``ServerCommandCount``).
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
      url: url, sealing: BenchSealing.sealing, options: RedisSessionStore.Options(keyPrefix: prefix)
    )
    defer { store.client.close() }
    let figure = try await crossProcess(
      store: store, prefix: prefix, rttMicroseconds: rttMicroseconds, url: url,
      name: "redis_cluster_cross_process_refresh")
    let refreshes = figure.fields.first { $0.0 == "provider_requests" }?.1 ?? "n/a"
    return Figure(figure.name, figure.fields + [("provider_requests_per_due_session", refreshes)])
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
}

/// The commands the servers behind a client processed (`total_commands_processed`): its one
/// server's, or on a cluster the sum over every master, so a figure counts what reached the
/// session's master wherever the slot map put it.
struct ServerCommandCount {
  /// The servers read: the client itself, or a client on each master of the cluster.
  let servers: [RedisClient]
  let ownsServers: Bool

  init(_ client: RedisClient) async throws {
    if client.isCluster {
      servers = try await ReplicasBench.clusterMasters(client)
      ownsServers = true
    } else {
      servers = [client]
      ownsServers = false
    }
  }

  /// The servers' count now.
  func read() async throws -> Int {
    var total = 0
    for server in servers { total += try await ReplicasBench.commandsProcessed(server) }
    return total
  }

  /// The commands processed since `before` (a ``read()``), less the reads' own `INFO`s: the
  /// one that gave `before` is counted by the next, once per server.
  func since(_ before: Int) async throws -> Int {
    try await read() - before - servers.count
  }

  /// Closes the clients this count opened.
  func close() {
    if ownsServers { for server in servers { server.close() } }
  }
}
