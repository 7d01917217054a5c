/// Size limits, timeouts and host policy applied to every request.
///
/// The defaults suit both a CLI's OAuth redirect and an in-process provider emulator:
///
/// ```swift
/// var limits = HTTPLimits.default
/// limits.readTimeout = .milliseconds(200)   // tests
/// let server = try LoopbackServer(limits: limits)
/// ```
public struct HTTPLimits: Sendable, Hashable {
  /// Maximum bytes for the request line, all header lines, their CRLFs and the empty line that
  /// ends them (default 8 KiB). Over it: 414 if still in the request line, else 431.
  public var maxHeaderBytes: Int
  /// Maximum number of header fields (default 100). Over it: 431.
  public var maxHeaderCount: Int
  /// Maximum `Content-Length` (default 1 MiB). Over it: 413, sent before reading the body.
  public var maxBodyBytes: Int
  /// Time from accepting a connection to having the complete request, head and body
  /// (default 10 s). This is one absolute deadline, so a client that trickles a byte at a time
  /// is dropped (with 408 if it sent anything) when it passes.
  public var readTimeout: Duration
  /// Time allowed to write a response once the handler returned it (default 10 s).
  public var writeTimeout: Duration
  /// How many connections may be open at once (default 16); more wait in the listen backlog.
  /// Browsers open speculative connections that never send a request, so this must be above 1
  /// for a redirect not to stall behind one.
  public var maxConnections: Int
  /// Whether `Host` must be `127.0.0.1`, `[::1]` or `localhost`, with an optional port
  /// (default `true`). This defeats DNS rebinding: a web page whose hostname now resolves to
  /// 127.0.0.1 still sends its own name in `Host` and gets 400. Set it to `false` for an
  /// emulator reached through a fake hostname. Absolute-form targets
  /// (`GET http://host/path`) must name a loopback host either way.
  public var requireLoopbackHost: Bool

  /// Creates limits; every parameter defaults to the value in ``default``.
  public init(
    maxHeaderBytes: Int = 8 * 1024,
    maxHeaderCount: Int = 100,
    maxBodyBytes: Int = 1024 * 1024,
    readTimeout: Duration = .seconds(10),
    writeTimeout: Duration = .seconds(10),
    maxConnections: Int = 16,
    requireLoopbackHost: Bool = true
  ) {
    self.maxHeaderBytes = maxHeaderBytes
    self.maxHeaderCount = maxHeaderCount
    self.maxBodyBytes = maxBodyBytes
    self.readTimeout = readTimeout
    self.writeTimeout = writeTimeout
    self.maxConnections = maxConnections
    self.requireLoopbackHost = requireLoopbackHost
  }

  /// 8 KiB head, 100 headers, 1 MiB body, 10 s read and write timeouts, 16 connections,
  /// loopback `Host` required.
  public static let `default` = HTTPLimits()
}

