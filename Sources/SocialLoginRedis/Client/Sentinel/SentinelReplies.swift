import SocialLogin

/// What the sentinels' and the master's replies mean, as pure functions of untrusted input:
/// every shape other than the documented one is a typed ``RedisError``, never a crash.
enum SentinelReplies {
  /// A node's answer to `ROLE`.
  enum Role: Equatable {
    /// A master, with the number of replicas connected to it.
    case master(replicas: Int)
    /// A replica (`slave`) or a sentinel: not where writes go.
    case other(String)
  }

  /// The reply to `SENTINEL get-master-addr-by-name`: the master's address, or `nil` when this
  /// sentinel does not know the name (a null reply).
  static func masterAddress(_ reply: RESPValue) throws(RedisError)
    -> RedisConfiguration.Endpoint?
  {
    if reply.isNull { return nil }
    if case .error(let message) = reply {
      throw RedisError(
        .server, "The sentinel refused get-master-addr-by-name.",
        serverMessage: String(message.prefix(500)))
    }
    guard let parts = reply.elements, parts.count == 2, let host = parts[0].string,
      let portText = parts[1].string
    else {
      throw RedisError(
        .unexpectedReply, "The sentinel's master address is not a [host, port] pair.")
    }
    return try endpoint(host: host, port: portText)
  }

  /// A `+switch-master` message for `masterName`
  /// (`<name> <old-ip> <old-port> <new-ip> <new-port>`): the new master, or `nil` when the
  /// message is about another master.
  static func switchMaster(_ payload: [UInt8], masterName: String) throws(RedisError)
    -> RedisConfiguration.Endpoint?
  {
    guard payload.count <= 1024 else {
      throw RedisError(.unexpectedReply, "A +switch-master message is too long.")
    }
    let words = String(decoding: payload, as: UTF8.self).split(separator: " ")
    guard words.count == 5 else {
      throw RedisError(.unexpectedReply, "A +switch-master message does not have five fields.")
    }
    guard words[0] == masterName else { return nil }
    return try endpoint(host: String(words[3]), port: String(words[4]))
  }

  /// The reply to `ROLE`: `["master", offset, [[ip, port, offset], ...]]`, `["slave", ...]` or
  /// `["sentinel", [names]]`.
  static func role(_ reply: RESPValue) throws(RedisError) -> Role {
    if case .error(let message) = reply {
      throw RedisError(
        .server, "Redis refused ROLE.", serverMessage: String(message.prefix(500)))
    }
    guard let parts = reply.elements, let name = parts.first?.string?.lowercased() else {
      throw RedisError(.unexpectedReply, "The reply to ROLE is not a list naming a role.")
    }
    guard name == "master" else { return .other(String(name.prefix(20))) }
    guard parts.count == 3, parts[1].integer != nil, let replicas = parts[2].elements else {
      throw RedisError(.unexpectedReply, "The master's reply to ROLE has an unexpected shape.")
    }
    return .master(replicas: replicas.count)
  }

  /// A host and a decimal port from a sentinel, checked: a printable host without spaces, a
  /// port in 1...65535.
  static func endpoint(host: String, port: String) throws(RedisError)
    -> RedisConfiguration.Endpoint
  {
    guard !host.isEmpty, host.utf8.count <= 255,
      host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
    else {
      throw RedisError(.unexpectedReply, "The sentinel named a master host that is not a host.")
    }
    guard port.utf8.count <= 5, port.utf8.allSatisfy({ (48...57).contains($0) }),
      let number = Int(port), (1...65535).contains(number)
    else {
      throw RedisError(.unexpectedReply, "The sentinel named a master port that is not a port.")
    }
    return .tcp(host: host, port: UInt16(number))
  }

  /// The order to ask `count` sentinels in: the one that last answered (`preferred`) first,
  /// then the others in their configured order.
  static func order(count: Int, preferred: Int) -> [Int] {
    guard count > 0 else { return [] }
    let first = (0..<count).contains(preferred) ? preferred : 0
    return [first] + (0..<count).filter { $0 != first }
  }

  /// Whether a reply refuses a write because the node is no longer (or may no longer be) the
  /// master: `-READONLY` from a demoted master, `-NOREPLICAS` from a master cut off from its
  /// replicas (`min-replicas-to-write`), as the old master is while a failover promotes one.
  /// Either way nothing was written.
  static func refusesWrites(_ reply: RESPValue) -> Bool {
    if case .error(let message) = reply {
      return message.hasPrefix("READONLY") || message.hasPrefix("NOREPLICAS")
    }
    return false
  }
}
