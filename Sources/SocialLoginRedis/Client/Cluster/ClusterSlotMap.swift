/// Which master serves each of a cluster's 16384 hash slots, as a node announced it in its
/// `CLUSTER SLOTS` reply. Pure: parsing and lookups, no I/O.
///
/// The reply is untrusted: anything but the documented shape (a slot out of range, an end
/// before its start, overlapping ranges, a port out of range, a host that is not a host name
/// or address) throws ``RedisError`` of kind ``RedisError/Kind/unexpectedReply``. A range whose
/// master has no known endpoint (`?` or null) is left unassigned: commands for those slots get
/// the bounded retry of a cluster that is down, never a crash.
struct ClusterSlotMap: Sendable, Equatable {
  /// The distinct masters, in the order first seen.
  private(set) var masters: [RedisConfiguration.Endpoint] = []
  /// Every node the reply named (masters and replicas): where a refresh may ask next.
  private(set) var nodes: [RedisConfiguration.Endpoint] = []
  /// Per slot, the index of its master in `masters`, or -1.
  private var owners = [Int32](repeating: -1, count: HashSlot.count)

  init() {}

  /// The master serving `slot`, if the map knows one.
  func master(for slot: UInt16) -> RedisConfiguration.Endpoint? {
    guard Int(slot) < HashSlot.count else { return nil }
    let index = owners[Int(slot)]
    return index >= 0 ? masters[Int(index)] : nil
  }

  /// How many slots have a master.
  var assignedSlots: Int { owners.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) } }

  /// Records that `endpoint` now serves `slot` (a `MOVED` redirect), until the next refresh.
  mutating func assign(_ slot: UInt16, to endpoint: RedisConfiguration.Endpoint) {
    guard Int(slot) < HashSlot.count else { return }
    owners[Int(slot)] = Int32(index(of: endpoint))
    if !nodes.contains(endpoint) { nodes.append(endpoint) }
  }

  private mutating func index(of endpoint: RedisConfiguration.Endpoint) -> Int {
    if let index = masters.firstIndex(of: endpoint) { return index }
    masters.append(endpoint)
    return masters.count - 1
  }

  /// Parses a `CLUSTER SLOTS` reply: an array of `[start, end, [host, port, id, ...],
  /// replica...]`. An empty host means the node that was asked (`askedHost`).
  static func parse(slots reply: RESPValue, askedHost: String) throws(RedisError)
    -> ClusterSlotMap
  {
    guard let ranges = reply.elements else {
      throw malformed("it is not an array")
    }
    var map = ClusterSlotMap()
    for range in ranges {
      guard let parts = range.elements, parts.count >= 3 else {
        throw malformed("a slot range is not [start, end, master, ...]")
      }
      guard let start = parts[0].integer, let end = parts[1].integer,
        (0..<Int64(HashSlot.count)).contains(start), (start..<Int64(HashSlot.count)).contains(end)
      else {
        throw malformed("a slot range is out of 0...16383 or ends before it starts")
      }
      var endpoints: [RedisConfiguration.Endpoint?] = []
      for node in parts[2...] {
        endpoints.append(try endpoint(of: node, askedHost: askedHost))
      }
      for case let node? in endpoints where !map.nodes.contains(node) {
        map.nodes.append(node)
      }
      guard let master = endpoints[0] else { continue }
      let index = Int32(map.index(of: master))
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
