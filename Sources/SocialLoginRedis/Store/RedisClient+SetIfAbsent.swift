import Foundation

extension RedisClient {
  /// `SET key value NX PX <ms>`: stores `value` under `key` for `seconds` (rounded up to the
  /// next millisecond, at most about 31 years) unless the key exists. Returns whether it was
  /// stored. Pending logins and nonces are kept this way: single-use entries that expire in
  /// Redis on their own.
  ///
  /// - Throws: The client's error when Redis fails (the caller names what it was storing).
  func setIfAbsent(_ key: String, _ value: [UInt8], expiringIn seconds: TimeInterval)
    async throws -> Bool
  {
    let milliseconds = Int64(min(seconds, 1e9) * 1000) + 1
    let reply = try await send(
      RedisCommand(arguments: [
        Array("SET".utf8), Array(key.utf8), value, Array("NX".utf8), Array("PX".utf8),
        Array(String(milliseconds).utf8),
      ]))
    return reply == .simpleString("OK")
  }
}
