/// Reads RESP2 and RESP3 replies from bytes as they arrive, refusing anything malformed or
/// beyond ``RESPLimits`` with a typed ``RedisError`` instead of trapping.
///
/// ``parse(_:from:)`` either returns one complete value and where it ended, or `nil` when more
/// bytes are needed; it never consumes a partial value. It starts from scratch on every call;
/// a connection, whose replies arrive a read at a time, uses ``RESPReader`` instead, which
/// resumes where the previous read stopped (``RESPParseState``), so a large reply costs its
/// size once rather than once per read.
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
    var state = RESPParseState(start: start)
    return try buffer.withUnsafeBufferPointer { (bytes) throws(RedisError) -> (RESPValue, Int)? in
      try state.resume(bytes, limits: limits)
    }
  }
}

/// The parse of one reply, kept between reads so that it resumes where it stopped: the
/// aggregates opened and not yet filled (a stack, so nesting never recurses), the item under
/// way (a header line scanned so far, or a string whose announced end has not arrived) and the
/// offset reached. Each byte of a reply is examined about once however it is split into reads
/// (``examined`` counts them), where parsing from the reply's start after every read cost
/// its size times the number of reads.
///
/// Every limit is checked as before, and before anything is allocated: the depth when an item
/// begins, an element count and a string length when their header is read, the reply's span
/// after every call.
struct RESPParseState {
  /// Where the reply began in the buffer.
  private(set) var start: Int
  /// Where the item under way begins (its type byte).
  private var cursor: Int
  /// Aggregates opened and not yet complete, outermost first.
  private var stack: [Frame] = []
  /// How far the item at `cursor` was read.
  private var item = Item.fresh
  /// Bytes examined so far, a header line's bytes and a string's payload each counted once
  /// (plus a CR seen at the end of a read and looked at again with the next).
  private(set) var examined = 0

  private struct Frame {
    var marker: UInt8
    var remaining: Int
    var elements: [RESPValue]
  }

  private enum Item {
    /// Nothing read yet.
    case fresh
    /// The header line, scanned up to (not including) `scanned`.
    case line(scanned: Int)
    /// A string whose header was read: its payload is `payload..<end`, then CRLF.
    case blob(marker: UInt8, payload: Int, end: Int)
  }

  /// A parse of the reply that begins at `start`.
  init(start: Int) {
    self.start = start
    cursor = start
  }

  /// The buffer's first `count` bytes (before ``start``) were dropped: move every offset.
  mutating func shift(by count: Int) {
    start -= count
    cursor -= count
    switch item {
    case .fresh: break
    case .line(let scanned): item = .line(scanned: scanned - count)
    case .blob(let marker, let payload, let end):
      item = .blob(marker: marker, payload: payload - count, end: end - count)
    }
  }

  /// Goes on with the bytes `bytes` now holds (the same ones as before, plus more at the
  /// end): the complete value and the index after it, or `nil` when more bytes are needed.
  /// After an error the state is meaningless (the connection is dropped).
  mutating func resume(_ bytes: UnsafeBufferPointer<UInt8>, limits: RESPLimits)
    throws(RedisError) -> (RESPValue, Int)?
  {
    let parsed = try advance(bytes, limits)
    let span = (parsed?.1 ?? bytes.count) - start
    guard span <= limits.maximumReplyLength else {
      throw RedisError(
        .replyTooLarge,
        "A reply spans more than \(limits.maximumReplyLength) bytes.")
    }
    return parsed
  }

