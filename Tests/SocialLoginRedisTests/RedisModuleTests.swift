import SocialLoginRedis
import Testing

@Suite(.timeLimit(.minutes(5))) struct RedisModuleTests {
  @Test func moduleHasAVersion() { #expect(!SocialLoginRedisModule.version.isEmpty) }
}
