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
    "rediss://", "rediss://h?colour=blue", "rediss://h?cert=/c.pem", "rediss://h?key=/k.pem",
    "redis://h?ca=/ca.pem", "redis://h?cert=/c.pem&key=/k.pem", "http://h", "redis://",
    "redis://h/abc", "redis://h/-1",
    "unix://", "unix:///s?db=x", "unix:///s?colour=blue", "not a url",
  ])
  func invalidURLsAreConfigurationErrors(url: String) {
    let error = #expect(throws: RedisError.self) {
      try RedisConfiguration(url: url, environment: [:])
    }
    #expect(error?.kind == .configuration)
  }

  @Test func aRedissURLIsTLSVerifiedAgainstItsHostWithItsFiles() throws {
    let plain = try RedisConfiguration(url: "rediss://cache.example.net:6380/2", environment: [:])
    #expect(plain.endpoint == .tcp(host: "cache.example.net", port: 6380))
    #expect(plain.database == 2)
    #expect(plain.tls == RedisConfiguration.TLS(serverName: "cache.example.net"))
    let files = try RedisConfiguration(
      url: "rediss://h?ca=/etc/ca.pem&cert=/run/c.pem&key=/run/c.key", environment: [:])
    #expect(
      files.tls
        == RedisConfiguration.TLS(
          serverName: "h", caFile: "/etc/ca.pem", certificateFile: "/run/c.pem",
          keyFile: "/run/c.key"))
  }

  @Test func theTLSVariablesApplyToARedissURLOnlyAndTheURLWins() throws {
    let environment = [
      RedisConfiguration.caFileEnvironmentVariable: "/env/ca.pem",
      RedisConfiguration.certificateFileEnvironmentVariable: "/env/c.pem",
      RedisConfiguration.keyFileEnvironmentVariable: "/env/c.key",
    ]
    let secured = try RedisConfiguration(url: "rediss://h", environment: environment)
    #expect(secured.tls?.caFile == "/env/ca.pem")
    #expect(secured.tls?.certificateFile == "/env/c.pem")
    #expect(secured.tls?.keyFile == "/env/c.key")
    let overridden = try RedisConfiguration(
      url: "rediss://h?ca=/url/ca.pem", environment: environment)
    #expect(overridden.tls?.caFile == "/url/ca.pem")
    // The variables never turn TLS on for a plaintext URL.
    let plaintext = try RedisConfiguration(url: "redis://h", environment: environment)
    #expect(plaintext.tls == nil)
  }
}
