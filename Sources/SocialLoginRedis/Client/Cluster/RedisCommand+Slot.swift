extension RedisCommand {
  /// The key a cluster routes this command by: for `EVAL`/`EVALSHA`/`FCALL` the first of the
  /// keys after `numkeys` (none when `numkeys` is 0), for `SPUBLISH`/`SSUBSCRIBE` the channel,
  /// for commands without keys (`PING`, `INFO`, `CLUSTER`, `SCRIPT`, `PUBLISH`, ...) `nil`,
  /// and otherwise the first argument, where every command the stores send has its key.
  var routingKey: [UInt8]? {
    guard arguments.count >= 2 else { return nil }
    switch name {
    case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO":
      guard arguments.count >= 4,
        let count = Int(String(decoding: arguments[2], as: UTF8.self)), count > 0
      else { return nil }
      return arguments[3]
    case "PING", "ECHO", "INFO", "CLUSTER", "SCRIPT", "PUBLISH", "SUBSCRIBE", "PSUBSCRIBE",
      "CONFIG", "CLIENT", "COMMAND", "AUTH", "HELLO", "SELECT", "ASKING", "READONLY",
      "READWRITE", "FLUSHDB", "FLUSHALL", "DBSIZE", "SAVE", "BGSAVE", "TIME", "SCAN",
      "FUNCTION", "MEMORY", "LATENCY", "SLOWLOG", "ACL", "WAIT", "DEBUG", "KEYS", "RANDOMKEY":
      return nil
    default:
      return arguments[1]
    }
  }

  /// The hash slot of ``routingKey``, or `nil` for a command any node may answer.
  var hashSlot: UInt16? { routingKey.map { HashSlot.slot(of: $0) } }
}
