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
    var tail = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) }
    tail += arguments
    let call = RedisCommand(arguments: [Array("EVALSHA".utf8), Array(script.sha1.utf8)] + tail)
    var replies = try await execute([call] + alongside)
    if case .error(let message) = replies[0], message.hasPrefix("NOSCRIPT") {
      replies = try await execute(
        [RedisCommand(arguments: [Array("EVAL".utf8), Array(script.source.utf8)] + tail)]
          + alongside)
    }
    if case .error(let message) = replies[0] {
      throw RedisError(
        .server, "Redis refused the \(script.name) script.",
        serverMessage: String(message.prefix(500)))
    }
    return replies
  }
}
