/// Reads RESP2 and RESP3 replies from bytes as they arrive, refusing anything malformed or
/// beyond ``RESPLimits`` with a typed ``RedisError`` instead of trapping.
///
/// ``parse(_:from:)`` either returns one complete value and where it ended, or `nil` when more
/// bytes are needed; it never consumes a partial value, so the caller simply appends the next
/// read and calls it again.
struct RESPParser {
  let limits: RESPLimits

  init(limits: RESPLimits = .default) {
    self.limits = limits
  }

  /// Parses one value starting at `start`; returns it and the index after it, or `nil` when
  /// `buffer` ends before the value does.
  ///
  /// One reply may span at most ``RESPLimits/maximumReplyLength`` bytes: a complete value
  /// longer than that, or an incomplete one that already holds more, is refused with
  /// ``RedisError/Kind/replyTooLarge`` (a reply of many small elements is otherwise within every
  /// other limit while the caller buffers it without end).
  func parse(_ buffer: [UInt8], from start: Int) throws(RedisError) -> (RESPValue, Int)? {
    let parsed = try buffer.withUnsafeBufferPointer {
      (bytes) throws(RedisError) -> (RESPValue, Int)? in
      var index = start
      guard let value = try parseValue(bytes, &index, depth: 0) else { return nil }
      return (value, index)
    }
    let span = (parsed?.1 ?? buffer.count) - start
    guard span <= limits.maximumReplyLength else {
      throw RedisError(
        .replyTooLarge,
        "A reply spans more than \(limits.maximumReplyLength) bytes.")
    }
    return parsed
  }

