// Testing with Redis: a redis-server of the test's own on a free loopback port, killed when
// the test ends (or when the test process dies), skipped where redis-server is not installed
// and a failure there when CI is set. `swift run RedisTesting` runs the same check once.
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting
import Testing

@Suite(.redisAvailable) struct MyRedisStoreTests {
  @Test(arguments: SessionStoreContract.allCases)
  func theRedisStoreKeepsTheContract(check: SessionStoreContract) async throws {
    try await RedisTestServer.with { redis in
      // A fresh server per test: the store starts empty, whatever other tests wrote.
      let store = try await RedisSessionStore.connect(
        url: redis.url, sealing: .keyRing(SealingKeyRing(sealingKey: SealingKey.generate())))
      try await check.run(on: store)
    }
  }
}

if RedisTestServer.isAvailable {
  try await MyRedisStoreTests().theRedisStoreKeepsTheContract(
    check: .insertOnlyWhenAbsentThenVersionsCountUp)
  print("the contract holds on a RedisTestServer")
} else {
  print("redis-server is not on PATH: nothing to run")
}
