import LoopbackHTTP
import Testing

private func parse(
  _ bytes: [UInt8], limits: HTTPLimits = .default, chunkSize: Int? = nil
) -> HTTPRequestParser.ParseResult {
  var parser = HTTPRequestParser(limits: limits, remoteAddress: "127.0.0.1:1")
  guard let chunkSize else { return parser.feed(bytes) }
  var index = 0
  var result = HTTPRequestParser.ParseResult.needMore
  while index < bytes.count {
    result = parser.feed(bytes[index..<min(index + chunkSize, bytes.count)])
    index += chunkSize
    if case .needMore = result { continue }
    return result
  }
  return result
}

private func parse(_ text: String, limits: HTTPLimits = .default) -> HTTPRequestParser.ParseResult {
  parse(Array(text.utf8), limits: limits)
}

private func completed(_ result: HTTPRequestParser.ParseResult) throws -> HTTPRequest {
  guard case .complete(let request, _) = result else {
    Issue.record("expected a complete request, got \(result)")
    throw ParserTestFailure()
  }
  return request
}

private struct ParserTestFailure: Error {}

@Suite(.timeLimit(.minutes(5))) struct ParserTests {
  @Test func validGETWithQuery() throws {
    let result = parse(
      "GET /callback?code=a%20b&state=x+y&state=z&flag&&e=%E2%9C%93 HTTP/1.1\r\n"
        + "Host: 127.0.0.1:8080\r\nUser-Agent:  test/1 \r\nAccept: */*\r\n\r\n")
    let request = try completed(result)
    #expect(request.method == "GET")
    #expect(request.version == .http11)
    #expect(request.target == "/callback?code=a%20b&state=x+y&state=z&flag&&e=%E2%9C%93")
    #expect(request.path == "/callback")
    #expect(request.query == "code=a%20b&state=x+y&state=z&flag&&e=%E2%9C%93")
    #expect(
      request.queryItems == [
        HTTPQueryItem(name: "code", value: "a b"), HTTPQueryItem(name: "state", value: "x y"),
        HTTPQueryItem(name: "state", value: "z"), HTTPQueryItem(name: "flag", value: ""),
        HTTPQueryItem(name: "e", value: "✓"),
      ])
    #expect(request.uniqueQueryValue("code") == "a b")
    #expect(request.uniqueQueryValue("state") == nil)
    #expect(request.queryValues("state") == ["x y", "z"])
    #expect(request.headers["user-agent"] == "test/1")
    #expect(request.headers.count == 3)
    #expect(request.body.isEmpty)
    #expect(request.remoteAddress == "127.0.0.1:1")
  }

  @Test func postFormBodyByteByByte() throws {
    let text =
      "POST /token HTTP/1.1\r\nHost: localhost\r\n"
      + "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n"
      + "Content-Length: 47\r\n\r\n"
      + "grant_type=authorization_code&code=abc%2Fd+e&x="
    let bytes = Array(text.utf8)
    var parser = HTTPRequestParser()
    for (index, byte) in bytes.enumerated() {
      let result = parser.feed([byte])
      if index < bytes.count - 1 {
        #expect(result == .needMore, "byte \(index)")
      } else {
        let request = try completed(result)
        #expect(request.method == "POST")
        #expect(request.body.count == 47)
        #expect(
          request.formItems == [
            HTTPQueryItem(name: "grant_type", value: "authorization_code"),
            HTTPQueryItem(name: "code", value: "abc/d e"), HTTPQueryItem(name: "x", value: ""),
          ])
        guard case .complete(_, let leftover) = result else { return }
        #expect(leftover.isEmpty)
      }
    }
  }

  @Test(arguments: [1, 2, 3, 7, 64, 10_000])
  func chunkingDoesNotMatter(chunkSize: Int) throws {
    let text =
      "PUT /a/b%2Fc?x=1 HTTP/1.0\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\n"
    let result = parse(Array(text.utf8), chunkSize: chunkSize)
    guard case .complete(let request, let leftover) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(request.body == Array("hello".utf8))
    #expect(request.decodedPath == "/a/b/c")
    // With small chunks the parser returns as soon as the body is complete.
    #expect(Array("GET / HTTP/1.1\r\n".utf8).starts(with: leftover))
  }

  @Test func parserRestartsAfterCompleteRequestForPipelinedLeftover() throws {
    var parser = HTTPRequestParser()
    let two = "GET /1 HTTP/1.1\r\nHost: [::1]\r\n\r\nGET /2 HTTP/1.1\r\nHost: [::1]:80\r\n\r\n"
    guard case .complete(let first, let leftover) = parser.feed(Array(two.utf8)) else {
      Issue.record("first request incomplete")
      return
    }
    #expect(first.path == "/1")
    let second = try completed(parser.feed(leftover))
    #expect(second.path == "/2")
  }

  @Test func errorIsSticky() {
    var parser = HTTPRequestParser()
    #expect(parser.feed(Array("GET / HTTP/1.1\n".utf8)) == .error(.invalidLineEnding))
    #expect(parser.feed(Array("\r\n".utf8)) == .error(.invalidLineEnding))
  }

  @Test func leadingEmptyLinesAreIgnored() throws {
    let request = try completed(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
    #expect(request.path == "/")
  }

  @Test func http10WithoutHostIsAccepted() throws {
    let request = try completed(parse("GET /x HTTP/1.0\r\n\r\n"))
    #expect(request.version == .http10)
  }

  @Test func absoluteFormWithLoopbackHost() throws {
    let request = try completed(
      parse("GET http://127.0.0.1:8080/cb?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"))
    #expect(request.path == "/cb")
    #expect(request.queryItems == [HTTPQueryItem(name: "x", value: "1")])
    let bare = try completed(parse("GET HTTP://LocalHost HTTP/1.1\r\nHost: localhost\r\n\r\n"))
    #expect(bare.path == "/")
    #expect(bare.query == nil)
  }

  @Test func nonLoopbackHostAllowedWhenConfigured() throws {
    var limits = HTTPLimits.default
    limits.requireLoopbackHost = false
    let request = try completed(
      parse("GET / HTTP/1.1\r\nHost: graph.facebook.test\r\n\r\n", limits: limits))
    #expect(request.headers["host"] == "graph.facebook.test")
    #expect(
      parse("GET / HTTP/1.1\r\nHost: graph.facebook.test\r\n\r\n") == .error(.invalidHost))
  }

  @Test func expectContinueIsReported() {
    var parser = HTTPRequestParser()
    let head =
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    #expect(parser.feed(Array(head.utf8)) == .needMore)
    #expect(parser.isAwaitingContinue)
    #expect(parser.hasPartialRequest)
    guard case .complete = parser.feed(Array("ok".utf8)) else {
      Issue.record("not complete")
      return
    }
    #expect(!parser.isAwaitingContinue)
    #expect(!parser.hasPartialRequest)
  }

  static let rejections: [(String, HTTPParseError)] = [
    ("GET / HTTP/1.1\nHost: 127.0.0.1\r\n\r\n", .invalidLineEnding),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\rX: y\r\n\r\n", .invalidLineEnding),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\n", .invalidLineEnding),
    ("GET  / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidRequestLine),
    ("GET / HTTP/1.1 \r\nHost: 127.0.0.1\r\n\r\n", .invalidRequestLine),
    ("GET /\r\n\r\n", .invalidRequestLine),
    ("GET / http/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidRequestLine),
    ("GET / HTTP/1\r\nHost: 127.0.0.1\r\n\r\n", .invalidRequestLine),
    ("G(T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidMethod),
    (" GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidRequestLine),
    ("GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", .unsupportedVersion),
    ("GET / HTTP/1.2\r\nHost: 127.0.0.1\r\n\r\n", .unsupportedVersion),
    ("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET http://127.0.0.1.evil/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET https://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /a%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /a%2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /a#frag HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /?q=%FF HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /\u{7F} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /\u{01} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET /é HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidTarget),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\r\n  folded\r\n\r\n", .obsoleteLineFolding),
    ("GET / HTTP/1.1\r\n Host: 127.0.0.1\r\n\r\n", .obsoleteLineFolding),
    ("GET / HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", .whitespaceBeforeColon),
    ("GET / HTTP/1.1\r\nHost\t: 127.0.0.1\r\n\r\n", .whitespaceBeforeColon),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX A: 1\r\n\r\n", .invalidHeaderName),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n: 1\r\n\r\n", .invalidHeaderName),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColon\r\n\r\n", .invalidHeaderName),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX(a): 1\r\n\r\n", .invalidHeaderName),
    (
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\u{01}b\r\n\r\n", .invalidHeaderValue(name: "X-A")
    ),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\u{7F}\r\n\r\n", .invalidHeaderValue(name: "X-A")),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-B: \0\r\n\r\n", .invalidHeaderValue(name: "X-B")),
    ("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .missingHost),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n", .invalidHost),
    ("GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n", .invalidHost),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1:80x\r\n\r\n", .invalidHost),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1:123456\r\n\r\n", .invalidHost),
    ("GET / HTTP/1.1\r\nHost: \r\n\r\n", .invalidHost),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", .invalidContentLength),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: +1\r\n\r\n", .invalidContentLength),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1, 1\r\n\r\n", .invalidContentLength),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length:\r\n\r\n", .invalidContentLength),
    (
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\n",
      .duplicateContentLength
    ),
    (
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000000000000000\r\n\r\n",
      .bodyTooLarge
    ),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048577\r\n\r\n", .bodyTooLarge),
    (
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n",
      .transferEncodingNotSupported
    ),
    (
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
      .transferEncodingNotSupported
    ),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n", .unsupportedExpectation),
  ]

  @Test(arguments: rejections)
  func rejects(raw: String, expected: HTTPParseError) {
    #expect(parse(raw) == .error(expected))
    // The verdict must not depend on how the bytes are split.
    #expect(parse(Array(raw.utf8), chunkSize: 1) == .error(expected))
  }

  @Test func rejectsInvalidUTF8HeaderValue() {
    let bytes =
      Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ".utf8) + [0xFF, 0xFE]
      + Array("\r\n\r\n".utf8)
    #expect(parse(bytes) == .error(.invalidHeaderValue(name: "X-A")))
  }

  @Test func statusCodes() {
    let expected: [(HTTPParseError, Int)] = [
      (.invalidRequestLine, 400), (.invalidTarget, 400), (.invalidLineEnding, 400),
      (.obsoleteLineFolding, 400), (.missingHost, 400), (.duplicateContentLength, 400),
      (.unsupportedVersion, 505), (.transferEncodingNotSupported, 501),
      (.unsupportedExpectation, 417), (.requestLineTooLong, 414),
      (.headerSectionTooLarge, 431), (.tooManyHeaders, 431), (.bodyTooLarge, 413),
      (.timedOut, 408),
    ]
    for (error, status) in expected {
      #expect(error.status == status, "\(error)")
      #expect(!error.description.isEmpty)
    }
  }

  // MARK: - Limits

  /// A request whose head is exactly `size` bytes, padded in one header.
  private func head(ofSize size: Int) -> [UInt8] {
    let prefix = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
    let suffix = "\r\n\r\n"
    let padding = String(repeating: "a", count: size - prefix.utf8.count - suffix.utf8.count)
    return Array((prefix + padding + suffix).utf8)
  }

  @Test func headSizeBoundary() throws {
    let atLimit = head(ofSize: 8192)
    #expect(atLimit.count == 8192)
    _ = try completed(parse(atLimit))
    _ = try completed(parse(atLimit, chunkSize: 1))
    #expect(parse(head(ofSize: 8193)) == .error(.headerSectionTooLarge))
    #expect(parse(head(ofSize: 8193), chunkSize: 1) == .error(.headerSectionTooLarge))
  }

  @Test func headSizeLimitIsEnforcedBeforeTheEndOfTheHead() {
    var parser = HTTPRequestParser()
    let start = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: ".utf8)
    #expect(parser.feed(start) == .needMore)
    let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 8192 - start.count - 1)
    #expect(parser.feed(filler) == .needMore)
    #expect(parser.feed([UInt8(ascii: "a")]) == .error(.headerSectionTooLarge))
  }

  @Test func requestLineBoundary() throws {
    let line = "GET /" + String(repeating: "a", count: 8192) + " HTTP/1.1\r\n"
    #expect(parse(line) == .error(.requestLineTooLong))
    var parser = HTTPRequestParser()
    // No line end yet: rejected as soon as the limit is reached.
    #expect(
      parser.feed([UInt8](repeating: UInt8(ascii: "G"), count: 8192)) == .error(.requestLineTooLong)
    )
    // With a 64-byte limit, `GET /<n>` HTTP/1.0 plus CRLF CRLF is n + 18 bytes.
    var limits = HTTPLimits.default
    limits.maxHeaderBytes = 64
    let atLimit = "GET /" + String(repeating: "b", count: 46) + " HTTP/1.0\r\n\r\n"
    #expect(atLimit.utf8.count == 64)
    _ = try completed(parse(atLimit, limits: limits))
    let path47 = "/" + String(repeating: "b", count: 47)
    // The request line itself fits; the final CRLF does not.
    #expect(
      parse("GET \(path47) HTTP/1.0\r\n\r\n", limits: limits) == .error(.headerSectionTooLarge))
    let path64 = String(repeating: "b", count: 64)
    #expect(parse("GET /\(path64) HTTP/1.0\r\n\r\n", limits: limits) == .error(.requestLineTooLong))
  }

  private func requestBytes(headerCount: Int) -> [UInt8] {
    var text = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for index in 1..<headerCount { text += "X-\(index): v\r\n" }
    return Array((text + "\r\n").utf8)
  }

  @Test func headerCountBoundary() throws {
    let request100 = try completed(parse(requestBytes(headerCount: 100)))
    #expect(request100.headers.count == 100)
    #expect(parse(requestBytes(headerCount: 101)) == .error(.tooManyHeaders))
    #expect(parse(requestBytes(headerCount: 101), chunkSize: 1) == .error(.tooManyHeaders))
  }

  @Test func bodySizeBoundary() throws {
    let max = 1024 * 1024
    let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(max)\r\n\r\n"
    let atLimit = Array(head.utf8) + [UInt8](repeating: 0x41, count: max)
    let request = try completed(parse(atLimit))
    #expect(request.body.count == max)
    let over = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(max + 1)\r\n\r\n"
    // Rejected from the head alone, before any body byte arrives.
    #expect(parse(over) == .error(.bodyTooLarge))
  }

  @Test func customBodyLimit() throws {
    var limits = HTTPLimits.default
    limits.maxBodyBytes = 4
    let ok = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n\r\nabcd"
    #expect(try completed(parse(ok, limits: limits)).body == Array("abcd".utf8))
    let over = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nabcde"
    #expect(parse(over, limits: limits) == .error(.bodyTooLarge))
  }

  // MARK: - Fuzzing

  /// Deterministic SplitMix64 so a failure is reproducible from the seed.
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  @Test func fuzzedInputNeverCrashesAndIgnoresChunking() {
    let seeds = [
      "GET /cb?code=x&state=y HTTP/1.1\r\nHost: 127.0.0.1:1\r\nAccept: */*\r\n\r\n",
      "POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\na=b",
      "GET http://[::1]:9/x HTTP/1.0\r\nExpect: 100-continue\r\n\r\n",
    ].map { Array($0.utf8) }
    let alphabet = Array(" \r\n:%/?#+=&\t\0\u{7F}0aZ".utf8) + [0x80, 0xFF]
    var generator = SplitMix64(state: 0x5EED)
    var limits = HTTPLimits.default
    limits.maxHeaderBytes = 256
    limits.maxHeaderCount = 4
    limits.maxBodyBytes = 16
    for iteration in 0..<3000 {
      var bytes = seeds[iteration % seeds.count]
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = alphabet.randomElement(using: &generator) ?? 0
        case 1: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: index)
        default: if bytes.count > 1 { bytes.remove(at: index) }
        }
      }
      let whole = parse(bytes, limits: limits)
      let chunked = parse(
        bytes, limits: limits, chunkSize: Int.random(in: 1...9, using: &generator))
      // Chunked feeding stops at the chunk that completes the request, so its leftover can
      // only be a prefix of the whole-buffer leftover; everything else must be identical.
      switch (whole, chunked) {
      case (.complete(let left, let leftoverWhole), .complete(let right, let leftoverChunked)):
        #expect(left == right, "iteration \(iteration): \(bytes)")
        #expect(leftoverWhole.starts(with: leftoverChunked), "iteration \(iteration)")
      default:
        #expect(whole == chunked, "iteration \(iteration): \(bytes)")
      }
    }
  }
}

