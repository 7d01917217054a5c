/// The HTTP versions the server accepts.
public enum HTTPVersion: String, Sendable, Hashable {
  /// `HTTP/1.0`: `Host` is optional.
  case http10 = "HTTP/1.0"
  /// `HTTP/1.1`: exactly one `Host` field is required (RFC 9112 §3.2).
  case http11 = "HTTP/1.1"
}

/// One `name=value` pair from a query string or an `application/x-www-form-urlencoded` body,
/// after form decoding (`+` is a space, `%XX` is a byte, the bytes are UTF-8).
public struct HTTPQueryItem: Sendable, Hashable {
  /// The decoded name.
  public var name: String
  /// The decoded value; empty when the pair had no `=`.
  public var value: String

  /// Creates a query item.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// A complete, validated HTTP request.
///
/// The server only ever hands a handler requests that passed every check in
/// ``HTTPRequestParser``; malformed requests are answered with an error status and never reach
/// the handler.
public struct HTTPRequest: Sendable, Hashable {
  /// The method token exactly as sent, for example `GET` (methods are case-sensitive).
  public let method: String
  /// The raw request-target from the request line, for example `/callback?code=a%20b`.
  public let target: String
  /// The protocol version from the request line.
  public let version: HTTPVersion
  /// The raw (still percent-encoded) path, always starting with `/`. For an absolute-form
  /// target (`http://127.0.0.1:8080/x`) this is the path part (`/x`).
  public let path: String
  /// The raw query string after `?` (without the `?`), or `nil` if the target had no `?`.
  public let query: String?
  /// The form-decoded query, in order, duplicates kept so callers can reject them.
  public let queryItems: [HTTPQueryItem]
  /// The header fields in the order received.
  public let headers: HTTPHeaders
  /// The body: exactly `Content-Length` bytes, or empty.
  public let body: [UInt8]
  /// The peer as `host:port` (`127.0.0.1:51234` or `[::1]:51234`); empty if unknown.
  public let remoteAddress: String

  /// Creates a request from parts, validating `target` the same way the parser does.
  ///
  /// Useful for unit-testing handlers without a socket.
  /// - Throws: ``HTTPParseError/invalidTarget`` if the target is not a valid origin-form or
  ///   loopback absolute-form target.
  public init(
    method: String,
    target: String,
    version: HTTPVersion = .http11,
    headers: HTTPHeaders = [:],
    body: [UInt8] = [],
    remoteAddress: String = ""
  ) throws(HTTPParseError) {
    guard ASCII.isToken(method) else { throw .invalidMethod }
    let parts = try RequestTarget.parse(Array(target.utf8))
    self.init(
      method: method, target: target, version: version, parts: parts, headers: headers,
      body: body, remoteAddress: remoteAddress)
  }

  init(
    method: String, target: String, version: HTTPVersion, parts: RequestTarget,
    headers: HTTPHeaders, body: [UInt8], remoteAddress: String
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.path = parts.path
    self.query = parts.query
    self.queryItems = parts.queryItems
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
  }

  /// The percent-decoded path (`+` stays `+`), or `nil` if the decoded bytes are not UTF-8 or
  /// contain a NUL byte.
  public var decodedPath: String? {
    guard let bytes = PercentDecoding.decode(Array(path.utf8), plusAsSpace: false),
      !bytes.contains(0)
    else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Every value of the query parameter `name`, in order (an empty array if absent).
  public func queryValues(_ name: String) -> [String] {
    queryItems.filter { $0.name == name }.map(\.value)
  }

  /// The value of the query parameter `name` if it occurs exactly once; `nil` if it is absent
  /// or repeated. OAuth callbacks should use this: a repeated `code` or `state` is an attack.
  public func uniqueQueryValue(_ name: String) -> String? {
    let values = queryValues(name)
    return values.count == 1 ? values[0] : nil
  }

  /// The body decoded as `application/x-www-form-urlencoded`, or `nil` if the `Content-Type` is
  /// not that media type or the body is not valid form encoding / UTF-8.
  public var formItems: [HTTPQueryItem]? {
    guard let contentType = headers["Content-Type"] else { return nil }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    guard
      HTTPHeaders.namesEqual(
        mediaType.trimmingSpacesAndTabs(), "application/x-www-form-urlencoded")
    else { return nil }
    return HTTPForm.decode(body)
  }
}

/// `application/x-www-form-urlencoded` decoding and encoding (query strings and form bodies).
public enum HTTPForm {
  /// Splits `bytes` on `&`, then each part on its first `=`, and decodes `+` and `%XX`.
  ///
  /// Empty parts (`a=1&&b=2`) are skipped, as in the WHATWG URL standard. Returns `nil` if a
  /// `%` is not followed by two hex digits or a decoded name or value is not UTF-8.
  public static func decode(_ bytes: some Collection<UInt8>) -> [HTTPQueryItem]? {
    var items: [HTTPQueryItem] = []
    for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = part.firstIndex(of: UInt8(ascii: "="))
      let rawName = part[part.startIndex..<(equals ?? part.endIndex)]
      let rawValue = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
      guard let name = PercentDecoding.decode(Array(rawName), plusAsSpace: true),
        let value = PercentDecoding.decode(Array(rawValue), plusAsSpace: true),
        let nameString = String(validating: name, as: UTF8.self),
        let valueString = String(validating: value, as: UTF8.self)
      else { return nil }
      items.append(HTTPQueryItem(name: nameString, value: valueString))
    }
    return items
  }

