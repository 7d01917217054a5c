import SocialLogin
import Testing

@testable import SocialLoginRedis

/// `redis-sentinel://` and `rediss-sentinel://` URLs, and what sentinels' replies mean: pure
/// decisions, no server.
@Suite(.timeLimit(.minutes(1))) struct RedisSentinelConfigurationTests {
  @Test func aSentinelURLNamesTheSentinelsTheMasterAndItsCredentials() throws {
    let configuration = try RedisConfiguration(
      url: "redis-sentinel://app:p%40ss@10.0.0.1:26380,sentinel-b,[::1]:5000/3#sess%2Dions",
      environment: [:])
    let sentinel = try #require(configuration.sentinel)
    #expect(
      sentinel.endpoints == [
        .tcp(host: "10.0.0.1", port: 26380), .tcp(host: "sentinel-b", port: 26379),
        .tcp(host: "::1", port: 5000),
      ])
    #expect(sentinel.masterName == "sess-ions")
    #expect(sentinel.password == nil, "the URL's credentials are the master's")
    #expect(configuration.username == "app")
    #expect(configuration.password?.revealed == "p@ss")
    #expect(configuration.database == 3)
    #expect(configuration.tls == nil && sentinel.tls == nil)
  }

  @Test func theDatabaseIsOptionalAndPasswordsMayComeFromTheEnvironment() throws {
    let environment = [
      RedisConfiguration.passwordEnvironmentVariable: "master-secret",
      RedisConfiguration.sentinelPasswordEnvironmentVariable: "sentinel-secret",
    ]
    let configuration = try RedisConfiguration(
      url: "REDIS-SENTINEL://h1:1,h2:2#m", environment: environment)
    #expect(configuration.database == 0)
    #expect(configuration.password?.revealed == "master-secret")
    #expect(configuration.sentinel?.password?.revealed == "sentinel-secret")
    #expect(configuration.sentinel?.endpoints.count == 2)
  }

  @Test func aRedissSentinelURLVerifiesEveryNodeWithTheSameFiles() throws {
    let configuration = try RedisConfiguration(
      url: "rediss-sentinel://s1.example.net:26379,s2.example.net/0?ca=/etc/ca.pem#m",
      environment: [:])
    #expect(configuration.tls?.caFile == "/etc/ca.pem")
    #expect(configuration.sentinel?.tls?.caFile == "/etc/ca.pem")
    let sentinel = try #require(configuration.sentinel)
    let toSecond = configuration.sentinelConnection(to: sentinel.endpoints[1], of: sentinel)
    #expect(toSecond.tls?.serverName == "s2.example.net")
    let toMaster = configuration.aimed(at: .tcp(host: "10.1.2.3", port: 6379))
    #expect(toMaster.tls?.serverName == "10.1.2.3")
    #expect(toMaster.sentinel == nil)
    // The CA variable applies to a TLS sentinel URL only; it never turns TLS on.
    let environment = [RedisConfiguration.caFileEnvironmentVariable: "/env/ca.pem"]
    let plain = try RedisConfiguration(url: "redis-sentinel://h#m", environment: environment)
    #expect(plain.tls == nil && plain.sentinel?.tls == nil)
  }

  @Test(arguments: [
    "redis-sentinel://h:26379", "redis-sentinel://h#", "redis-sentinel://#m",
    "redis-sentinel://h,#m", "redis-sentinel://,h#m", "redis-sentinel://h:0#m",
    "redis-sentinel://h:65536#m", "redis-sentinel://h:x#m", "redis-sentinel://h:#m",
    "redis-sentinel://h/x#m", "redis-sentinel://h/-1#m", "redis-sentinel://h?ca=/c.pem#m",
    "rediss-sentinel://h?colour=blue#m", "rediss-sentinel://h?cert=/c.pem#m",
    "redis-sentinel://[::1#m", "redis-sentinel://[::1]x#m", "redis-sentinel://h%zz#m",
    "redis-sentinel://a b#m", "redis-sentinel://h#m%20n", "redis-sentinel://u:%zz@h#m",
  ])
  func invalidSentinelURLsAreConfigurationErrors(url: String) {
    let error = #expect(throws: RedisError.self) {
      try RedisConfiguration(url: url, environment: [:])
    }
    #expect(error?.kind == .configuration)
  }

  @Test func aMasterAddressReplyIsAHostAndAPortOrNothing() throws {
    #expect(
      try SentinelReplies.masterAddress(
        .array([.bulkString(Array("10.0.0.9".utf8)), .bulkString(Array("6380".utf8))]))
        == .tcp(host: "10.0.0.9", port: 6380))
    #expect(try SentinelReplies.masterAddress(.null) == nil)
    let garbage: [RESPValue] = [
      .integer(1), .array([]), .array([.bulkString(Array("h".utf8))]),
      .array([.bulkString(Array("h".utf8)), .bulkString(Array("99999".utf8))]),
      .array([.bulkString(Array("h".utf8)), .bulkString(Array("-1".utf8))]),
      .array([.bulkString(Array("a b".utf8)), .bulkString(Array("1".utf8))]),
      .array([.bulkString([]), .bulkString(Array("1".utf8))]),
      .array([.integer(1), .integer(2)]),
    ]
    for reply in garbage {
      let error = #expect(throws: RedisError.self) { try SentinelReplies.masterAddress(reply) }
      #expect(error?.kind == .unexpectedReply, "\(reply)")
    }
    let refused = #expect(throws: RedisError.self) {
      try SentinelReplies.masterAddress(.error("ERR unknown command"))
    }
    #expect(refused?.kind == .server)
  }

  @Test func aSwitchMasterMessageMovesOnlyOurMaster() throws {
    #expect(
      try SentinelReplies.switchMaster(
        Array("m 127.0.0.1 6379 127.0.0.1 6380".utf8), masterName: "m")
        == .tcp(host: "127.0.0.1", port: 6380))
    #expect(
      try SentinelReplies.switchMaster(
        Array("other 127.0.0.1 6379 127.0.0.1 6380".utf8), masterName: "m") == nil)
    for garbage in ["", "m 1 2 3", "m a 1 b 70000", String(repeating: "x", count: 2000)] {
      #expect(throws: RedisError.self) {
        try SentinelReplies.switchMaster(Array(garbage.utf8), masterName: "m")
      }
    }
  }

  @Test func roleTellsAMasterAndItsReplicasFromAnythingElse() throws {
    let replica: RESPValue = .array([
      .bulkString(Array("127.0.0.1".utf8)), .bulkString(Array("6380".utf8)),
      .bulkString(Array("0".utf8)),
    ])
    #expect(
      try SentinelReplies.role(
        .array([.bulkString(Array("master".utf8)), .integer(5), .array([replica])]))
        == .master(replicas: 1))
    #expect(
      try SentinelReplies.role(
        .array([.bulkString(Array("master".utf8)), .integer(0), .array([])]))
        == .master(replicas: 0))
    #expect(
      try SentinelReplies.role(.array([.bulkString(Array("slave".utf8)), .integer(1)]))
        == .other("slave"))
    for garbage: RESPValue in [
      .null, .integer(3), .array([]), .array([.bulkString(Array("master".utf8))]),
      .array([.bulkString(Array("master".utf8)), .integer(1), .integer(2)]),
    ] {
      #expect(throws: RedisError.self) { try SentinelReplies.role(garbage) }
    }
  }

  @Test func theSentinelThatAnsweredLastIsAskedFirst() {
    #expect(SentinelReplies.order(count: 3, preferred: 0) == [0, 1, 2])
    #expect(SentinelReplies.order(count: 3, preferred: 2) == [2, 0, 1])
    #expect(SentinelReplies.order(count: 3, preferred: 7) == [0, 1, 2])
    #expect(SentinelReplies.order(count: 0, preferred: 0) == [])
  }

  @Test func onlyReadOnlyAndNoReplicasErrorsMeanAFormerMaster() {
    #expect(
      SentinelReplies.refusesWrites(.error("READONLY You can't write against a read only replica."))
    )
    #expect(SentinelReplies.refusesWrites(.error("NOREPLICAS Not enough good replicas to write.")))
    #expect(!SentinelReplies.refusesWrites(.error("ERR nope")))
    #expect(!SentinelReplies.refusesWrites(.simpleString("READONLY")))
  }
}