/// Why a request was rejected. Each case maps to the status the server answers with.
public enum HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request line is not `METHOD SP target SP HTTP/x.y` (400).
  case invalidRequestLine
  /// The method is empty or contains a non-token character (400).
  case invalidMethod
  /// The target is not origin-form (or absolute-form naming a loopback host), contains a byte
  /// outside 0x21–0x7E or a `#`, or has a malformed `%` escape or non-UTF-8 query (400).
  case invalidTarget
  /// `HTTP/x.y` other than 1.0 and 1.1 (505).
  case unsupportedVersion
  /// A bare LF or a CR not followed by LF (400). Only CRLF ends a line: RFC 9112 §2.2 allows
  /// accepting bare LF, but every real client sends CRLF and lenient line parsing is a classic
  /// request-smuggling vector.
  case invalidLineEnding
  /// A header line starting with a space or tab (obsolete line folding, 400).
  case obsoleteLineFolding
  /// A header name that is empty or has a non-token character, or a line without a colon (400).
  case invalidHeaderName
  /// Whitespace between a header name and its colon (400, RFC 9112 §5.1).
  case whitespaceBeforeColon
  /// A header value with a control character or invalid UTF-8 (400).
  case invalidHeaderValue(name: String)
  /// HTTP/1.1 without `Host` (400).
  case missingHost
  /// More than one `Host`, or a `Host` that is malformed or not loopback (400).
  case invalidHost
  /// A `Content-Length` that is not a plain decimal number (400).
  case invalidContentLength
  /// More than one `Content-Length` field, even with equal values (400).
  case duplicateContentLength
  /// Any `Transfer-Encoding` (501): only `Content-Length` bodies are implemented, and
  /// rejecting the field also rules out `Transfer-Encoding`/`Content-Length` smuggling.
  case transferEncodingNotSupported
  /// An `Expect` other than a single `100-continue` (417).
  case unsupportedExpectation
  /// The request line alone exceeds ``HTTPLimits/maxHeaderBytes`` (414).
  case requestLineTooLong
  /// The head exceeds ``HTTPLimits/maxHeaderBytes`` (431).
  case headerSectionTooLarge
  /// More than ``HTTPLimits/maxHeaderCount`` fields (431).
  case tooManyHeaders
  /// `Content-Length` exceeds ``HTTPLimits/maxBodyBytes`` (413).
  case bodyTooLarge
  /// The read deadline passed before the request was complete (408). Produced by the server,
  /// never by the parser.
  case timedOut

  /// The HTTP status code the server answers with.
  public var status: Int {
    switch self {
    case .unsupportedVersion: 505
    case .transferEncodingNotSupported: 501
    case .unsupportedExpectation: 417
    case .requestLineTooLong: 414
    case .headerSectionTooLarge, .tooManyHeaders: 431
    case .bodyTooLarge: 413
    case .timedOut: 408
    default: 400
    }
  }

  /// A one-line explanation, also used as the error response body.
  public var description: String {
    switch self {
    case .invalidRequestLine: "malformed request line"
    case .invalidMethod: "invalid method"
    case .invalidTarget: "invalid request target"
    case .unsupportedVersion: "only HTTP/1.0 and HTTP/1.1 are supported"
    case .invalidLineEnding: "lines must end with CRLF"
    case .obsoleteLineFolding: "obsolete header line folding"
    case .invalidHeaderName: "invalid header field name"
    case .whitespaceBeforeColon: "whitespace between header name and colon"
    case .invalidHeaderValue(let name): "invalid value in header field \(name)"
    case .missingHost: "missing Host header"
    case .invalidHost: "invalid or non-loopback Host header"
    case .invalidContentLength: "invalid Content-Length"
    case .duplicateContentLength: "more than one Content-Length"
    case .transferEncodingNotSupported: "Transfer-Encoding is not supported; send Content-Length"
    case .unsupportedExpectation: "unsupported Expect header"
    case .requestLineTooLong: "request line too long"
    case .headerSectionTooLarge: "request header section too large"
    case .tooManyHeaders: "too many header fields"
    case .bodyTooLarge: "request body too large"
    case .timedOut: "request not received in time"
    }
  }
}

/// An incremental HTTP/1.x request parser: a value-type state machine fed byte chunks of any
/// size, with no I/O, so it can be unit-tested and fuzzed directly.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// switch parser.feed(Array("GET /cb?code=x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) {
/// case .complete(let request, let leftover): print(request.queryItems, leftover.count)
/// case .needMore: break  // feed the next chunk
/// case .error(let error): print(error.status, error)
/// }
/// ```
///
/// After `.complete` the parser starts over, so the leftover bytes (a pipelined request) can be
/// fed to it again. After `.error` it stays failed and keeps returning that error.
public struct HTTPRequestParser: Sendable {
  /// The outcome of feeding bytes.
  public enum ParseResult: Sendable, Hashable {
    /// The request is incomplete; feed more bytes.
    case needMore
    /// A complete request, and the bytes received after its end.
    case complete(HTTPRequest, leftover: [UInt8])
    /// The request is malformed or over a limit; answer with `error.status` and close.
    case error(HTTPParseError)
  }

  private struct PendingBody {
    var request: HTTPRequest
    var length: Int
  }

  private enum State {
    case head
    case body(PendingBody)
    case failed(HTTPParseError)
  }

  /// The limits this parser enforces.
  public let limits: HTTPLimits
  private let remoteAddress: String
  private var state: State = .head
  private var buffer: [UInt8] = []
  private var scanIndex = 0
  private var headStart = 0
  private var lineStart = 0
  private var lineCount = 0
  private var expectContinue = false

