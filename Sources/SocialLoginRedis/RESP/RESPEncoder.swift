/// Writes commands in the RESP request form every server version accepts: an array of bulk
/// strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`). Arguments are length-prefixed, so no argument
/// value (a token, a JSON record) can inject a second command.
enum RESPEncoder {
  static func append(_ command: RedisCommand, to buffer: inout [UInt8]) {
    appendHeader(UInt8(ascii: "*"), command.arguments.count, to: &buffer)
    for argument in command.arguments {
      appendHeader(UInt8(ascii: "$"), argument.count, to: &buffer)
      buffer.append(contentsOf: argument)
      buffer.append(13)
      buffer.append(10)
    }
  }

  private static func appendHeader(_ marker: UInt8, _ count: Int, to buffer: inout [UInt8]) {
    buffer.append(marker)
    appendDecimal(count, to: &buffer)
    buffer.append(13)
    buffer.append(10)
  }

  private static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    if value < 10 {
      buffer.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    // Digits written in place, most significant first, without a temporary array (this runs
    // for every argument of every command).
    var divisor = 10
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
