import Foundation
import SocialLogin

extension RedisConfiguration {
  /// Where the sentinels of a Redis Sentinel deployment are and which master they watch: a
  /// configuration with one connects to the master the sentinels name (see
  /// ``RedisConfiguration/init(url:environment:)`` for the `redis-sentinel://` form), checks
  /// with `ROLE` that it is the master, follows `+switch-master` and asks again after a
  /// `READONLY` reply or a lost connection.
  ///
  /// ```swift
  /// // redis-sentinel://[user:password@]host:port[,host:port...][/db]#mastername
  /// let configuration = try RedisConfiguration(
  ///   url: "redis-sentinel://10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379/2#sessions")
  /// ```
  public struct Sentinel: Sendable, Hashable {
    /// The sentinels, asked in turn (the last one that answered first).
    public var endpoints: [Endpoint]
    /// The name the sentinels monitor the master under (`sentinel monitor <name> ...`).
    public var masterName: String
    /// The ACL user for the sentinels; `nil` with a ``password`` authenticates as `default`.
    public var username: String?
    /// The sentinels' own password (`requirepass` in sentinel.conf), if they require one. The
    /// URL's credentials are the master's, not the sentinels'.
    public var password: Secret?
    /// Whether the sentinels are reached over TLS, verified against each sentinel's host (a
    /// `rediss-sentinel://` URL: the same CA and client certificate as the master).
    public var tls: TLS?

    /// Creates a sentinel configuration.
    public init(
      endpoints: [Endpoint], masterName: String, username: String? = nil,
      password: Secret? = nil, tls: TLS? = nil
    ) {
      self.endpoints = endpoints
      self.masterName = masterName
      self.username = username
      self.password = password
      self.tls = tls
    }
  }

  /// `SOCIALLOGIN_REDIS_SENTINEL_PASSWORD`: the sentinels' own password (a `redis-sentinel://`
  /// URL's credentials are the master's). It never changes which hosts are asked.
  public static let sentinelPasswordEnvironmentVariable = "SOCIALLOGIN_REDIS_SENTINEL_PASSWORD"

  /// The port of a sentinel address without one: Sentinel's default, 26379.
  public static let defaultSentinelPort: UInt16 = 26379

  /// Parses `redis-sentinel://` and `rediss-sentinel://` URLs by hand: `URLComponents` cannot
  /// read a comma-separated host list.
  static func sentinel(url text: String, environment: [String: String]) throws(RedisError)
    -> RedisConfiguration
  {
    let parts = try SentinelURL.parse(text)
    let tlsItems: Set<String> = ["ca", "cert", "key"]
    if let unknown = parts.query.first(where: {
      !tlsItems.contains($0.name) && $0.name != "tls-host"
    }) {
      throw RedisError(
        .configuration,
        "Unknown query item \"\(unknown.name.prefix(40))\" in the sentinel URL (ca=, cert=, "
          + "key=, tls-host=).")
    }
    if !parts.secure, let item = parts.query.first(where: { tlsItems.contains($0.name) }) {
      throw RedisError(
        .configuration,
        "\(item.name)= is a TLS setting and this is a plaintext redis-sentinel:// URL; use "
          + "rediss-sentinel://.")
    }
    let tls: TLS?
    if parts.secure {
      // The server name is each node's own host, filled in when connecting to it.
      tls = try Self.tls(
        host: parts.hosts[0].host, query: parts.query, environment: environment)
    } else {
      tls = nil
    }
    let endpoints = parts.hosts.map { Endpoint.tcp(host: $0.host, port: $0.port) }
    var password = parts.password.map { Secret($0) }
    if password == nil, let fromEnvironment = environment[Self.passwordEnvironmentVariable],
      !fromEnvironment.isEmpty
    {
      password = Secret(fromEnvironment)
    }
    var sentinelPassword: Secret?
    if let fromEnvironment = environment[Self.sentinelPasswordEnvironmentVariable],
      !fromEnvironment.isEmpty
    {
      sentinelPassword = Secret(fromEnvironment)
    }
    return RedisConfiguration(
      endpoint: endpoints[0], username: parts.username, password: password,
      database: parts.database, tls: tls,
      sentinel: Sentinel(
        endpoints: endpoints, masterName: parts.masterName, password: sentinelPassword, tls: tls),
      topologyHosts: try Self.topologyHosts(query: parts.query))
  }

  /// This configuration aimed at `endpoint` (the master the sentinels named, or a plain
  /// server): TLS verified against that endpoint's host, no sentinel.
  func aimed(at endpoint: Endpoint) -> RedisConfiguration {
    var aimed = self
    // The pattern stays the one of the URL, not one derived from the master's host.
    aimed.topologyHosts = topologyHostsInEffect
    aimed.endpoint = endpoint
    aimed.sentinel = nil
    if case .tcp(let host, _) = endpoint { aimed.tls?.serverName = host }
    return aimed
  }

  /// The configuration of a connection to one sentinel: its credentials and TLS, database 0.
  func sentinelConnection(to endpoint: Endpoint, of sentinel: Sentinel) -> RedisConfiguration {
    var aimed = aimed(at: endpoint)
    aimed.username = sentinel.username
    aimed.password = sentinel.password
    aimed.database = 0
    aimed.tls = sentinel.tls
    if case .tcp(let host, _) = endpoint { aimed.tls?.serverName = host }
    return aimed
  }
}