  /// Creates a parser.
  /// - Parameters:
  ///   - limits: The size limits and host policy to enforce.
  ///   - remoteAddress: Copied into each ``HTTPRequest/remoteAddress``.
  public init(limits: HTTPLimits = .default, remoteAddress: String = "") {
    self.limits = limits
    self.remoteAddress = remoteAddress
  }

  /// Whether any byte of the current request has been received (blank lines before a request
  /// line count). The server uses it to decide whether an idle timeout deserves a 408.
  public var hasPartialRequest: Bool {
    if case .head = state { return !buffer.isEmpty }
    return true
  }

  /// Whether the head is complete, the body is still missing and the client sent
  /// `Expect: 100-continue` on HTTP/1.1, so it may be waiting for `100 Continue`.
  public var isAwaitingContinue: Bool {
    if case .body = state { return expectContinue }
    return false
  }

  /// Appends `bytes` and parses as far as possible.
  public mutating func feed(_ bytes: some Collection<UInt8>) -> ParseResult {
    switch state {
    case .failed(let error):
      return .error(error)
    case .head:
      buffer.append(contentsOf: bytes)
      return scanHead()
    case .body(let pending):
      buffer.append(contentsOf: bytes)
      return finishBody(pending)
    }
  }

  private mutating func fail(_ error: HTTPParseError) -> ParseResult {
    state = .failed(error)
    buffer = []
    return .error(error)
  }

  private mutating func scanHead() -> ParseResult {
    while scanIndex < buffer.count {
      let byte = buffer[scanIndex]
      let previousIsCR = scanIndex > lineStart && buffer[scanIndex - 1] == ASCII.cr
      if byte == ASCII.lf {
        guard previousIsCR else { return fail(.invalidLineEnding) }
        let isEmptyLine = scanIndex - 1 == lineStart
        if isEmptyLine && lineCount == 0 {
          // RFC 9112 §2.2: ignore empty lines before the request line.
          headStart = scanIndex + 1
        } else if isEmptyLine {
          return parseHead(headEnd: lineStart, bodyStart: scanIndex + 1)
        } else {
          lineCount += 1
          if lineCount - 1 > limits.maxHeaderCount { return fail(.tooManyHeaders) }
        }
        lineStart = scanIndex + 1
      } else if previousIsCR {
        return fail(.invalidLineEnding)
      }
      scanIndex += 1
      if scanIndex >= limits.maxHeaderBytes {
        return fail(lineCount == 0 ? .requestLineTooLong : .headerSectionTooLarge)
      }
    }
    return .needMore
  }

  private mutating func finishBody(_ pending: PendingBody) -> ParseResult {
    guard buffer.count >= pending.length else { return .needMore }
    let body = Array(buffer[..<pending.length])
    let leftover = Array(buffer[pending.length...])
    let old = pending.request
    let request = HTTPRequest(
      method: old.method, target: old.target, version: old.version,
      parts: RequestTarget(path: old.path, query: old.query, queryItems: old.queryItems),
      headers: old.headers, body: body, remoteAddress: old.remoteAddress)
    resetForNextRequest()
    return .complete(request, leftover: leftover)
  }

  private mutating func resetForNextRequest() {
    state = .head
    buffer = []
    scanIndex = 0
    headStart = 0
    lineStart = 0
    lineCount = 0
    expectContinue = false
  }

