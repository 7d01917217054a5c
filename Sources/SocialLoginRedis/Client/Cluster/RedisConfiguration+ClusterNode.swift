import Foundation

extension RedisConfiguration {
  /// The configuration for one node of the cluster this configuration's endpoint belongs to:
  /// the same credentials, timeouts, pool size, limits and TLS files, with `endpoint` (as the
  /// cluster announced it).
  ///
  /// TLS: a node announced by a host name is verified against that name. A node announced by
  /// an IP address (Redis's default, `cluster-preferred-endpoint-type ip`) while the URL named
  /// a host name is verified against the URL's host name: the address came from a node that
  /// proved that name, and the cluster's nodes share its certificate (a wildcard or one name
  /// for all, as managed services issue them). Verification is never skipped; a node whose
  /// certificate fits neither fails with ``RedisError/Kind/tlsHostNameMismatch``.
  func clusterNode(_ endpoint: Endpoint) -> RedisConfiguration {
    var node = self
    // The pattern stays the one of the URL, not one derived from this node's host.
    node.topologyHosts = topologyHostsInEffect
    node.endpoint = endpoint
    if var tls = node.tls, case .tcp(let host, _) = endpoint {
      if !(Self.isIPAddress(host) && !Self.isIPAddress(tls.serverName)) {
        tls.serverName = host
      }
      node.tls = tls
    }
    return node
  }

  /// Whether `host` is an IPv4 or IPv6 address literal (not a DNS name).
  static func isIPAddress(_ host: String) -> Bool {
    if host.contains(":") { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
  }
}
