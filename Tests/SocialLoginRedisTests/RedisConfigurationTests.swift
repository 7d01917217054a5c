import SocialLogin
import Testing

@testable import SocialLoginRedis

@Suite(.timeLimit(.minutes(1))) struct RedisConfigurationTests {
  @Test func redisURLCarriesUserPasswordHostPortAndDatabase() throws {
    let configuration = try RedisConfiguration(
      url: "redis://app:p%40ss@10.0.0.5:6380/3", environment: [:])
    #expect(configuration.endpoint == .tcp(host: "10.0.0.5", port: 6380))
    #expect(configuration.username == "app")
    #expect(configuration.password?.revealed == "p@ss")
    #expect(configuration.database == 3)
  }

  @Test func defaultsAreLocalPort6379AndDatabase0() throws {
    let configuration = try RedisConfiguration(url: "redis://cache", environment: [:])
    #expect(configuration.endpoint == .tcp(host: "cache", port: 6379))
    #expect(configuration.database == 0)
    #expect(configuration.password == nil)
  }

  @Test func passwordComesFromTheEnvironmentWhenTheURLHasNone() throws {
    let environment = [RedisConfiguration.passwordEnvironmentVariable: "from-env"]
    let plain = try RedisConfiguration(url: "redis://h:1/0", environment: environment)
    #expect(plain.password?.revealed == "from-env")
    let explicit = try RedisConfiguration(url: "redis://:inline@h:1/0", environment: environment)
    #expect(explicit.password?.revealed == "inline")
  }

  @Test func unixURLCarriesPathDatabaseAndUser() throws {
    let configuration = try RedisConfiguration(
      url: "unix:///run/redis/redis.sock?db=2&user=svc", environment: [:])
    #expect(configuration.endpoint == .unix(path: "/run/redis/redis.sock"))
    #expect(configuration.database == 2)
    #expect(configuration.username == "svc")
  }

  @Test(arguments: [
    "rediss://secure:6379", "http://h", "redis://", "redis://h/abc", "redis://h/-1",
    "unix://", "unix:///s?db=x", "unix:///s?colour=blue", "not a url",
  ])
  func invalidURLsAreConfigurationErrors(url: String) {
    let error = #expect(throws: RedisError.self) {
      try RedisConfiguration(url: url, environment: [:])
    }
    #expect(error?.kind == .configuration)
  }

  @Test func tlsURLsPointToTheSidecarWay() {
    let error = #expect(throws: RedisError.self) {
      try RedisConfiguration(url: "rediss://h", environment: [:])
    }
    #expect(error?.message.contains("stunnel") == true)
  }
}