  /// Splits `buffer[headStart..<headEnd]` (CRLF-terminated lines) and validates everything.
  private mutating func parseHead(headEnd: Int, bodyStart: Int) -> ParseResult {
    var lines: [ArraySlice<UInt8>] = []
    var start = headStart
    var index = headStart
    while index < headEnd {
      if buffer[index] == ASCII.cr {
        lines.append(buffer[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    do {
      let request = try Self.makeRequest(
        lines: lines, limits: limits, remoteAddress: remoteAddress)
      let length = try Self.contentLength(request.headers, limits: limits)
      expectContinue = try Self.expectsContinue(request)
      buffer.removeSubrange(..<bodyStart)
      if length > 0 { buffer.reserveCapacity(length) }
      let pending = PendingBody(request: request, length: length)
      state = .body(pending)
      return finishBody(pending)
    } catch {
      return fail(error)
    }
  }

  private static func makeRequest(
    lines: [ArraySlice<UInt8>], limits: HTTPLimits, remoteAddress: String
  ) throws(HTTPParseError) -> HTTPRequest {
    guard let requestLine = lines.first else { throw .invalidRequestLine }
    let parts = requestLine.split(separator: ASCII.space, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[1].isEmpty else { throw .invalidRequestLine }
    guard !parts[0].isEmpty, parts[0].allSatisfy(ASCII.isTokenChar) else {
      throw .invalidMethod
    }
    let version = try parseVersion(parts[2])
    let target = try RequestTarget.parse(Array(parts[1]))
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      let field = try parseField(line)
      headers.add(name: field.name, value: field.value)
    }
    try validateHost(headers, version: version, limits: limits)
    return HTTPRequest(
      method: String(decoding: parts[0], as: UTF8.self),
      target: String(decoding: parts[1], as: UTF8.self),
      version: version, parts: target, headers: headers, body: [],
      remoteAddress: remoteAddress)
  }

  private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError)
    -> HTTPVersion
  {
    let text = String(decoding: bytes, as: UTF8.self)
    if let version = HTTPVersion(rawValue: text) { return version }
    let shape = Array("HTTP/".utf8)
    let digits = Array(bytes.dropFirst(shape.count))
    if bytes.starts(with: shape), digits.count == 3, ASCII.isDigit(digits[0]),
      digits[1] == UInt8(ascii: "."), ASCII.isDigit(digits[2])
    {
      throw .unsupportedVersion
    }
    throw .invalidRequestLine
  }

  private static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError)
    -> HTTPHeaders.Field
  {
    guard let first = line.first else { throw .invalidHeaderName }
    if first == ASCII.space || first == ASCII.tab { throw .obsoleteLineFolding }
    guard let colon = line.firstIndex(of: ASCII.colon) else { throw .invalidHeaderName }
    let name = line[line.startIndex..<colon]
    if let last = name.last, last == ASCII.space || last == ASCII.tab {
      throw .whitespaceBeforeColon
    }
    guard !name.isEmpty, name.allSatisfy(ASCII.isTokenChar) else { throw .invalidHeaderName }
    let nameString = String(decoding: name, as: UTF8.self)
    var value = line[line.index(after: colon)...]
    while let byte = value.first, byte == ASCII.space || byte == ASCII.tab {
      value = value.dropFirst()
    }
    while let byte = value.last, byte == ASCII.space || byte == ASCII.tab {
      value = value.dropLast()
    }
    guard value.allSatisfy(ASCII.isFieldValueChar),
      let valueString = String(validating: value, as: UTF8.self)
    else { throw .invalidHeaderValue(name: nameString) }
    return HTTPHeaders.Field(name: nameString, value: valueString)
  }

  private static func validateHost(
    _ headers: HTTPHeaders, version: HTTPVersion, limits: HTTPLimits
  ) throws(HTTPParseError) {
    let hosts = headers.values(for: "Host")
    guard hosts.count <= 1 else { throw .invalidHost }
    guard let host = hosts.first else {
      if version == .http11 { throw .missingHost }
      return
    }
    if limits.requireLoopbackHost {
      guard HostValidation.isLoopbackAuthority(host.utf8) else { throw .invalidHost }
    } else {
      let valid = !host.isEmpty && host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
      guard valid else { throw .invalidHost }
    }
  }

  private static func contentLength(_ headers: HTTPHeaders, limits: HTTPLimits)
    throws(HTTPParseError) -> Int
  {
    if headers.contains("Transfer-Encoding") { throw .transferEncodingNotSupported }
    let values = headers.values(for: "Content-Length")
    guard let value = values.first else { return 0 }
    guard values.count == 1 else { throw .duplicateContentLength }
    let digits = Array(value.utf8)
    guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else {
      throw .invalidContentLength
    }
    // More than 15 digits cannot be a body we accept, and cannot overflow Int while parsing.
    guard digits.count <= 15 else { throw .bodyTooLarge }
    let length = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    guard length <= limits.maxBodyBytes else { throw .bodyTooLarge }
    return length
  }

  private static func expectsContinue(_ request: HTTPRequest) throws(HTTPParseError) -> Bool {
    let values = request.headers.values(for: "Expect")
    guard let value = values.first else { return false }
    guard values.count == 1, HTTPHeaders.namesEqual(value, "100-continue") else {
      throw .unsupportedExpectation
    }
    return request.version == .http11
  }
}
