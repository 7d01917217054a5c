extension RedisClient {
  /// Runs `commands` on the server, or on a cluster's nodes by their keys' hash slots; the one
  /// path every command of the client takes.
  func execute(_ commands: [RedisCommand], timeout: Duration? = nil) async throws -> [RESPValue] {
    let timeout = timeout ?? configuration.commandTimeout
    sent.wrappingAdd(commands.count, ordering: .relaxed)
    var mode = topology.mode
    if mode == nil {
      mode = try await topology.detect(configuration: configuration, pool: pool)
    }
    switch mode {
    case .cluster(let cluster):
      return try await cluster.execute(commands, timeout: timeout)
    case .single, nil:
      let replies = try await pool.execute(commands, timeout: timeout)
      guard replies.contains(where: Self.isMoved) else { return replies }
      // A server that did not look like a cluster redirects: it is one now (or refused
      // `CLUSTER SLOTS` to this user). Ask again, and send the redirected commands on.
      guard
        case .cluster(let cluster) = try await topology.detect(
          configuration: configuration, pool: pool, moved: true)
      else { return replies }
      return try await cluster.execute(commands, timeout: timeout, initial: replies)
    }
  }

  private static func isMoved(_ reply: RESPValue) -> Bool {
    if case .error(let message) = reply { return message.hasPrefix("MOVED ") }
    return false
  }

  /// Whether the server was found to be a Redis Cluster (known after the first command; `false`
  /// before it).
  public var isCluster: Bool { topology.cluster != nil }
}
