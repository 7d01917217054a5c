import Dispatch

extension LeaseRenewer {
  /// Sends `command` (for a key in `slot`) on the renewer's connection to the node serving
  /// the slot (the one server, or the cluster's master by the client's map), following one
  /// `MOVED` or `ASK` to a node the map names (to another, nothing is sent; the map is read
  /// again for the next tick). Returns the reply, or `nil` when no node answered in time (the
  /// connection is then closed and opened again next time). Connections to nodes that left
  /// the map are closed. Runs on ``queue`` only.
  func send(_ command: RedisCommand, slot: UInt16, deadline: ContinuousClock.Instant)
    -> RESPValue?
  {
    dispatchPrecondition(condition: .onQueue(queue))
    let cluster = topology?.cluster
    if let cluster {
      for stale in connections.keys where !cluster.knows(stale) {
        connections.removeValue(forKey: stale)?.close()
      }
    }
    var endpoint = cluster?.endpoint(for: slot) ?? configuration.endpoint
    var asking = false
    for _ in 0...1 {
      guard let reply = send(asking ? [["ASKING"], command] : [command], to: endpoint, deadline)
      else { return nil }
      guard let cluster, let redirect = try? ClusterRedirect.of(reply, currentHost: endpoint.host)
      else { return reply }
      switch redirect {
      case .moved(let movedSlot, let target):
        guard cluster.noteRedirect(movedSlot, to: target, moved: true) else { return nil }
        endpoint = target
        asking = false
      case .ask(let askedSlot, let target):
        guard cluster.noteRedirect(askedSlot, to: target, moved: false) else { return nil }
        endpoint = target
        asking = true
      case .tryAgain, .clusterDown, .unreachable:
        return reply
      }
    }
    return nil
  }

  private func send(
    _ commands: [RedisCommand], to endpoint: RedisConfiguration.Endpoint,
    _ deadline: ContinuousClock.Instant
  ) -> RESPValue? {
    do throws(RedisError) {
      let open: RedisConnection
      if let connection = connections[endpoint] {
        open = connection
      } else {
        let node =
          endpoint == configuration.endpoint ? configuration : configuration.clusterNode(endpoint)
        open = try RedisConnection.open(node, deadline: deadline)
        connections[endpoint] = open
      }
      return try open.execute(commands, deadline: deadline).last
    } catch {
      connections.removeValue(forKey: endpoint)?.close()
      if let cluster = topology?.cluster {
        // The node may have failed over: read the map again for the next tick.
        Task { await cluster.refreshMap() }
      }
      return nil
    }
  }
}

extension RedisConfiguration.Endpoint {
  /// The TCP host, or "" for a Unix socket.
  var host: String {
    if case .tcp(let host, _) = self { return host }
    return ""
  }
}