  private func parseValue(
    _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, depth: Int
  ) throws(RedisError) -> RESPValue? {
    guard depth <= limits.maximumDepth else {
      throw RedisError(
        .protocolViolation, "The reply nests deeper than \(limits.maximumDepth) levels.")
    }
    guard index < bytes.count else { return nil }
    let marker = bytes[index]
    var cursor = index + 1
    guard let line = try readLine(bytes, &cursor) else { return nil }
    let value: RESPValue
    switch marker {
    case UInt8(ascii: "+"):
      value = .simpleString(text(bytes, line))
    case UInt8(ascii: "-"):
      value = .error(text(bytes, line))
    case UInt8(ascii: ":"):
      value = .integer(try integer(bytes, line))
    case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
      let length = try integer(bytes, line)
      if length == -1, marker == UInt8(ascii: "$") {
        value = .bulkString(nil)
        break
      }
      guard let payload = try readBlob(bytes, &cursor, length: length) else { return nil }
      if marker == UInt8(ascii: "$") {
        value = .bulkString(Array(UnsafeBufferPointer(rebasing: bytes[payload])))
      } else if marker == UInt8(ascii: "!") {
        value = .error(text(bytes, payload))
      } else {
        // `=15\r\ntxt:Some string`: a three-letter format, a colon, then the text.
        guard payload.count >= 4, bytes[payload.lowerBound + 3] == UInt8(ascii: ":") else {
          throw RedisError(.protocolViolation, "A verbatim string lacks its format prefix.")
        }
        value = .verbatimString(text(bytes, (payload.lowerBound + 4)..<payload.upperBound))
      }
    case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"),
      UInt8(ascii: "|"):
      let count = try integer(bytes, line)
      if count == -1, marker == UInt8(ascii: "*") {
        value = .array(nil)
        break
      }
      guard count >= 0, count <= limits.maximumElementCount else {
        throw RedisError(
          .replyTooLarge,
          "The reply announces \(count) elements; at most \(limits.maximumElementCount) are "
            + "accepted.")
      }
      let isMap = marker == UInt8(ascii: "%") || marker == UInt8(ascii: "|")
      let total = isMap ? Int(count) * 2 : Int(count)
      var elements: [RESPValue] = []
      elements.reserveCapacity(min(total, 1024))
      for _ in 0..<total {
        guard let element = try parseValue(bytes, &cursor, depth: depth + 1) else { return nil }
        elements.append(element)
      }
      switch marker {
      case UInt8(ascii: "*"): value = .array(elements)
      case UInt8(ascii: "~"): value = .set(elements)
      case UInt8(ascii: ">"): value = .push(elements)
      default:
        let pairs = stride(from: 0, to: elements.count, by: 2).map {
          RESPPair(key: elements[$0], value: elements[$0 + 1])
        }
        if marker == UInt8(ascii: "|") {
          // An attribute describes the reply that follows it; the reply is what counts. It
          // counts as one level of nesting, so a chain of attributes (`|0\r\n|0\r\n…`) meets
          // `maximumDepth` like nested arrays instead of recursing without bound.
          index = cursor
          _ = pairs
          return try parseValue(bytes, &index, depth: depth + 1)
        }
        value = .map(pairs)
      }
    case UInt8(ascii: "_"):
      guard line.isEmpty else { throw RedisError(.protocolViolation, "A null carries data.") }
      value = .null
    case UInt8(ascii: "#"):
      guard line.count == 1 else {
        throw RedisError(.protocolViolation, "A boolean is not `t` or `f`.")
      }
      switch bytes[line.lowerBound] {
      case UInt8(ascii: "t"): value = .boolean(true)
      case UInt8(ascii: "f"): value = .boolean(false)
      default: throw RedisError(.protocolViolation, "A boolean is not `t` or `f`.")
      }
    case UInt8(ascii: ","):
      let literal = text(bytes, line)
      let parsed: Double?
      switch literal {
      case "inf": parsed = .infinity
      case "-inf": parsed = -.infinity
      case "nan": parsed = .nan
      default: parsed = Double(literal)
      }
      guard let parsed else { throw RedisError(.protocolViolation, "A double is malformed.") }
      value = .double(parsed)
    case UInt8(ascii: "("):
      let digits = text(bytes, line)
      let body =
        digits.hasPrefix("-") || digits.hasPrefix("+") ? digits.dropFirst() : Substring(digits)
      guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        throw RedisError(.protocolViolation, "A big number is malformed.")
      }
      value = .bigNumber(digits)
    default:
      throw RedisError(
        .protocolViolation, "Unknown reply type byte 0x\(String(marker, radix: 16)).")
    }
    index = cursor
    return value
  }

  /// The range of one CRLF-terminated line starting at `cursor` (CRLF excluded), moving the
  /// cursor past it; `nil` when the line is not complete yet.
  private func readLine(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int)
    throws(RedisError) -> Range<Int>?
  {
    let start = cursor
    var position = start
    let limit = min(bytes.count, start + limits.maximumLineLength + 2)
    while position < limit {
      if bytes[position] == 13 {
        guard position + 1 < bytes.count else { return nil }
        guard bytes[position + 1] == 10 else {
          throw RedisError(.protocolViolation, "A reply line has CR without LF.")
        }
        cursor = position + 2
        return start..<position
      }
      if bytes[position] == 10 {
        throw RedisError(.protocolViolation, "A reply line has LF without CR.")
      }
      position += 1
    }
    if limit - start >= limits.maximumLineLength + 2 {
      throw RedisError(
        .replyTooLarge, "A reply line is longer than \(limits.maximumLineLength) bytes.")
    }
    return nil
  }

  private func readBlob(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, length: Int64)
    throws(RedisError) -> Range<Int>?
  {
    guard length >= 0 else { throw RedisError(.protocolViolation, "A negative string length.") }
    guard length <= Int64(limits.maximumBulkLength) else {
      throw RedisError(
        .replyTooLarge,
        "The reply announces a \(length)-byte string; at most \(limits.maximumBulkLength) "
          + "bytes are accepted.")
    }
    let end = cursor + Int(length)
    guard end + 2 <= bytes.count else { return nil }
    guard bytes[end] == 13, bytes[end + 1] == 10 else {
      throw RedisError(.protocolViolation, "A string is longer than its announced length.")
    }
    let range = cursor..<end
    cursor = end + 2
    return range
  }

  private func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    throws(RedisError) -> Int64
  {
    var position = range.lowerBound
    var negative = false
    if position < range.upperBound, bytes[position] == UInt8(ascii: "-") {
      negative = true
      position += 1
    } else if position < range.upperBound, bytes[position] == UInt8(ascii: "+") {
      position += 1
    }
    guard position < range.upperBound, range.upperBound - position <= 19 else {
      throw RedisError(.protocolViolation, "An integer in the reply is malformed.")
    }
    var value: Int64 = 0
    while position < range.upperBound {
      let digit = bytes[position] &- UInt8(ascii: "0")
      guard digit < 10 else {
        throw RedisError(.protocolViolation, "An integer in the reply is malformed.")
      }
      let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times.addingReportingOverflow(Int64(digit))
      guard !overflowA, !overflowB else {
        throw RedisError(.protocolViolation, "An integer in the reply overflows 64 bits.")
      }
      value = sum
      position += 1
    }
    return negative ? -value : value
  }

  private func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
