/// Which master serves each of a cluster's 16384 hash slots, as a node announced it in its
/// `CLUSTER SLOTS` reply. Pure: parsing and lookups, no I/O.
///
/// The reply is untrusted: anything but the documented shape (a slot out of range, an end
/// before its start, overlapping ranges, a port out of range, a host that is not a host name
/// or address) throws ``RedisError`` of kind ``RedisError/Kind/unexpectedReply``; a node
/// outside the configuration's ``RedisConfiguration/HostPattern`` throws
/// ``RedisError/Kind/topologyOutsidePattern``. A range whose master has no known endpoint (`?`
/// or null) is left unassigned: commands for those slots get the bounded retry of a cluster
/// that is down, never a crash.
///
/// Bounded: parsing is linear in the reply, and a reply with more than ``maximumRanges``
/// ranges, ``maximumNodesPerRange`` nodes in a range or ``maximumNodes`` distinct nodes is
/// refused before any of it is used, since every node of the map may get a connection pool,
/// a lease renewer's connection and a store's listener.
struct ClusterSlotMap: Sendable, Equatable {
  /// The most ranges a reply may have: one per slot.
  static let maximumRanges = HashSlot.count
  /// The most nodes (a master and its replicas) one range may name.
  static let maximumNodesPerRange = 16
  /// The most distinct nodes a map may name (Redis Cluster's own guidance is at most 1,000).
  static let maximumNodes = 1000

  /// The distinct masters, in the order first seen.
  private(set) var masters: [RedisConfiguration.Endpoint] = []
  /// Every node the reply named (masters and replicas): where a refresh may ask next.
  private(set) var nodes: [RedisConfiguration.Endpoint] = []
  /// The index of each master in `masters`.
  private var masterIndex: [RedisConfiguration.Endpoint: Int32] = [:]
  /// `nodes` as a set.
  private var nodeSet: Set<RedisConfiguration.Endpoint> = []
  /// Per slot, the index of its master in `masters`, or -1.
  private var owners = [Int32](repeating: -1, count: HashSlot.count)

  init() {}

  /// The master serving `slot`, if the map knows one.
  func master(for slot: UInt16) -> RedisConfiguration.Endpoint? {
    guard Int(slot) < HashSlot.count else { return nil }
    let index = owners[Int(slot)]
    return index >= 0 ? masters[Int(index)] : nil
  }

  /// Whether the map names `endpoint` (as a master or a replica).
  func contains(_ endpoint: RedisConfiguration.Endpoint) -> Bool {
    nodeSet.contains(endpoint)
  }

