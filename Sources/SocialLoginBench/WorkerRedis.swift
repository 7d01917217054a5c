import SocialLogin
import SocialLoginRedis

/// `--redis URL` and `--prefix P`: the Redis store a worker process shares with the other
/// processes of a test, with the defaults and the sealing every such worker uses.
struct WorkerRedis {
  var url = "redis://127.0.0.1:6379"
  var prefix = "sociallogin"

  /// Takes `--redis` or `--prefix` (an ``BenchArguments/forEachPair(_:allowsEmptyValues:_:)``
  /// pair); `false` for any other name.
  mutating func take(_ name: String, _ value: String) -> Bool {
    switch name {
    case "--redis": url = value
    case "--prefix": prefix = value
    default: return false
    }
    return true
  }

  /// The store, sealed with the bench's key ring (``BenchSealing``).
  func connect() async throws -> RedisSessionStore {
    try await RedisSessionStore.connect(
      url: url, sealing: BenchSealing.sealing,
      options: RedisSessionStore.Options(keyPrefix: prefix))
  }
}
