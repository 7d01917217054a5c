import SocialLoginRedis

extension StoreLocation {
  /// `--key-prefix P`: the prefix of every key of a Redis store (`RedisSessionStore.Options`
  /// `keyPrefix`), for services that share one database under their own prefixes.
  static let keyPrefixOption = Option.value(
    "--key-prefix", "P",
    help: "the prefix of every key in a Redis --store (default: sociallogin), as the service's "
      + "RedisSessionStore.Options.keyPrefix")

  /// The store options for `keyPrefix` (the default prefix when `nil`).
  static func redisOptions(keyPrefix: String?) -> RedisSessionStore.Options {
    keyPrefix.map { RedisSessionStore.Options(keyPrefix: $0) } ?? RedisSessionStore.Options()
  }

  /// ` (key prefix P)` for messages and profile names, empty for the default prefix.
  static func prefixShown(_ keyPrefix: String?) -> String {
    keyPrefix.map { " (key prefix \($0))" } ?? ""
  }
}
