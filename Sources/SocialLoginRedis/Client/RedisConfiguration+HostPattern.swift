extension RedisConfiguration {
  /// The hosts a topology may send this client to: the masters sentinels name (in answers and
  /// `+switch-master`), the nodes a cluster announces in `CLUSTER SLOTS`, and `MOVED`/`ASK`
  /// targets. A host outside the pattern is refused with
  /// ``RedisError/Kind/topologyOutsidePattern`` before anything (a connection, a TLS hello,
  /// `AUTH`) is sent to it: sentinels and cluster nodes are untrusted peers, and a sentinel
  /// without `requirepass` could otherwise hand the master's password to any host that holds a
  /// certificate the client trusts (or, in plaintext, to any host at all).
  ///
  /// Set with the URL's `tls-host=` query item (a comma-separated list, the item may repeat;
  /// it applies to `redis://` as well as `rediss://`, since the password is sent in both):
  ///
  /// ```swift
  /// // Nodes named node1.cache.example.com, node2.cache.example.com, ... or any IP address:
  /// let configuration = try RedisConfiguration(
  ///   url: "rediss://node1.cache.example.com:6380?ca=/etc/redis-ca.pem&tls-host=*.cache.example.com,ip")
  /// ```
  ///
  /// Each item is one of:
  /// - `*.cache.example.com`: any host of exactly one more label (`a.cache.example.com`, not
  ///   `a.b.cache.example.com` nor `cache.example.com`), as a certificate wildcard matches
  ///   (RFC 6125 §6.4.3). The wildcard is only ever the whole leftmost label and the rest
  ///   has at least two labels: `a*.example.com`, `*.com` or `node.*.example.com` are
  ///   ``RedisError/Kind/configuration`` errors.
  /// - `node1.cache.example.com` or `10.0.0.5`: that host exactly.
  /// - `ip`: any IPv4 or IPv6 address literal.
  ///
  /// Names match case-insensitively, with a trailing dot ignored.
  ///
  /// Without `tls-host=` the pattern is derived from the URL's host (each sentinel's host for a
  /// sentinel URL): a DNS name `node1.cache.example.com` allows itself and
  /// `*.cache.example.com` (only itself when its parent has fewer than two labels, as for
  /// `localhost` or `example.com`); an IP address allows any IP address literal and no names
  /// (sentinels and clusters announce addresses by default). A deployment whose sentinels or
  /// nodes announce IP addresses behind a DNS-named URL needs `tls-host=...,ip`.
  public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// Hosts allowed exactly (lowercased, without a trailing dot or IPv6 brackets).
    public private(set) var names: Set<String> = []
    /// The domains of `*.` wildcards (`cache.example.com` for `*.cache.example.com`).
    public private(set) var wildcardDomains: Set<String> = []
    /// Whether any IP address literal is allowed (`ip`).
    public private(set) var allowsIPAddresses = false

    /// A pattern that allows nothing; add to it with ``init(parsing:)``.
    public init() {}

    /// Parses a comma-separated list of items (see the type's documentation).
    ///
    /// - Throws: ``RedisError/Kind/configuration`` for an empty list or item, a partial or
    ///   misplaced wildcard, a wildcard over fewer than two labels, or an item that is not a
    ///   host name, an IP address or `ip`.
    public init(parsing text: String) throws(RedisError) {
      try add(text)
    }

    /// Adds the comma-separated items of `text` (a repeated `tls-host=`).
    mutating func add(_ text: String) throws(RedisError) {
      func fail(_ why: String) -> RedisError {
        RedisError(.configuration, "tls-host=\(text.prefix(100)): \(why)")
      }
      guard !text.isEmpty else { throw fail("the list is empty.") }
      for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
        let item = Self.normalized(String(raw))
        guard !item.isEmpty else { throw fail("an empty item.") }
        if item == "ip" {
          allowsIPAddresses = true
        } else if item.hasPrefix("*.") {
          let domain = String(item.dropFirst(2))
          guard !domain.contains("*") else {
            throw fail("\"\(item.prefix(60))\": a wildcard may only be the leftmost label.")
          }
          guard Self.isHostName(domain) else {
            throw fail("\"\(item.prefix(60))\" is not a wildcard over a host name.")
          }
          guard domain.split(separator: ".").count >= 2 else {
            throw fail(
              "\"\(item.prefix(60))\": a wildcard must be over at least two labels "
                + "(*.example.com, not *.com).")
          }
          wildcardDomains.insert(domain)
        } else if item.contains("*") {
          throw fail(
            "\"\(item.prefix(60))\": a wildcard must be the whole leftmost label "
              + "(*.example.com); partial wildcards are refused.")
        } else if RedisConfiguration.isIPAddress(item) {
          guard Self.isAddressText(item) else {
            throw fail("\"\(item.prefix(60))\" is not an IP address.")
          }
          names.insert(item)
        } else {
          guard Self.isHostName(item) else {
            throw fail("\"\(item.prefix(60))\" is not a host name, an IP address or ip.")
          }
          names.insert(item)
        }
      }
    }

    /// The default pattern of a URL whose host (or sentinels' hosts) are `hosts`: each DNS
    /// name and its parent domain's wildcard (when that domain has at least two labels), and
    /// any IP address literal when a host is one.
    public static func derived(from hosts: [String]) -> HostPattern {
      var pattern = HostPattern()
      for host in hosts.map(normalized) where !host.isEmpty {
        if RedisConfiguration.isIPAddress(host) {
          pattern.allowsIPAddresses = true
          continue
        }
        pattern.names.insert(host)
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count >= 3 {
          pattern.wildcardDomains.insert(labels.dropFirst().joined(separator: "."))
        }
      }
      return pattern
    }

    /// Whether `host` (as a node or sentinel announced it) is allowed.
    public func matches(_ host: String) -> Bool {
      let host = Self.normalized(host)
      guard !host.isEmpty else { return false }
      if names.contains(host) { return true }
      if RedisConfiguration.isIPAddress(host) { return allowsIPAddresses }
      // A wildcard stands for exactly one whole, non-empty label: never across a dot.
      guard let dot = host.firstIndex(of: "."), dot != host.startIndex else { return false }
      return wildcardDomains.contains(String(host[host.index(after: dot)...]))
    }

    /// The items, sorted, comma-separated (as `tls-host=` takes them).
    public var description: String {
      (names.sorted() + wildcardDomains.sorted().map { "*.\($0)" }
        + (allowsIPAddresses ? ["ip"] : [])).joined(separator: ",")
    }

    /// Lowercased, without IPv6 brackets or a trailing dot.
    static func normalized(_ host: String) -> String {
      var host = host.lowercased()
      if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 {
        host = String(host.dropFirst().dropLast())
      }
      if host.hasSuffix("."), host.count > 1 { host.removeLast() }
      return host
    }

    /// LDH labels of 1 to 63 characters (and `_`, which some internal zones use), at most
    /// 253 characters.
    static func isHostName(_ name: String) -> Bool {
      guard (1...253).contains(name.utf8.count) else { return false }
      return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
        (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
          && label.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
              UInt8(ascii: "-"), UInt8(ascii: "_"):
              return true
            default: return false
            }
          }
      }
    }

    /// Hex digits, `.`, `:` (and `%` for a zone): what an address literal is written with.
    static func isAddressText(_ text: String) -> Bool {
      text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
          UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "%"):
          return true
        default: return false
        }
      }
    }
  }

  /// The pattern in force: ``topologyHosts``, or the one derived from the URL's host (each
  /// sentinel's host with sentinels). A Unix socket allows nothing.
  var topologyHostsInEffect: HostPattern {
    if let topologyHosts { return topologyHosts }
    var hosts: [String] = []
    for endpoint in sentinel?.endpoints ?? [endpoint] {
      if case .tcp(let host, _) = endpoint { hosts.append(host) }
    }
    return .derived(from: hosts)
  }

  /// ``RedisError/Kind/topologyOutsidePattern`` unless `endpoint`'s host is allowed.
  func checkTopologyHost(_ endpoint: Endpoint, namedBy who: String) throws(RedisError) {
    let pattern = topologyHostsInEffect
    guard case .tcp(let host, _) = endpoint, pattern.matches(host) else {
      throw RedisError(
        .topologyOutsidePattern,
        "\(who) named \(endpoint), which is outside the allowed hosts (\(pattern)); nothing "
          + "was sent to it. Add it with the URL's tls-host= (e.g. tls-host=*.example.com or "
          + "tls-host=ip) if it is yours.")
    }
  }

  /// The `tls-host=` items of a URL's query, or `nil` when there are none.
  static func topologyHosts(query: [(name: String, value: String?)]) throws(RedisError)
    -> HostPattern?
  {
    let items = query.filter { $0.name == "tls-host" }
    guard !items.isEmpty else { return nil }
    var pattern = HostPattern()
    for item in items { try pattern.add(item.value ?? "") }
    return pattern
  }
}