  private mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>, _ limits: RESPLimits)
    throws(RedisError) -> (RESPValue, Int)?
  {
    while true {
      guard stack.count <= limits.maximumDepth else {
        throw RedisError(
          .protocolViolation, "The reply nests deeper than \(limits.maximumDepth) levels.")
      }
      var value: RESPValue
      if case .blob(let marker, let payload, let end) = item {
        guard end + 2 <= bytes.count else { return nil }
        guard bytes[end] == 13, bytes[end + 1] == 10 else {
          throw RedisError(.protocolViolation, "A string is longer than its announced length.")
        }
        examined += end + 2 - payload
        value = try Self.blob(marker, bytes, payload..<end)
        cursor = end + 2
        item = .fresh
      } else {
        guard cursor < bytes.count else { return nil }
        let marker = bytes[cursor]
        guard let (line, after) = try readLine(bytes, limits) else { return nil }
        item = .fresh
        switch try header(marker, bytes, line, after, limits) {
        case .value(let scalar):
          value = scalar
          cursor = after
        case .blob(let payload, let end):
          item = .blob(marker: marker, payload: payload, end: end)
          continue
        case .aggregate(let total):
          cursor = after
          guard total == 0 else {
            var elements: [RESPValue] = []
            elements.reserveCapacity(min(total, 1024))
            stack.append(Frame(marker: marker, remaining: total, elements: elements))
            continue
          }
          value = Self.aggregate(marker, [])
        }
      }
      // Hand the value to the aggregates it completes, innermost first.
      while let last = stack.indices.last {
        stack[last].elements.append(value)
        stack[last].remaining -= 1
        guard stack[last].remaining == 0 else { break }
        let frame = stack.removeLast()
        value = Self.aggregate(frame.marker, frame.elements)
      }
      if stack.isEmpty { return (value, cursor) }
    }
  }

  private enum Header {
    case value(RESPValue)
    case blob(payload: Int, end: Int)
    /// An aggregate of this many elements (an attribute's pairs and the value after them).
    case aggregate(Int)
  }

  private func header(
    _ marker: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ after: Int,
    _ limits: RESPLimits
  ) throws(RedisError) -> Header {
    switch marker {
    case UInt8(ascii: "+"):
      return .value(.simpleString(RESPParser.text(bytes, line)))
    case UInt8(ascii: "-"):
      return .value(.error(RESPParser.text(bytes, line)))
    case UInt8(ascii: ":"):
      return .value(.integer(try RESPParser.integer(bytes, line)))
    case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
      let length = try RESPParser.integer(bytes, line)
      if length == -1, marker == UInt8(ascii: "$") { return .value(.bulkString(nil)) }
      guard length >= 0 else {
        throw RedisError(.protocolViolation, "A negative string length.")
      }
      guard length <= Int64(limits.maximumBulkLength) else {
        throw RedisError(
          .replyTooLarge,
          "The reply announces a \(length)-byte string; at most \(limits.maximumBulkLength) "
            + "bytes are accepted.")
      }
      return .blob(payload: after, end: after + Int(length))
    case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"),
      UInt8(ascii: "|"):
      let count = try RESPParser.integer(bytes, line)
      if count == -1, marker == UInt8(ascii: "*") { return .value(.array(nil)) }
      guard count >= 0, count <= limits.maximumElementCount else {
        throw RedisError(
          .replyTooLarge,
          "The reply announces \(count) elements; at most \(limits.maximumElementCount) are "
            + "accepted.")
      }
      switch marker {
      case UInt8(ascii: "%"): return .aggregate(Int(count) * 2)
      // An attribute describes the reply that follows it; the reply is what counts. It
      // counts as one level of nesting, so a chain of attributes (`|0\r\n|0\r\n…`) meets
      // `maximumDepth` like nested arrays.
      case UInt8(ascii: "|"): return .aggregate(Int(count) * 2 + 1)
      default: return .aggregate(Int(count))
      }
    case UInt8(ascii: "_"):
      guard line.isEmpty else { throw RedisError(.protocolViolation, "A null carries data.") }
      return .value(.null)
    case UInt8(ascii: "#"):
      guard line.count == 1 else {
        throw RedisError(.protocolViolation, "A boolean is not `t` or `f`.")
      }
      switch bytes[line.lowerBound] {
      case UInt8(ascii: "t"): return .value(.boolean(true))
      case UInt8(ascii: "f"): return .value(.boolean(false))
      default: throw RedisError(.protocolViolation, "A boolean is not `t` or `f`.")
      }
    case UInt8(ascii: ","):
      let literal = RESPParser.text(bytes, line)
      let parsed: Double?
      switch literal {
      case "inf": parsed = .infinity
      case "-inf": parsed = -.infinity
      case "nan": parsed = .nan
      default: parsed = Double(literal)
      }
      guard let parsed else { throw RedisError(.protocolViolation, "A double is malformed.") }
      return .value(.double(parsed))
    case UInt8(ascii: "("):
      let digits = RESPParser.text(bytes, line)
      let body =
        digits.hasPrefix("-") || digits.hasPrefix("+") ? digits.dropFirst() : Substring(digits)
      guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        throw RedisError(.protocolViolation, "A big number is malformed.")
      }
      return .value(.bigNumber(digits))
    default:
      throw RedisError(
        .protocolViolation, "Unknown reply type byte 0x\(String(marker, radix: 16)).")
    }
  }

  /// The value of a complete `$`, `!` or `=` string.
  private static func blob(
    _ marker: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, _ payload: Range<Int>
  )
    throws(RedisError) -> RESPValue
  {
    if marker == UInt8(ascii: "$") {
      return .bulkString(Array(UnsafeBufferPointer(rebasing: bytes[payload])))
    }
    if marker == UInt8(ascii: "!") { return .error(RESPParser.text(bytes, payload)) }
    // `=15\r\ntxt:Some string`: a three-letter format, a colon, then the text.
    guard payload.count >= 4, bytes[payload.lowerBound + 3] == UInt8(ascii: ":") else {
      throw RedisError(.protocolViolation, "A verbatim string lacks its format prefix.")
    }
    return .verbatimString(RESPParser.text(bytes, (payload.lowerBound + 4)..<payload.upperBound))
  }

  /// The value of a complete aggregate of type `marker`.
  private static func aggregate(_ marker: UInt8, _ elements: [RESPValue]) -> RESPValue {
    switch marker {
    case UInt8(ascii: "*"): return .array(elements)
    case UInt8(ascii: "~"): return .set(elements)
    case UInt8(ascii: ">"): return .push(elements)
    case UInt8(ascii: "|"): return elements.last ?? .null
    default:
      return .map(
        stride(from: 0, to: elements.count, by: 2).map {
          RESPPair(key: elements[$0], value: elements[$0 + 1])
        })
    }
  }

  /// The header line of the item at `cursor` (after its type byte, CRLF excluded) and the
  /// index after its CRLF; `nil` when the line is not complete yet, remembering how far it was
  /// scanned so the next call goes on from there.
  private mutating func readLine(_ bytes: UnsafeBufferPointer<UInt8>, _ limits: RESPLimits)
    throws(RedisError) -> (Range<Int>, Int)?
  {
    let start = cursor + 1
    var position = start
    if case .line(let scanned) = item { position = scanned }
    let limit = min(bytes.count, start + limits.maximumLineLength + 2)
    while position < limit {
      examined += 1
      if bytes[position] == 13 {
        guard position + 1 < bytes.count else {
          item = .line(scanned: position)
          return nil
        }
        guard bytes[position + 1] == 10 else {
          throw RedisError(.protocolViolation, "A reply line has CR without LF.")
        }
        return (start..<position, position + 2)
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
    item = .line(scanned: position)
    return nil
  }
}

/// The receive buffer of a connection and the reply being parsed from it: bytes are appended
/// to ``buffer`` as they are read, ``next()`` returns each complete value once, resuming the
/// reply under way where the previous call stopped (``RESPParseState``).
///
/// The buffer holds at most the reply under way (and the rest of the last read): consumed
/// replies are dropped, so its size stays within ``RESPLimits/maximumReplyLength`` plus one
/// read.
struct RESPReader {
  let limits: RESPLimits
  /// Bytes received and not yet returned as values; append reads here.
  var buffer: [UInt8] = []
  private var readIndex = 0
  private var reply: RESPParseState?
  /// Bytes examined by every parse so far (see ``RESPParseState/examined``).
  private(set) var examined = 0

  init(limits: RESPLimits = .default) {
    self.limits = limits
  }

  /// The next complete value in ``buffer``, or `nil` until more bytes arrive.
  mutating func next() throws(RedisError) -> RESPValue? {
    guard readIndex < buffer.count else {
      if readIndex > 0 {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        readIndex = 0
      }
      return nil
    }
    // Taken out of `reply` so that its stack is uniquely referenced and grows in place.
    var state = RESPParseState(start: readIndex)
    if let saved = reply {
      state = saved
      reply = nil
    }
    let before = state.examined
    let limits = limits
    let parsed = try buffer.withUnsafeBufferPointer {
      (bytes) throws(RedisError) -> (RESPValue, Int)? in
      try state.resume(bytes, limits: limits)
    }
    examined += state.examined - before
    if let (value, end) = parsed {
      reply = nil
      readIndex = end
      if readIndex == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        readIndex = 0
      }
      return value
    }
    // Incomplete: keep only the reply under way (it starts at `readIndex`).
    if readIndex > 0 {
      buffer.removeFirst(readIndex)
      state.shift(by: readIndex)
      readIndex = 0
    }
    reply = state
    return nil
  }
}

extension RESPParser {
  fileprivate static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
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

  fileprivate static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
