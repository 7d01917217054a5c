import Foundation
import TestPacing
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A listening socket on 127.0.0.1 that never accepts: a client's connection would complete in
/// the kernel's backlog, so ``wasConnected()`` tells afterwards whether anything reached it.
final class UnacceptedListener: Sendable {
  let port: UInt16
  private let fd: Int32

  init() throws {
    let listener = try FakeRedisServer.loopbackListener()
    fd = listener.fd
    port = listener.port
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  var endpoint: RedisConfiguration.Endpoint { .tcp(host: "127.0.0.1", port: port) }

  /// Whether a connection is waiting (it is taken and closed).
  func wasConnected() -> Bool {
    let connection = accept(fd, nil, nil)
    guard connection >= 0 else { return false }
    close(connection)
    return true
  }

  func stop() { close(fd) }
}

/// Sentinels, cluster nodes and redirects are untrusted: a host outside the pattern, or a
/// redirect target the slot map does not confirm, gets nothing; a hostile `CLUSTER SLOTS` is
/// refused at once; the node pools follow the map; a map read cannot outlast its deadline.
@Suite(.timeLimit(.minutes(2))) struct UntrustedTopologyTests {
  func configuration(port: UInt16, query: String = "") throws -> RedisConfiguration {
    var configuration = try RedisConfiguration(
      url: "redis://:secret@127.0.0.1:\(port)\(query)", environment: [:])
    configuration.connectAttempts = 1
    // Hang guards, not speed checks.
    configuration.commandTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(2)
    return configuration
  }

  static let selfMap = "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:{port}\r\n"
  /// The fake's handshake (`AUTH`, `PING` in one write: one read) and its `CLUSTER SLOTS`.
  static let handshake = "+OK\r\n+PONG\r\n"

  // MARK: - Redirects

  @Test func aMovedToAnEndpointTheMapDoesNotNameIsNotFollowed() async throws {
    let outsider = try UnacceptedListener()
    defer { outsider.stop() }
    // The refresh after the MOVED reads the same map again: the target is still unknown.
    let node = try FakeRedisServer(
      replies: [
        Self.handshake, Self.selfMap, "-MOVED 12539 127.0.0.1:\(outsider.port)\r\n", Self.selfMap,
      ], closeAfterReplies: false)
    defer { node.stop() }
    let client = RedisClient(configuration: try configuration(port: node.port))
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .unexpectedReply, "\(String(describing: error))")
    #expect(error?.message.contains("127.0.0.1:\(outsider.port)") == true)
    #expect(!outsider.wasConnected(), "nothing may be sent to an unconfirmed redirect target")
  }

  @Test func aMovedToANodeTheNewMapNamesIsFollowed() async throws {
    let target = try FakeRedisServer(replies: [Self.handshake, "$1\r\nv\r\n"])
    defer { target.stop() }
    let both =
      "*2\r\n*3\r\n:0\r\n:8000\r\n*2\r\n$9\r\n127.0.0.1\r\n:{port}\r\n"
      + "*3\r\n:8001\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:\(target.port)\r\n"
    let node = try FakeRedisServer(
      replies: [Self.handshake, Self.selfMap, "-MOVED 12539 127.0.0.1:\(target.port)\r\n", both],
      closeAfterReplies: false)
    defer { node.stop() }
    let client = RedisClient(configuration: try configuration(port: node.port))
    defer { client.close() }
    #expect(try await client.send(["GET", "k"]).string == "v")
  }

