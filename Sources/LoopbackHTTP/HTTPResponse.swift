import Foundation

/// A response returned by a ``LoopbackServer`` handler.
///
/// The server owns the framing headers: whatever the handler sets, it sends its own
/// `Content-Length`, `Connection: close` and `Cache-Control: no-store`, and drops any
/// `Transfer-Encoding`. It adds `X-Content-Type-Options: nosniff` and
/// `Referrer-Policy: no-referrer` (so a landing page cannot leak the `?code=` URL in a
/// `Referer`) unless the handler set them. A response whose status is outside 200–999, or
/// whose reason, header names or header values would break the framing (CR, LF, other control
/// characters), is replaced by a plain 500 instead of being sent.
///
/// ```swift
/// .html("<p>Signed in. You can close this window.</p>")
/// .text("not found", status: 404)
/// try .json(encoding: ["access_token": "t", "token_type": "Bearer"])
/// .redirect(to: "http://127.0.0.1:8080/callback?code=abc&state=xyz")
/// ```
public struct HTTPResponse: Sendable, Hashable {
  /// The status code (200–999; interim 1xx responses are not supported).
  public var status: Int
  /// The reason phrase; defaults to the standard phrase for `status`.
  public var reason: String
  /// Header fields, in order.
  public var headers: HTTPHeaders
  /// The body. Not sent for `HEAD` requests and for 204 and 304 responses.
  public var body: [UInt8]
  /// Bytes sent instead of a framed response, for emulating broken servers inside the
  /// package: an empty array closes the connection without answering.
  package var rawWireBytes: [UInt8]?

  /// Creates a response.
  public init(
    status: Int = 200, reason: String? = nil, headers: HTTPHeaders = [:], body: [UInt8] = []
  ) {
    self.status = status
    self.reason = reason ?? Self.standardReason(for: status)
    self.headers = headers
    self.body = body
  }

  /// A `text/plain; charset=utf-8` response.
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Array(text.utf8))
  }

  /// A `text/html; charset=utf-8` response.
  public static func html(_ html: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
      body: Array(html.utf8))
  }

  /// An `application/json` response whose body is `json`, sent as is (not validated).
  public static func json(_ json: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"], body: Array(json.utf8))
  }

  /// An `application/json` response whose body is `value` encoded by `encoder`.
  /// - Throws: Whatever `encoder` throws.
  public static func json(
    encoding value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
  ) throws -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"],
      body: Array(try encoder.encode(value)))
  }

  /// A response that closes the connection without sending anything (an emulated crash or
  /// network drop); package-internal so that real handlers cannot send it by mistake.
  package static var dropConnection: HTTPResponse {
    var response = HTTPResponse(status: 500)
    response.rawWireBytes = []
    return response
  }

  /// A redirect (default `302 Found`) to `location`, with an empty body.
  public static func redirect(to location: String, status: Int = 302) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Location": location])
  }

  /// The standard reason phrase for common status codes (RFC 9110), or `"Unknown"`.
  public static func standardReason(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 421: "Misdirected Request"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Unknown"
    }
  }

  /// The response to send for a request rejected by the parser.
  static func error(_ error: HTTPParseError) -> HTTPResponse {
    .text("\(error.status) \(standardReason(for: error.status)): \(error)\n", status: error.status)
  }

  /// The wire bytes, or `nil` if the status, reason or a header would break the framing.
  /// - Parameter includeBody: `false` for responses to `HEAD`.
  func serialized(includeBody: Bool) -> [UInt8]? {
    guard (200...999).contains(status),
      reason.utf8.allSatisfy({ $0 == ASCII.tab || ($0 >= 0x20 && $0 != 0x7F) })
    else { return nil }
    var fields = headers
    for name in ["Content-Length", "Connection", "Cache-Control", "Transfer-Encoding"] {
      fields.remove(name: name)
    }
    let bodyAllowed = status != 204 && status != 304
    if bodyAllowed { fields.add(name: "Content-Length", value: String(body.count)) }
    fields.add(name: "Connection", value: "close")
    fields.add(name: "Cache-Control", value: "no-store")
    if !fields.contains("X-Content-Type-Options") {
      fields.add(name: "X-Content-Type-Options", value: "nosniff")
    }
    if !fields.contains("Referrer-Policy") {
      fields.add(name: "Referrer-Policy", value: "no-referrer")
    }
    var output: [UInt8] = []
    output.reserveCapacity(256 + (includeBody ? body.count : 0))
    output += Array("HTTP/1.1 \(status) \(reason)\r\n".utf8)
    for field in fields {
      guard ASCII.isToken(field.name),
        field.value.utf8.allSatisfy(ASCII.isFieldValueChar)
      else { return nil }
      output += Array(field.name.utf8)
      output += [ASCII.colon, ASCII.space]
      output += Array(field.value.utf8)
      output += [ASCII.cr, ASCII.lf]
    }
    output += [ASCII.cr, ASCII.lf]
    if includeBody && bodyAllowed { output += body }
    return output
  }

  /// The bytes to send for `response`, falling back to a 500 if it cannot be framed safely.
  static func wireBytes(for response: HTTPResponse, method: String) -> [UInt8] {
    if let raw = response.rawWireBytes { return raw }
    let includeBody = method != "HEAD"
    if let bytes = response.serialized(includeBody: includeBody) { return bytes }
    let fallback = HTTPResponse.text("500 Internal Server Error: invalid response\n", status: 500)
    return fallback.serialized(includeBody: includeBody) ?? []
  }
}
