/// The scripts of account links. Each touches one key: a link and its account's index live in
/// different hash slots on a cluster, so no script spans both (see
/// `RedisSessionStore+Accounts.swift` for the order that makes that safe).
extension RedisScripts {
  /// KEYS[1] an account index; ARGV[1] field (a session tag), ARGV[2] value (the sealed key),
  /// ARGV[3] the most fields the index may hold. Sets the field unless the index is full and
  /// lacks it. Returns 1 when set, 0 when full.
  static let addIndexEntry = RedisScript(
    name: "addIndexEntry",
    source: """
      if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and
        redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
        return 0
      end
      redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
      return 1
      """)

  /// KEYS[1] an account index; ARGV[1] field, ARGV[2] the value read. Deletes the field only
  /// if it still holds that value (a stale entry, never one rewritten since). Returns 1 or 0.
  static let removeIndexEntryIfValue = RedisScript(
    name: "removeIndexEntryIfValue",
    source: """
      if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
        return redis.call('HDEL', KEYS[1], ARGV[1])
      end
      return 0
      """)

  /// KEYS[1] a link; ARGV[1] the value read. Deletes the link only if it still holds that
  /// value. Returns 1 or 0.
  static let deleteIfValue = RedisScript(
    name: "deleteIfValue",
    source: """
      if redis.call('GET', KEYS[1]) == ARGV[1] then
        return redis.call('DEL', KEYS[1])
      end
      return 0
      """)
}

extension RedisScripts {
  /// KEYS[1] a link; ARGV[1] the value read, ARGV[2] its replacement. Replaces the link only
  /// if it still holds the value read (resealing). Returns 1 or 0.
  static let replaceIfValue = RedisScript(
    name: "replaceIfValue",
    source: """
      if redis.call('GET', KEYS[1]) == ARGV[1] then
        redis.call('SET', KEYS[1], ARGV[2])
        return 1
      end
      return 0
      """)

  /// KEYS[1] an account index; ARGV[1] field, ARGV[2] the value read, ARGV[3] its replacement.
  /// Replaces the field only if it still holds the value read (resealing). Returns 1 or 0.
  static let replaceFieldIfValue = RedisScript(
    name: "replaceFieldIfValue",
    source: """
      if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
        return 1
      end
      return 0
      """)
}
