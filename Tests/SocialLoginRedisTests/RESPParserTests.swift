import Testing

@testable import SocialLoginRedis

@Suite(.timeLimit(.minutes(1))) struct RESPParserTests {
  func parse(_ text: String, limits: RESPLimits = .default) throws -> RESPValue? {
    try RESPParser(limits: limits).parse(Array(text.utf8), from: 0)?.0
  }

  @Test func parsesEveryRESP2Type() throws {
    #expect(try parse("+OK\r\n") == .simpleString("OK"))
    #expect(try parse("-ERR wrong\r\n") == .error("ERR wrong"))
    #expect(try parse(":-42\r\n") == .integer(-42))
    #expect(try parse("$5\r\nhe\r\no\r\n") == .bulkString(Array("he\r\no".utf8)))
    #expect(try parse("$-1\r\n") == .bulkString(nil))
    #expect(try parse("*-1\r\n") == .array(nil))
    #expect(
      try parse("*3\r\n:1\r\n$1\r\na\r\n*1\r\n+x\r\n")
        == .array([.integer(1), .bulkString([97]), .array([.simpleString("x")])]))
  }

  @Test func parsesEveryRESP3Type() throws {
    #expect(try parse("_\r\n") == .null)
    #expect(try parse("#t\r\n") == .boolean(true))
    #expect(try parse(",1.5\r\n") == .double(1.5))
    #expect(try parse(",-inf\r\n") == .double(-.infinity))
    #expect(
      try parse("(3492890328409238509324850943850943825024385\r\n")
        == .bigNumber("3492890328409238509324850943850943825024385"))
    #expect(try parse("!9\r\nSYNTAX no\r\n") == .error("SYNTAX no"))
    #expect(try parse("=8\r\ntxt:Some\r\n") == .verbatimString("Some"))
    #expect(try parse("~2\r\n:1\r\n:2\r\n") == .set([.integer(1), .integer(2)]))
    #expect(
      try parse("%1\r\n+key\r\n:7\r\n")
        == .map([RESPPair(key: .simpleString("key"), value: .integer(7))]))
    #expect(
      try parse(">3\r\n+message\r\n+ch\r\n$1\r\nx\r\n")
        == .push([.simpleString("message"), .simpleString("ch"), .bulkString([120])]))
    // An attribute is skipped; the value after it is the reply.
    #expect(try parse("|1\r\n+ttl\r\n:3\r\n:10\r\n") == .integer(10))
  }

  @Test func incompleteInputAsksForMoreAtEveryCut() throws {
    let whole = Array("*2\r\n$5\r\nhello\r\n%1\r\n+a\r\n,2.5\r\n".utf8)
    let parser = RESPParser()
    for cut in 0..<whole.count {
      #expect(try parser.parse(Array(whole[..<cut]), from: 0) == nil, "cut at \(cut)")
    }
    let (value, end) = try #require(try parser.parse(whole, from: 0))
    #expect(end == whole.count)
    #expect(value.elements?.count == 2)
  }

  @Test(arguments: [
    ("?3\r\n", RedisError.Kind.protocolViolation),
    (":12a\r\n", .protocolViolation),
    (":99999999999999999999\r\n", .protocolViolation),
    ("$3\r\nabcd\r\n", .protocolViolation),
    ("$-5\r\n", .protocolViolation),
    ("+OK\rX", .protocolViolation),
    ("+OK\n", .protocolViolation),
    ("#x\r\n", .protocolViolation),
    (",abc\r\n", .protocolViolation),
    ("(12x\r\n", .protocolViolation),
    ("=3\r\ntxt\r\n", .protocolViolation),
    ("_x\r\n", .protocolViolation),
    ("$999999999999\r\n", .replyTooLarge),
    ("*99999999\r\n", .replyTooLarge),
  ])
  func malformedRepliesAreTypedErrors(input: String, kind: RedisError.Kind) {
    let error = #expect(throws: RedisError.self) { try parse(input) }
    #expect(error?.kind == kind)
  }

  @Test func nestingBeyondTheLimitIsRefusedWithoutRecursingFurther() throws {
    let deep = String(repeating: "*1\r\n", count: 10_000) + ":1\r\n"
    let error = #expect(throws: RedisError.self) { try parse(deep) }
    #expect(error?.kind == .protocolViolation)
    #expect(try parse(String(repeating: "*1\r\n", count: 16) + ":1\r\n") != nil)
  }

  @Test func aChainOfAttributesMeetsTheDepthLimitInsteadOfOverflowingTheStack() throws {
    let chain = String(repeating: "|0\r\n", count: 1_000_000) + ":1\r\n"
    let error = #expect(throws: RedisError.self) { try parse(chain) }
    #expect(error?.kind == .protocolViolation)
    let short = String(repeating: "|0\r\n", count: 17) + ":1\r\n"
    #expect(throws: RedisError.self) { try parse(short) }
    #expect(try parse(String(repeating: "|0\r\n", count: 16) + ":1\r\n") == .integer(1))
  }

  @Test func theBytesBufferedForOneReplyAreBounded() throws {
    let limits = RESPLimits(maximumReplyLength: 64)
    let element = "$10\r\n0123456789\r\n"  // 18 bytes, within every per-element limit
    // Still arriving, and already past the bound: refused before the rest comes.
    let partial = "*100\r\n" + String(repeating: element, count: 4)
    let error = #expect(throws: RedisError.self) { try parse(partial, limits: limits) }
    #expect(error?.kind == .replyTooLarge)
    // Complete but too long: refused as well.
    let whole = "*4\r\n" + String(repeating: element, count: 4)
    #expect(throws: RedisError.self) { try parse(whole, limits: limits) }
    // Within the bound: a value, or a request for more bytes.
    #expect(try parse("*3\r\n" + String(repeating: element, count: 3), limits: limits) != nil)
    #expect(try parse("*9\r\n" + element, limits: limits) == nil)
    // The bound is per reply: a buffer of pipelined replies may exceed it.
    let pipelined = Array(String(repeating: "*1\r\n" + element, count: 10).utf8)
    var index = 0
    while index < pipelined.count {
      let (_, next) = try #require(try RESPParser(limits: limits).parse(pipelined, from: index))
      index = next
    }
  }

  @Test func overlongLinesAreRefusedBeforeTheirEnd() {
    let limits = RESPLimits(maximumLineLength: 16)
    let error = #expect(throws: RedisError.self) {
      try parse("+" + String(repeating: "a", count: 100), limits: limits)
    }
    #expect(error?.kind == .replyTooLarge)
  }

  @Test func encoderLengthPrefixesEveryArgument() {
    var buffer: [UInt8] = []
    RESPEncoder.append(RedisCommand(["SET", "k", "a\r\nDEL x"]), to: &buffer)
    #expect(
      String(decoding: buffer, as: UTF8.self)
        == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$8\r\na\r\nDEL x\r\n")
  }
}