  /// How many slots have a master.
  var assignedSlots: Int { owners.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) } }

  /// Records that `endpoint`, a node of the map, now serves `slot` (a `MOVED` redirect),
  /// until the next refresh. An endpoint the map does not name is ignored: a redirect never
  /// adds a node (see ``RedisCluster``).
  mutating func assign(_ slot: UInt16, to endpoint: RedisConfiguration.Endpoint) {
    guard Int(slot) < HashSlot.count, nodeSet.contains(endpoint) else { return }
    owners[Int(slot)] = index(of: endpoint)
  }

  private mutating func index(of endpoint: RedisConfiguration.Endpoint) -> Int32 {
    if let index = masterIndex[endpoint] { return index }
    let index = Int32(masters.count)
    masters.append(endpoint)
    masterIndex[endpoint] = index
    return index
  }

  private mutating func addNode(_ endpoint: RedisConfiguration.Endpoint) throws(RedisError) {
    guard nodeSet.insert(endpoint).inserted else { return }
    guard nodeSet.count <= Self.maximumNodes else {
      throw Self.malformed("it names more than \(Self.maximumNodes) nodes")
    }
    nodes.append(endpoint)
  }

  /// Parses a `CLUSTER SLOTS` reply: an array of `[start, end, [host, port, id, ...],
  /// replica...]`. An empty host means the node that was asked (`askedHost`).
  ///
  /// - Parameter allowedHosts: The hosts a node may have; `nil` checks none (tests).
  static func parse(
    slots reply: RESPValue, askedHost: String,
    allowedHosts: RedisConfiguration.HostPattern? = nil
  ) throws(RedisError) -> ClusterSlotMap {
    guard let ranges = reply.elements else {
      throw malformed("it is not an array")
    }
    guard ranges.count <= maximumRanges else {
      throw malformed("it has \(ranges.count) slot ranges, more than \(maximumRanges)")
    }
    var map = ClusterSlotMap()
    for range in ranges {
      guard let parts = range.elements, parts.count >= 3 else {
        throw malformed("a slot range is not [start, end, master, ...]")
      }
      guard parts.count - 2 <= maximumNodesPerRange else {
        throw malformed("a slot range names more than \(maximumNodesPerRange) nodes")
      }
      guard let start = parts[0].integer, let end = parts[1].integer,
        (0..<Int64(HashSlot.count)).contains(start), (start..<Int64(HashSlot.count)).contains(end)
      else {
        throw malformed("a slot range is out of 0...16383 or ends before it starts")
      }
      var master: RedisConfiguration.Endpoint?
      for (position, node) in parts[2...].enumerated() {
        guard let endpoint = try endpoint(of: node, askedHost: askedHost) else { continue }
        if let allowedHosts, !allowedHosts.matches(endpoint.host) {
          throw RedisError(
            .topologyOutsidePattern,
            "The CLUSTER SLOTS reply names \(endpoint), which is outside the allowed hosts "
              + "(\(allowedHosts)); the map is refused and nothing is sent there. Add it with "
              + "the URL's tls-host= if it is yours.")
        }
        try map.addNode(endpoint)
        if position == 0 { master = endpoint }
      }
      guard let master else { continue }
      let index = map.index(of: master)
      // Linear overall: a slot is written at most once, or the reply is refused.
      for slot in Int(start)...Int(end) {
        guard map.owners[slot] < 0 else {
          throw malformed("slot \(slot) is assigned twice")
        }
        map.owners[slot] = index
      }
    }
    return map
  }

  /// One node of a range, `[host, port, id, ...]`; `nil` when its endpoint is unknown.
  private static func endpoint(of node: RESPValue, askedHost: String) throws(RedisError)
    -> RedisConfiguration.Endpoint?
  {
    guard let fields = node.elements, fields.count >= 2 else {
      throw malformed("a node is not [host, port, ...]")
    }
    if fields[0].isNull { return nil }
    guard let host = fields[0].string else { throw malformed("a node's host is not a string") }
    if host == "?" { return nil }
    guard let port = fields[1].integer else { throw malformed("a node's port is not a number") }
    guard
      let endpoint = ClusterEndpoint.endpoint(
        host: host.isEmpty ? askedHost : host, port: port)
    else {
      throw malformed("a node's host or port is not valid")
    }
    return endpoint
  }

  private static func malformed(_ reason: String) -> RedisError {
    RedisError(.unexpectedReply, "The CLUSTER SLOTS reply is malformed: \(reason).")
  }
}

/// Checks on the node addresses a cluster announces (in `CLUSTER SLOTS` and redirects).
enum ClusterEndpoint {
  /// A TCP endpoint for an announced host and port, or `nil` when the host is not a plausible
  /// host name or IP address (1 to 255 letters, digits, `.`, `-`, `_`, `:` or `%`) or the port is
  /// out of 1...65535.
  static func endpoint(host: String, port: Int64) -> RedisConfiguration.Endpoint? {
    guard (1...65535).contains(port), isPlausibleHost(host) else { return nil }
    return .tcp(host: host, port: UInt16(port))
  }

  static func isPlausibleHost(_ host: String) -> Bool {
    let bytes = Array(host.utf8)
    guard (1...255).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
        UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "%"):
        return true
      default: return false
      }
    }
  }

  /// Parses `host:port` (the last `:` separates the port, so an IPv6 address needs no
  /// brackets, as Redis writes it; brackets are accepted). An empty host is `currentHost`.
  static func parse(_ text: Substring, currentHost: String) -> RedisConfiguration.Endpoint? {
    guard let colon = text.lastIndex(of: ":"), let port = Int64(text[text.index(after: colon)...])
    else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 {
      host = String(host.dropFirst().dropLast())
    }
    return endpoint(host: host.isEmpty ? currentHost : host, port: port)
  }
}
