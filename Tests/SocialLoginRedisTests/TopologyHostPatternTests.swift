import Testing

@testable import SocialLoginRedis

/// `tls-host=` and the pattern derived from the URL's host: RFC 6125 wildcards only, parsed
/// strictly; `ca=` and `ca=system` as the URL says them. Pure: no sockets.
@Suite struct TopologyHostPatternTests {
  typealias HostPattern = RedisConfiguration.HostPattern

  @Test(arguments: [
    "a*.example.com", "*a.example.com", "node.*.example.com", "*.*.example.com", "*", "*.com",
    "*.", "", ",", "a,,b", "exa mple.com", "-bad.example.com", "ex@mple.com", "1.2.3.x:",
  ])
  func aPartialOrMisplacedWildcardOrAnInvalidItemIsAConfigurationError(text: String) {
    let error = #expect(throws: RedisError.self) { try HostPattern(parsing: text) }
    #expect(error?.kind == .configuration, "\(text)")
  }

  @Test func aWildcardMatchesExactlyOneWholeLabelCaseInsensitively() throws {
    let pattern = try HostPattern(parsing: "*.Cache.Example.COM")
    #expect(pattern.matches("node1.cache.example.com"))
    #expect(pattern.matches("NODE-2.CACHE.EXAMPLE.COM"))
    #expect(pattern.matches("node3.cache.example.com."), "a trailing dot is the same name")
    #expect(!pattern.matches("cache.example.com"), "the wildcard needs a label")
    #expect(!pattern.matches("a.b.cache.example.com"), "never across a dot")
    #expect(!pattern.matches(".cache.example.com"))
    #expect(!pattern.matches("node1.cache.example.com.attacker.example"))
    #expect(!pattern.matches("node1-cache.example.com"))
    #expect(!pattern.matches("evilcache.example.com"))
    #expect(!pattern.matches("10.0.0.5"), "no address without ip")
    #expect(!pattern.matches(""))
  }

  @Test func exactHostsAddressesAndIPCombine() throws {
    let pattern = try HostPattern(parsing: "Redis.Example.net,10.0.0.5,[::1]")
    #expect(pattern.matches("redis.example.net"))
    #expect(!pattern.matches("other.example.net"))
    #expect(pattern.matches("10.0.0.5"))
    #expect(!pattern.matches("10.0.0.6"))
    #expect(pattern.matches("::1"))
    let addresses = try HostPattern(parsing: "ip")
    #expect(addresses.matches("10.0.0.6"))
    #expect(addresses.matches("fe80::1"))
    #expect(!addresses.matches("attacker.example"))
  }

  @Test func theDefaultIsTheURLHostsDomainOrAnyAddressForAnAddress() {
    let named = HostPattern.derived(from: ["node1.cache.example.com"])
    #expect(named.matches("node1.cache.example.com"))
    #expect(named.matches("node7.cache.example.com"))
    #expect(!named.matches("cache.example.com"))
    #expect(!named.matches("node1.example.com"))
    #expect(!named.matches("attacker.example"))
    #expect(!named.matches("10.0.0.5"))
    // A wildcard is never derived over fewer than two labels.
    let short = HostPattern.derived(from: ["example.com"])
    #expect(short.matches("example.com"))
    #expect(!short.matches("other.com"))
    let local = HostPattern.derived(from: ["localhost"])
    #expect(local.matches("localhost"))
    #expect(!local.matches("127.0.0.1"))
    let address = HostPattern.derived(from: ["127.0.0.1"])
    #expect(address.matches("10.1.2.3"))
    #expect(address.matches("::1"))
    #expect(!address.matches("localhost"))
    #expect(!address.matches("attacker.example"))
  }

  @Test func theURLSetsThePatternForEveryTopologyScheme() throws {
    let tls = try RedisConfiguration(
      url: "rediss://node1.cache.example.com:6380?tls-host=*.cache.example.com,ip&tls-host=x.test",
      environment: [:])
    let pattern = try #require(tls.topologyHosts)
    #expect(pattern.wildcardDomains == ["cache.example.com"])
    #expect(pattern.names == ["x.test"])
    #expect(pattern.allowsIPAddresses)
    // Plaintext too: the password is sent there in the clear.
    let plain = try RedisConfiguration(url: "redis://10.0.0.1?tls-host=*.a.test", environment: [:])
    #expect(plain.topologyHostsInEffect.matches("n.a.test"))
    #expect(!plain.topologyHostsInEffect.matches("10.0.0.2"), "the URL's list replaces the default")
    let sentinel = try RedisConfiguration(
      url: "redis-sentinel://10.0.0.1,10.0.0.2?tls-host=db.internal#m", environment: [:])
    #expect(sentinel.topologyHostsInEffect.matches("db.internal"))
    #expect(!sentinel.topologyHostsInEffect.matches("10.0.0.9"))
    // Without tls-host=, the sentinels' hosts give the default; it survives aiming at a master.
    let derived = try RedisConfiguration(
      url: "redis-sentinel://s1.db.example.com,10.0.0.2#m", environment: [:])
    #expect(derived.topologyHostsInEffect.matches("master.db.example.com"))
    #expect(derived.topologyHostsInEffect.matches("10.0.0.9"))
    let aimed = derived.aimed(at: .tcp(host: "10.0.0.9", port: 6379))
    #expect(!aimed.topologyHostsInEffect.matches("x.attacker.example"))
    #expect(aimed.topologyHostsInEffect.matches("master.db.example.com"))
    let node = try RedisConfiguration(url: "redis://a.b.example.com", environment: [:])
      .clusterNode(.tcp(host: "c.other.example.com", port: 1))
    #expect(!node.topologyHostsInEffect.matches("d.other.example.com"))
    #expect(node.topologyHostsInEffect.matches("d.b.example.com"))
    for url in [
      "rediss://h.example.com?tls-host=a*.example.com", "redis://h?tls-host=",
      "redis-sentinel://h?tls-host=*.com#m",
    ] {
      let error = #expect(throws: RedisError.self) {
        try RedisConfiguration(url: url, environment: [:])
      }
      #expect(error?.kind == .configuration, "\(url)")
    }
  }

  @Test func aCAFileIsExclusiveAndCASystemAddsTheSystemsRoots() throws {
    let exclusive = try #require(
      try RedisConfiguration(url: "rediss://h?ca=/ca.pem", environment: [:]).tls)
    #expect(exclusive.caFile == "/ca.pem")
    #expect(!exclusive.trustsSystemRoots)
    for url in ["rediss://h?ca=/ca.pem&ca=system", "rediss://h?ca=system&ca=/ca.pem"] {
      let both = try #require(try RedisConfiguration(url: url, environment: [:]).tls)
      #expect(both.caFile == "/ca.pem")
      #expect(both.trustsSystemRoots)
    }
    let fromEnvironment = try #require(
      try RedisConfiguration(
        url: "rediss://h",
        environment: [RedisConfiguration.caFileEnvironmentVariable: "/e.pem,system"]
      ).tls)
    #expect(fromEnvironment.caFile == "/e.pem")
    #expect(fromEnvironment.trustsSystemRoots)
    let onlyEnvironmentFile = try #require(
      try RedisConfiguration(
        url: "rediss://h", environment: [RedisConfiguration.caFileEnvironmentVariable: "/e.pem"]
      ).tls)
    #expect(!onlyEnvironmentFile.trustsSystemRoots)
    let error = #expect(throws: RedisError.self) {
      try RedisConfiguration(url: "rediss://h?ca=/a.pem&ca=/b.pem", environment: [:])
    }
    #expect(error?.kind == .configuration)
  }
}