  @Test func aRedirectOutsideThePatternIsRefusedByName() async throws {
    let node = try FakeRedisServer(
      replies: [Self.handshake, Self.selfMap, "-ASK 12539 attacker.example:6379\r\n"],
      closeAfterReplies: false)
    defer { node.stop() }
    let client = RedisClient(configuration: try configuration(port: node.port))
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .topologyOutsidePattern, "\(String(describing: error))")
    #expect(error?.message.contains("attacker.example") == true)
  }

  @Test func aSlotsReplyNamingAHostOutsideThePatternIsRefused() async throws {
    let map = "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$16\r\nattacker.example\r\n:6379\r\n"
    let node = try FakeRedisServer(replies: [Self.handshake, map], closeAfterReplies: false)
    defer { node.stop() }
    let client = RedisClient(configuration: try configuration(port: node.port))
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .topologyOutsidePattern, "\(String(describing: error))")
  }

  // MARK: - Sentinels

  /// A fake sentinel (`PING`, then `get-master-addr-by-name`) naming `host:port`.
  func sentinel(naming host: String, port: UInt16) throws -> FakeRedisServer {
    try FakeRedisServer(
      replies: [
        "+PONG\r\n",
        "*2\r\n$\(host.utf8.count)\r\n\(host)\r\n$\(String(port).count)\r\n\(port)\r\n",
      ])
  }

  func sentinelClient(_ sentinel: FakeRedisServer, query: String = "") throws -> RedisClient {
    var configuration = try RedisConfiguration(
      url: "redis-sentinel://:secret@127.0.0.1:\(sentinel.port)\(query)#sessions",
      environment: [:])
    configuration.connectAttempts = 1
    configuration.connectTimeout = .seconds(1)
    configuration.commandTimeout = .seconds(2)
    return RedisClient(configuration: configuration)
  }

  @Test func aSentinelNamingAHostOutsideThePatternGetsNoConnectionAndNoAUTH() async throws {
    let master = try UnacceptedListener()
    defer { master.stop() }
    // `localhost` is the same machine, but an IP-addressed URL allows only addresses.
    let byName = try sentinel(naming: "localhost", port: master.port)
    defer { byName.stop() }
    let client = try sentinelClient(byName)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
    #expect(error?.kind == .topologyOutsidePattern, "\(String(describing: error))")
    #expect(error?.message.contains("localhost:\(master.port)") == true)
    #expect(!master.wasConnected())
    // A configured pattern that leaves out addresses refuses the same sentinel naming one.
    let byAddress = try sentinel(naming: "127.0.0.1", port: master.port)
    defer { byAddress.stop() }
    let strict = try sentinelClient(byAddress, query: "?tls-host=*.cache.example.com")
    defer { strict.close() }
    let refused = await #expect(throws: RedisError.self) { try await strict.send(["PING"]) }
    #expect(refused?.kind == .topologyOutsidePattern, "\(String(describing: refused))")
    #expect(!master.wasConnected())
    // The control: an allowed host is connected to (and then times out: it never answers).
    let allowed = try sentinelClient(byAddress)
    defer { allowed.close() }
    await #expect(throws: RedisError.self) { try await allowed.send(["PING"]) }
    #expect(master.wasConnected())
  }

  // MARK: - A bounded map

  static func range(_ start: Int64, _ end: Int64, _ nodes: [(String, Int64)]) -> RESPValue {
    .array(
      [.integer(start), .integer(end)]
        + nodes.map { .array([.bulkString(Array($0.0.utf8)), .integer($0.1)]) })
  }

  @Test func aMillionRangeReplyIsRefusedAtOnce() async throws {
    // One range repeated (the array shares it): the reply the RESP reader's default limits
    // let through (1,048,576 elements), and whose ranges assign nothing.
    let reply = RESPValue.array(
      [RESPValue](repeating: Self.range(0, 0, [("?", 1)]), count: 1_000_000))
    let error = try await withDeadline(.seconds(60), "parsing a million ranges") {
      #expect(throws: RedisError.self) {
        try ClusterSlotMap.parse(slots: reply, askedHost: "127.0.0.1")
      }
    }
    #expect(error?.kind == .unexpectedReply)
    #expect(error?.message.contains("1000000 slot ranges") == true)
  }

  @Test func tooManyNodesInTotalOrInOneRangeAreRefused() async throws {
    // 100 ranges of 16 distinct nodes each: 1,600 nodes.
    let crowded = RESPValue.array(
      (0..<100).map { range in
        Self.range(
          Int64(range), Int64(range), (0..<16).map { ("10.0.\(range).\($0)", 6379) })
      })
    let error = #expect(throws: RedisError.self) {
      try ClusterSlotMap.parse(slots: crowded, askedHost: "h")
    }
    #expect(error?.message.contains("more than 1000 nodes") == true)
    let wide = RESPValue.array([Self.range(0, 16383, (0..<17).map { ("10.0.0.\($0)", 6379) })])
    let tooWide = #expect(throws: RedisError.self) {
      try ClusterSlotMap.parse(slots: wide, askedHost: "h")
    }
    #expect(tooWide?.message.contains("more than 16 nodes") == true)
    // The largest valid map: every slot its own range, 1,000 masters (parsed in linear time).
    let largest = RESPValue.array(
      (0..<Int64(HashSlot.count)).map { slot in
        Self.range(slot, slot, [("10.0.\(slot % 1000 / 250).\(slot % 250)", 6379)])
      })
    let map = try await withDeadline(.seconds(60), "parsing 16,384 ranges") {
      try ClusterSlotMap.parse(slots: largest, askedHost: "h")
    }
    #expect(map.masters.count == 1000)
    #expect(map.assignedSlots == HashSlot.count)
    #expect(map.contains(.tcp(host: "10.0.3.249", port: 6379)))
    #expect(!map.contains(.tcp(host: "10.0.4.0", port: 6379)))
  }

  @Test func aRefreshedMapClosesThePoolsOfNodesThatLeftIt() async throws {
    let node = try FakeRedisServer(
      replies: [Self.handshake, Self.selfMap], closeAfterReplies: false)
    defer { node.stop() }
    let gone = RedisConfiguration.Endpoint.tcp(host: "127.0.0.1", port: 1)
    let seed = try configuration(port: node.port)
    let initial = try ClusterSlotMap.parse(
      slots: .array([
        Self.range(0, 8000, [("127.0.0.1", Int64(node.port))]),
        Self.range(8001, 16383, [("127.0.0.1", 1)]),
      ]), askedHost: "127.0.0.1")
    let cluster = RedisCluster(
      seed: seed, seedPool: RedisConnectionPool(configuration: seed), map: initial)
    defer { cluster.close() }
    _ = cluster.pool(for: gone)
    #expect(cluster.pooledEndpoints.contains(gone))
    #expect(cluster.knows(gone))
    try await withDeadline(.seconds(60), "a map refresh") { await cluster.refreshMap() }
    #expect(cluster.map.masters == [.tcp(host: "127.0.0.1", port: node.port)])
    #expect(!cluster.pooledEndpoints.contains(gone), "the pool of a node that left is closed")
    #expect(!cluster.knows(gone))
  }

  @Test func theLeaseRenewerClosesItsConnectionsToNodesThatLeftTheMap() async throws {
    let node = try FakeRedisServer(
      replies: [Self.handshake, Self.selfMap], closeAfterReplies: false)
    defer { node.stop() }
    let left = try FakeRedisServer(replies: [Self.handshake], closeAfterReplies: false)
    defer { left.stop() }
    let seed = try configuration(port: node.port)
    let topology = RedisTopology()
    let pool = RedisConnectionPool(configuration: seed)
    defer { pool.close() }
    guard case .cluster = try await topology.detect(configuration: seed, pool: pool) else {
      Issue.record("the fake node was not taken for a cluster")
      return
    }
    let renewer = LeaseRenewer(
      connector: RedisConnector(configuration: seed), name: "prune-test", topology: topology)
    let leftEndpoint = RedisConfiguration.Endpoint.tcp(host: "127.0.0.1", port: left.port)
    // A connection to a node the map no longer names, as one a renewal opened before a change.
    let stale = try RedisConnection.open(
      seed.clusterNode(leftEndpoint), deadline: .now + .seconds(30))
    let remaining = try await withDeadline(.seconds(60), "a renewal") {
      renewer.queue.sync {
        renewer.connections[leftEndpoint] = stale
        // The slot's master (the fake) is busy with the client's connection: no reply, and
        // that does not matter here.
        _ = renewer.send(["PING"], slot: 0, deadline: .now + .milliseconds(200))
        return Set(renewer.connections.keys)
      }
    }
    #expect(!remaining.contains(leftEndpoint))
  }

  @Test func aMapReadFromNodesThatNeverAnswerEndsWithinTheCommandTimeout() async throws {
    // Thirty nodes that accept connections (in the kernel) and never answer: asking each for
    // the command timeout in turn would take thirty of them (60 s, past the 45 s deadlines
    // below, which a loaded machine needs), where one refresh takes one (2 s).
    let silent = try (0..<30).map { _ in try UnacceptedListener() }
    defer { for listener in silent { listener.stop() } }
    var seed = try configuration(port: silent[0].port)
    seed.commandTimeout = .seconds(2)
    seed.connectTimeout = .seconds(2)
    let map = try ClusterSlotMap.parse(
      slots: .array(
        silent.enumerated().map { index, listener in
          Self.range(Int64(index), Int64(index), [("127.0.0.1", Int64(listener.port))])
        }), askedHost: "127.0.0.1")
    let cluster = RedisCluster(
      seed: seed, seedPool: RedisConnectionPool(configuration: seed), map: map)
    defer { cluster.close() }
    try await withDeadline(.seconds(45), "a map refresh from silent nodes") {
      await cluster.refreshMap()
    }
    #expect(cluster.map == map, "no node answered: the map stays")
    // A caller with a shorter deadline does not wait for a refresh already under way.
    try await withDeadline(.seconds(45), "a refresh waited for until the caller's deadline") {
      async let running: Void = cluster.refreshMap()
      await cluster.refreshMap(deadline: .now + .milliseconds(10))
      await running
    }
  }
}
