/// The Redis reply parser's fuzz entry, for the libFuzzer package in `Tests/Fuzz` (target
/// `resp_reply`) and the corpus replay in the normal test run. Not API: it is behind the
/// `Fuzzing` SPI (`@_spi(Fuzzing) import SocialLoginRedis`).
@_spi(Fuzzing) public enum RedisFuzzTargets {
  /// The corpus folder and libFuzzer executable suffix.
  public static let name = "resp_reply"

  /// Feeds bytes a server might send: every value the buffer holds, one after another as a
  /// pipelined reply stream; the same bytes in two reads split at the first byte's value (the
  /// parser must not consume a partial value); tight limits (size, depth and buffered-reply
  /// refusals), also with the bytes arriving a few at a time the way a connection buffers
  /// them (the resumed parse must give the same values as the one-shot one); and each value of two elements as a session hash's version and record fields. Only a trap,
  /// a hang or runaway memory is a failure: every other outcome is a value or a typed error.
  public static func respReply(_ bytes: [UInt8]) {
    drain(bytes, parser: RESPParser())
    let tight = RESPParser(
      limits: RESPLimits(
        maximumBulkLength: 64, maximumElementCount: 4, maximumDepth: 2, maximumLineLength: 32,
        maximumReplyLength: 160))
    drain(bytes, parser: tight)
    trickle(bytes, parser: tight)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let parser = RESPParser()
    if (try? parser.parse(Array(bytes[..<split]), from: 0)) == nil {
      _ = try? parser.parse(bytes, from: 0)
    }
  }

  /// Appends the bytes 7 at a time to a ``RESPReader``, as a connection does with its reads,
  /// and takes every value it completes: they must be the values parsing all the bytes at once
  /// gives (resuming a parse changes nothing), and the buffer never holds more than one
  /// reply's limit.
  private static func trickle(_ bytes: [UInt8], parser: RESPParser) {
    var reader = RESPReader(limits: parser.limits)
    var trickled: [RESPValue] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 7)
      reader.buffer.append(contentsOf: bytes[offset..<end])
      offset = end
      do {
        while let value = try reader.next() { trickled.append(value) }
      } catch {
        break
      }
      precondition(reader.buffer.count <= parser.limits.maximumReplyLength)
    }
    var whole: [RESPValue] = []
    var index = 0
    while index < bytes.count, let (value, next) = try? parser.parse(bytes, from: index) {
      whole.append(value)
      index = next
    }
    // Described, not compared: a NaN double is not equal to itself.
    precondition(String(reflecting: trickled) == String(reflecting: whole))
  }

  private static func drain(_ bytes: [UInt8], parser: RESPParser) {
    var index = 0
    while index < bytes.count {
      guard let (value, next) = try? parser.parse(bytes, from: index), next > index else { return }
      index = next
      if case .array(let elements?) = value, elements.count == 2 {
        _ = try? RedisSessionStore.decodeOpened(
          elements[1].bytes ?? [], version: elements[0].integer.map { UInt64(clamping: $0) } ?? 1,
          tag: "fuzz")
      }
    }
  }
}