/// The parts of a `redis-sentinel://` URL, parsed strictly.
struct SentinelURL: Equatable {
  var secure: Bool
  var username: String?
  var password: String?
  var hosts: [Host]
  var database: Int
  var masterName: String
  var query: [(name: String, value: String?)]

  struct Host: Equatable {
    var host: String
    var port: UInt16
  }

  static func == (lhs: SentinelURL, rhs: SentinelURL) -> Bool {
    lhs.secure == rhs.secure && lhs.username == rhs.username && lhs.password == rhs.password
      && lhs.hosts == rhs.hosts && lhs.database == rhs.database
      && lhs.masterName == rhs.masterName
      && lhs.query.map(\.name) == rhs.query.map(\.name)
      && lhs.query.map(\.value) == rhs.query.map(\.value)
  }

  /// `redis-sentinel://[user[:password]@]host[:port][,host[:port]...][/db][?query]#master`.
  static func parse(_ text: String) throws(RedisError) -> SentinelURL {
    func fail(_ message: String) -> RedisError {
      RedisError(.configuration, "Sentinel URL: \(message)")
    }
    guard let schemeEnd = text.range(of: "://") else { throw fail("no scheme.") }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "redis-sentinel" || scheme == "rediss-sentinel" else {
      throw fail("expected redis-sentinel:// or rediss-sentinel://.")
    }
    var rest = Substring(text[schemeEnd.upperBound...])
    guard let hash = rest.firstIndex(of: "#") else {
      throw fail("the master name is missing (…#mastername).")
    }
    let fragment = rest[rest.index(after: hash)...]
    rest = rest[..<hash]
    guard let masterName = try decode(fragment, "master name"), !masterName.isEmpty else {
      throw fail("the master name is empty (…#mastername).")
    }
    guard !masterName.contains(where: { $0 == " " || $0.isNewline }) else {
      throw fail("the master name may not contain spaces.")
    }
    var query: [(name: String, value: String?)] = []
    if let mark = rest.firstIndex(of: "?") {
      for item in rest[rest.index(after: mark)...].split(separator: "&") {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query.append(
          (
            name: try decode(pair[0], "query item") ?? "",
            value: pair.count > 1 ? try decode(pair[1], "query value") : nil
          ))
      }
      rest = rest[..<mark]
    }
    var database = 0
    if let slash = rest.firstIndex(of: "/") {
      let path = rest[rest.index(after: slash)...]
      rest = rest[..<slash]
      if !path.isEmpty {
        guard path.allSatisfy(\.isASCII), path.allSatisfy(\.isNumber), let number = Int(path)
        else {
          throw fail("the database must be a number, not \"\(path.prefix(40))\".")
        }
        database = number
      }
    }
    var username: String?
    var password: String?
    if let at = rest.lastIndex(of: "@") {
      let userInfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
      if let colon = userInfo.firstIndex(of: ":") {
        username = try decode(userInfo[..<colon], "user")
        password = try decode(userInfo[userInfo.index(after: colon)...], "password")
      } else {
        username = try decode(userInfo, "user")
      }
      if username?.isEmpty == true { username = nil }
      if password?.isEmpty == true { password = nil }
    }
    guard !rest.isEmpty else { throw fail("no sentinel address.") }
    let hosts = try rest.split(separator: ",", omittingEmptySubsequences: false).map {
      (address) throws(RedisError) -> Host in try host(address)
    }
    return SentinelURL(
      secure: scheme == "rediss-sentinel", username: username, password: password,
      hosts: hosts, database: database, masterName: masterName, query: query)
  }

  /// `host`, `host:port`, `[v6]` or `[v6]:port`.
  static func host(_ text: Substring) throws(RedisError) -> Host {
    func fail(_ message: String) -> RedisError {
      RedisError(.configuration, "Sentinel URL: \(message)")
    }
    var name: Substring
    var portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else {
        throw fail("an IPv6 address lacks its \"]\".")
      }
      name = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw fail("junk after an IPv6 address.") }
        portText = after.dropFirst()
      }
    } else if let colon = text.firstIndex(of: ":") {
      name = text[..<colon]
      portText = text[text.index(after: colon)...]
    } else {
      name = text
    }
    guard !name.isEmpty else { throw fail("an empty sentinel address.") }
    let allowed = name.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0))
    }
    guard allowed else { throw fail("\"\(name.prefix(60))\" is not a host name or address.") }
    var port = RedisConfiguration.defaultSentinelPort
    if let portText {
      guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII),
        portText.allSatisfy(\.isNumber), let number = Int(portText), (1...65535).contains(number)
      else {
        throw fail("the port \"\(portText.prefix(10))\" is not a port number.")
      }
      port = UInt16(number)
    }
    return Host(host: String(name), port: port)
  }

  /// Percent-decodes `text`; malformed escapes are a configuration error.
  static func decode(_ text: Substring, _ what: String) throws(RedisError) -> String? {
    guard let decoded = String(text).removingPercentEncoding else {
      throw RedisError(.configuration, "Sentinel URL: a malformed %-escape in the \(what).")
    }
    return decoded
  }
}