/// The parse a connection makes as a reply arrives read by read: resumed, not restarted.
@Suite(.timeLimit(.minutes(2))) struct RESPReaderTests {
  /// A reply of every shape: nested aggregates, a map, RESP3 scalars, many small strings and
  /// one large string.
  static func largeReply(smallStrings: Int, largeString: Int) -> [UInt8] {
    var text = "*4\r\n"
    text += "*\(smallStrings)\r\n"
    for index in 0..<smallStrings {
      let payload = String(repeating: "x", count: index % 40)
      text += "$\(payload.utf8.count)\r\n\(payload)\r\n"
    }
    text += "%2\r\n+a\r\n*2\r\n:1\r\n,2.5\r\n$1\r\nb\r\n|1\r\n+ttl\r\n:3\r\n#t\r\n"
    text += ">2\r\n=8\r\ntxt:Some\r\n_\r\n"
    var bytes = Array(text.utf8)
    bytes += Array("$\(largeString)\r\n".utf8)
    bytes += [UInt8](repeating: 0x2a, count: largeString)
    bytes += Array("\r\n".utf8)
    return bytes
  }

  /// Feeds `bytes` `chunk` bytes at a time; the values completed and the bytes examined.
  static func trickle(_ bytes: [UInt8], chunk: Int) throws -> ([RESPValue], Int) {
    var reader = RESPReader()
    var values: [RESPValue] = []
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      reader.buffer.append(contentsOf: bytes[offset..<end])
      offset = end
      while let value = try reader.next() { values.append(value) }
    }
    return (values, reader.examined)
  }

  @Test func aLargeReplyInSmallReadsIsTheOneShotValueForLinearWork() throws {
    let reply = Self.largeReply(smallStrings: 20_000, largeString: 6 << 20)
    #expect(reply.count > 6 << 20)
    let (oneShot, end) = try #require(try RESPParser().parse(reply, from: 0))
    #expect(end == reply.count)
    let (values, examined) = try Self.trickle(reply, chunk: 16 << 10)
    #expect(values == [oneShot])
    // Every byte examined about once (restarting after each of the ~400 reads examined the
    // reply's bytes hundreds of times over).
    #expect(examined <= 2 * reply.count, "\(examined) bytes examined for \(reply.count)")
  }

  @Test func aReplyFedByteByByteIsTheOneShotValueForLinearWork() throws {
    // Two pipelined replies, so the second begins inside the read that ends the first.
    let reply =
      Self.largeReply(smallStrings: 2_000, largeString: 50_000)
      + Array("*2\r\n$5\r\nhello\r\n:7\r\n".utf8)
    var oneShot: [RESPValue] = []
    var index = 0
    while let (value, next) = try RESPParser().parse(reply, from: index) {
      oneShot.append(value)
      index = next
      if index == reply.count { break }
    }
    #expect(oneShot.count == 2)
    let (values, examined) = try Self.trickle(reply, chunk: 1)
    #expect(values == oneShot)
    #expect(examined <= 2 * reply.count, "\(examined) bytes examined for \(reply.count)")
    // Chunks that split headers, CRLFs and strings everywhere give the same values too.
    for chunk in [2, 3, 7, 4096] {
      #expect(try Self.trickle(reply, chunk: chunk).0 == oneShot, "chunk \(chunk)")
    }
  }

  @Test func theLimitsHoldWhileAReplyIsResumed() throws {
    var reader = RESPReader(limits: RESPLimits(maximumBulkLength: 16, maximumReplyLength: 64))
    reader.buffer = Array("*3\r\n$4\r\nab".utf8)
    let incomplete = try reader.next()
    #expect(incomplete == nil)
    reader.buffer += Array("cd\r\n$17\r\n".utf8)
    // The announced length is refused as soon as the header is in, before the payload.
    let error = #expect(throws: RedisError.self) { _ = try reader.next() }
    #expect(error?.kind == .replyTooLarge)
    var spanning = RESPReader(limits: RESPLimits(maximumReplyLength: 32))
    spanning.buffer = Array("*100\r\n".utf8)
    let started = try spanning.next()
    #expect(started == nil)
    for _ in 0..<3 { spanning.buffer += Array("$4\r\nabcd\r\n".utf8) }
    let spanError = #expect(throws: RedisError.self) { _ = try spanning.next() }
    #expect(spanError?.kind == .replyTooLarge)
  }
}