  /// Encodes items as `name=value` pairs joined by `&`: ASCII letters, digits and `*-._` stay,
  /// a space becomes `+`, every other UTF-8 byte becomes `%XX` (WHATWG URL standard).
  ///
  /// ```swift
  /// HTTPForm.encode([HTTPQueryItem(name: "code", value: "a b/c")])  // "code=a+b%2Fc"
  /// ```
  public static func encode(_ items: [HTTPQueryItem]) -> String {
    items.map { encodeComponent($0.name) + "=" + encodeComponent($0.value) }
      .joined(separator: "&")
  }

  /// Encodes one name or value: ASCII letters, digits and `*-._` stay, a space becomes `+`,
  /// every other UTF-8 byte becomes `%XX` with upper-case hex.
  public static func encodeComponent(_ string: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    for byte in string.utf8 {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "*"), UInt8(ascii: "-"),
        UInt8(ascii: "."), UInt8(ascii: "_"):
        output.append(byte)
      case ASCII.space:
        output.append(ASCII.plus)
      default:
        output += [ASCII.percent, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}

enum PercentDecoding {
  /// Decodes `%XX` escapes (and `+` as a space if asked). `nil` on a malformed escape.
  static func decode(_ bytes: [UInt8], plusAsSpace: Bool) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.percent {
        guard index + 2 < bytes.count,
          let high = ASCII.hexValue(bytes[index + 1]),
          let low = ASCII.hexValue(bytes[index + 2])
        else { return nil }
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(plusAsSpace && byte == ASCII.plus ? ASCII.space : byte)
        index += 1
      }
    }
    return output
  }
}

/// The split and validated request-target.
struct RequestTarget {
  var path: String
  var query: String?
  var queryItems: [HTTPQueryItem]

  /// Accepts origin-form (`/path?query`) and absolute-form whose scheme is `http` and whose host
  /// is a loopback name (`127.0.0.1`, `[::1]`, `localhost`). Rejects asterisk-form and
  /// authority-form, bytes outside 0x21–0x7E, `#`, and malformed `%` escapes.
  static func parse(_ bytes: [UInt8]) throws(HTTPParseError) -> RequestTarget {
    guard !bytes.isEmpty,
      bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != ASCII.hash })
    else { throw .invalidTarget }
    var pathAndQuery = bytes[...]
    if bytes[0] != ASCII.slash {
      let scheme = Array("http://".utf8)
      guard bytes.count > scheme.count,
        zip(bytes, scheme).allSatisfy({ ASCII.lower($0) == $1 })
      else { throw .invalidTarget }
      let rest = bytes[scheme.count...]
      let authorityEnd =
        rest.firstIndex { $0 == ASCII.slash || $0 == ASCII.question } ?? rest.endIndex
      guard HostValidation.isLoopbackAuthority(rest[rest.startIndex..<authorityEnd]) else {
        throw .invalidTarget
      }
      pathAndQuery = rest[authorityEnd...]
    }
    let questionMark = pathAndQuery.firstIndex(of: ASCII.question)
    var rawPath = Array(
      pathAndQuery[pathAndQuery.startIndex..<(questionMark ?? pathAndQuery.endIndex)])
    if rawPath.isEmpty { rawPath = [ASCII.slash] }
    guard rawPath[0] == ASCII.slash,
      PercentDecoding.decode(rawPath, plusAsSpace: false) != nil
    else { throw .invalidTarget }
    var query: String?
    var items: [HTTPQueryItem] = []
    if let questionMark {
      let rawQuery = pathAndQuery[pathAndQuery.index(after: questionMark)...]
      guard let decoded = HTTPForm.decode(rawQuery) else { throw .invalidTarget }
      query = String(decoding: rawQuery, as: UTF8.self)
      items = decoded
    }
    return RequestTarget(
      path: String(decoding: rawPath, as: UTF8.self), query: query, queryItems: items)
  }
}

enum HostValidation {
  /// Whether `authority` is `host[:port]` with a loopback host (`127.0.0.1`, `[::1]`,
  /// `localhost`, any letter case) and an optional decimal port of at most 5 digits.
  static func isLoopbackAuthority(_ authority: some Collection<UInt8>) -> Bool {
    let bytes = Array(authority)
    var hostEnd = bytes.endIndex
    if let colon = bytes.lastIndex(of: ASCII.colon), !bytes[colon...].contains(UInt8(ascii: "]")) {
      let port = bytes[(colon + 1)...]
      guard port.count <= 5, port.allSatisfy(ASCII.isDigit) else { return false }
      hostEnd = colon
    }
    let host = String(decoding: bytes[..<hostEnd].map(ASCII.lower), as: UTF8.self)
    return host == "127.0.0.1" || host == "[::1]" || host == "localhost"
  }
}

extension StringProtocol {
  func trimmingSpacesAndTabs() -> String {
    let bytes = Array(utf8)
    let isWhitespace = { (byte: UInt8) in byte == ASCII.space || byte == ASCII.tab }
    guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
      let last = bytes.lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}
