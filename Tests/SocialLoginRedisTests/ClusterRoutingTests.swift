import Testing

@testable import SocialLoginRedis

/// The cluster client's pure decisions: hash slots, which key a command is routed by, slot
/// maps (hostile ones included), redirects and their bounded retries.
@Suite struct ClusterRoutingTests {
  @Test func crc16AndSlotsMatchTheClusterSpecification() {
    #expect(HashSlot.crc16(Array("123456789".utf8)) == 0x31C3)
    #expect(HashSlot.slot(of: "foo") == 12182)
    #expect(HashSlot.slot(of: "bar") == 5061)
    #expect(HashSlot.slot(of: "somekey") == 11058)
    #expect(HashSlot.slot(of: "foo{hash_tag}") == 2515)
    #expect(HashSlot.slot(of: "") == 0)
  }

  @Test func aHashTagIsTheFirstNonEmptyBraces() {
    #expect(HashSlot.slot(of: "{user1000}.following") == HashSlot.slot(of: "{user1000}.followers"))
    #expect(HashSlot.slot(of: "{user1000}.following") == HashSlot.slot(of: "user1000"))
    #expect(HashSlot.slot(of: "foo{}{bar}") == HashSlot.slot(of: Array("foo{}{bar}".utf8)))
    #expect(HashSlot.hashedPart(of: Array("foo{}{bar}".utf8)).elementsEqual("foo{}{bar}".utf8))
    #expect(HashSlot.hashedPart(of: Array("foo{{bar}}zap".utf8)).elementsEqual("{bar".utf8))
    #expect(HashSlot.hashedPart(of: Array("foo{bar}{zap}".utf8)).elementsEqual("bar".utf8))
    #expect(HashSlot.hashedPart(of: Array("foo{bar".utf8)).elementsEqual("foo{bar".utf8))
  }

  @Test func everyKeyOfOneSessionIsInOneSlot() {
    let keys = RedisKeys(prefix: "p")
    let tag = "0123456789abcdef0123456789abcdef"
    let slots = Set(
      [
        keys.session(tag: tag), keys.lease(tag: tag), keys.spendClaim(tag: tag),
        keys.corrupt(tag: tag, suffix: "1-ab"),
      ]
      .map { HashSlot.slot(of: $0) })
    #expect(slots.count == 1)
  }

  @Test func commandsAreRoutedByTheirKey() {
    #expect(RedisCommand(["HMGET", "k", "v", "d"]).routingKey == Array("k".utf8))
    #expect(RedisCommand(["EVALSHA", "sha", "2", "a", "b", "x"]).routingKey == Array("a".utf8))
    #expect(RedisCommand(["EVAL", "return 1", "0"]).routingKey == nil)
    #expect(RedisCommand(["EVAL", "return 1", "x", "k"]).routingKey == nil, "garbage numkeys")
    #expect(RedisCommand(["PING"]).routingKey == nil)
    #expect(RedisCommand(["CLUSTER", "SLOTS"]).routingKey == nil)
    #expect(RedisCommand(["publish", "c", "m"]).routingKey == nil)
    #expect(RedisCommand(["SPUBLISH", "c", "m"]).routingKey == Array("c".utf8))
  }

  static func slots(_ ranges: [(Int64, Int64, String, Int64)]) -> RESPValue {
    .array(
      ranges.map { start, end, host, port in
        .array([
          .integer(start), .integer(end),
          .array([.bulkString(Array(host.utf8)), .integer(port), .bulkString(Array("id".utf8))]),
        ])
      })
  }

  @Test func aSlotsReplyBecomesAMap() throws {
    let map = try ClusterSlotMap.parse(
      slots: Self.slots([(0, 5460, "10.0.0.1", 7000), (5461, 16383, "", 7001)]),
      askedHost: "seed")
    #expect(map.master(for: 0) == .tcp(host: "10.0.0.1", port: 7000))
    #expect(map.master(for: 5460) == .tcp(host: "10.0.0.1", port: 7000))
    #expect(map.master(for: 5461) == .tcp(host: "seed", port: 7001), "empty host: the asked one")
    #expect(map.master(for: 16383) == .tcp(host: "seed", port: 7001))
    #expect(map.assignedSlots == HashSlot.count)
    #expect(map.masters.count == 2)
  }

  @Test func aRangeWithAnUnknownMasterIsLeftUnassigned() throws {
    let map = try ClusterSlotMap.parse(
      slots: Self.slots([(0, 99, "?", 7000), (100, 16383, "h", 7001)]), askedHost: "seed")
    #expect(map.master(for: 50) == nil)
    #expect(map.master(for: 100) == .tcp(host: "h", port: 7001))
  }