@Suite(.timeLimit(.minutes(5))) struct HeaderAndFormTests {
  @Test func headersAreOrderedAndCaseInsensitive() {
    var headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "text/plain"]
    headers.add(name: "set-cookie", value: "b=2")
    #expect(headers["SET-COOKIE"] == "a=1")
    #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
    #expect(headers.contains("content-TYPE"))
    headers.replaceOrAdd(name: "SET-cookie", value: "c=3")
    #expect(headers.values(for: "set-cookie") == ["c=3"])
    #expect(headers.map(\.name) == ["Content-Type", "SET-cookie"])
    headers.remove(name: "content-type")
    #expect(headers["Content-Type"] == nil)
  }

  @Test func formRoundTrip() {
    let items = [
      HTTPQueryItem(name: "redirect_uri", value: "http://127.0.0.1:8080/cb?a=1&b=2"),
      HTTPQueryItem(name: "scope", value: "openid email ✓"),
      HTTPQueryItem(name: "empty", value: ""),
    ]
    let encoded = HTTPForm.encode(items)
    #expect(
      encoded
        == "redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcb%3Fa%3D1%26b%3D2"
        + "&scope=openid+email+%E2%9C%93&empty=")
    #expect(HTTPForm.decode(Array(encoded.utf8)) == items)
    #expect(HTTPForm.decode(Array("a=%G1".utf8)) == nil)
    #expect(HTTPForm.decode(Array("a=%C3".utf8)) == nil)
  }

  @Test func formItemsRequireFormContentType() throws {
    let json = try HTTPRequest(
      method: "POST", target: "/", headers: ["Content-Type": "application/json"],
      body: Array("a=b".utf8))
    #expect(json.formItems == nil)
    let form = try HTTPRequest(
      method: "POST", target: "/",
      headers: ["Content-Type": "Application/X-WWW-Form-URLEncoded"], body: Array("a=b".utf8))
    #expect(form.formItems == [HTTPQueryItem(name: "a", value: "b")])
  }

  @Test func requestInitValidatesTarget() {
    #expect(throws: HTTPParseError.invalidTarget) {
      try HTTPRequest(method: "GET", target: "relative")
    }
    #expect(throws: HTTPParseError.invalidMethod) { try HTTPRequest(method: "G T", target: "/") }
  }

  @Test func decodedPath() throws {
    #expect(try HTTPRequest(method: "GET", target: "/a%20b+c/%E2%9C%93").decodedPath == "/a b+c/✓")
    #expect(try HTTPRequest(method: "GET", target: "/%00").decodedPath == nil)
    #expect(try HTTPRequest(method: "GET", target: "/%FF").decodedPath == nil)
  }
}
