import SocialLogin

extension RedisClient {
  /// Runs `script` by `EVALSHA` in one pipeline with `alongside` and returns every reply, the
  /// script's first. On `NOSCRIPT` the script and `alongside` are sent again (by `EVAL`), so
  /// commands that must follow the script on its connection (`WAIT`) still do.
  ///
  /// - Throws: ``RedisError`` ``RedisError/Kind/server`` when the script is refused.
  func evaluateReturningAll(
    _ script: RedisScript, keys: [String], arguments: [[UInt8]], alongside: [RedisCommand]
  ) async throws -> [RESPValue] {
    try await runScript(
      script, keys: keys, arguments: arguments, alongside: alongside, resendAlongside: true)
  }
}