  @Test(arguments: [
    RESPValue.integer(1),
    .error("ERR nope"),
    .array([.integer(1)]),
    slots([(5, 2, "h", 1)]),
    slots([(0, 16384, "h", 1)]),
    slots([(-1, 3, "h", 1)]),
    slots([(0, 10, "h", 0)]),
    slots([(0, 10, "h", 70000)]),
    slots([(0, 10, "bad host", 1)]),
    slots([(0, 10, "h\r\nx", 1)]),
    slots([(0, 10, String(repeating: "a", count: 300), 1)]),
    slots([(0, 10, "h", 1), (10, 20, "h", 2)]),
    .array([.array([.integer(0), .integer(1), .integer(7)])]),
    .array([.array([.integer(0), .integer(1), .array([.integer(1), .integer(7)])])]),
  ])
  func aHostileSlotsReplyIsATypedError(reply: RESPValue) {
    let error = #expect(throws: RedisError.self) {
      try ClusterSlotMap.parse(slots: reply, askedHost: "seed")
    }
    #expect(error?.kind == .unexpectedReply)
  }

  @Test func redirectsAreRead() throws {
    #expect(
      try ClusterRedirect.of(.error("MOVED 3999 127.0.0.1:6381"), currentHost: "x")
        == .moved(slot: 3999, to: .tcp(host: "127.0.0.1", port: 6381)))
    #expect(
      try ClusterRedirect.of(.error("ASK 3999 10.0.0.2:7000"), currentHost: "x")
        == .ask(slot: 3999, to: .tcp(host: "10.0.0.2", port: 7000)))
    #expect(
      try ClusterRedirect.of(.error("MOVED 1 :7002"), currentHost: "node-a")
        == .moved(slot: 1, to: .tcp(host: "node-a", port: 7002)), "empty host: the same node")
    #expect(
      try ClusterRedirect.of(.error("MOVED 1 2001:db8::1:7002"), currentHost: "x")
        == .moved(slot: 1, to: .tcp(host: "2001:db8::1", port: 7002)))
    #expect(try ClusterRedirect.of(.error("TRYAGAIN Multiple keys"), currentHost: "x") == .tryAgain)
    #expect(
      try ClusterRedirect.of(.error("CLUSTERDOWN The cluster is down"), currentHost: "x")
        == .clusterDown)
    #expect(try ClusterRedirect.of(.error("ERR wrong"), currentHost: "x") == nil)
    #expect(try ClusterRedirect.of(.error("MOVEDX 1 h:1"), currentHost: "x") == nil)
    #expect(try ClusterRedirect.of(.simpleString("MOVED 1 h:1"), currentHost: "x") == nil)
  }

  @Test(arguments: [
    "MOVED", "MOVED 1", "MOVED x h:1", "MOVED 16384 h:1", "MOVED 1 h", "MOVED 1 h:0",
    "MOVED 1 h:99999", "MOVED 1 h:1 extra", "ASK 1 bad\u{1}host:1", "MOVED -1 h:1",
    "ASK 1 " + String(repeating: "a", count: 300) + ":1",
  ])
  func aMalformedRedirectIsATypedError(message: String) {
    let error = #expect(throws: RedisError.self) {
      try ClusterRedirect.of(.error(message), currentHost: "x")
    }
    #expect(error?.kind == .unexpectedReply)
  }

  @Test func movedRefreshesTheMapAndAskDoesNot() {
    var retry = ClusterRetry()
    let target = RedisConfiguration.Endpoint.tcp(host: "h", port: 1)
    #expect(
      retry.next(after: .moved(slot: 1, to: target))
        == .redirect(to: target, asking: false, refreshMap: true))
    #expect(
      retry.next(after: .ask(slot: 1, to: target))
        == .redirect(to: target, asking: true, refreshMap: false))
  }

  @Test func redirectsAndRetriesAreBounded() {
    var retry = ClusterRetry()
    let target = RedisConfiguration.Endpoint.tcp(host: "h", port: 1)
    for _ in 0..<ClusterRetry.maximumRedirects {
      #expect(retry.next(after: .moved(slot: 1, to: target)) != .giveUp)
    }
    #expect(retry.next(after: .moved(slot: 1, to: target)) == .giveUp, "a redirect loop ends")
    var delays: [Duration] = []
    for _ in 0..<ClusterRetry.maximumRetries {
      guard case .retry(let delay, let refresh) = retry.next(after: .clusterDown) else {
        Issue.record("expected a retry")
        return
      }
      #expect(refresh)
      delays.append(delay)
    }
    #expect(retry.next(after: .clusterDown) == .giveUp)
    #expect(delays.first == .milliseconds(25))
    #expect(delays.max() == .milliseconds(400))
    var tryAgain = ClusterRetry()
    #expect(tryAgain.next(after: .tryAgain) == .retry(after: .milliseconds(25), refreshMap: false))
  }

  @Test func aNodeAnnouncedByAddressIsVerifiedAgainstTheURLsName() throws {
    let seed = try RedisConfiguration(
      url: "rediss://app:pw@cache.example.net:6380", environment: [:])
    let byAddress = seed.clusterNode(.tcp(host: "10.0.0.7", port: 6380))
    #expect(byAddress.tls?.serverName == "cache.example.net")
    #expect(byAddress.endpoint == .tcp(host: "10.0.0.7", port: 6380))
    #expect(byAddress.username == "app" && byAddress.password?.revealed == "pw")
    let byName = seed.clusterNode(.tcp(host: "node-2.example.net", port: 6380))
    #expect(byName.tls?.serverName == "node-2.example.net")
    let seedByAddress = try RedisConfiguration(url: "rediss://10.0.0.1:6380", environment: [:])
    #expect(
      seedByAddress.clusterNode(.tcp(host: "10.0.0.2", port: 1)).tls?.serverName == "10.0.0.2")
    let plain = try RedisConfiguration(url: "redis://10.0.0.1:6379", environment: [:])
    #expect(plain.clusterNode(.tcp(host: "10.0.0.2", port: 1)).tls == nil)
  }
}
