import SocialLoginRedis
import Testing

@Suite struct RedisModuleTests {
  @Test func moduleHasAVersion() { #expect(!SocialLoginRedisModule.version.isEmpty) }
}
