import Foundation
import LoopbackHTTP
import SocialLogin

/// JSON and response helpers shared by the emulated providers.
enum EmulatorJSON {
  /// Sorted keys, unescaped slashes: stable, readable bodies.
  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  static func encode(_ value: JSONValue) -> [UInt8] {
    (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
  }

  /// An `application/json` response of `value`.
  static func response(_ value: JSONValue, status: Int = 200, headers: HTTPHeaders = [:])
    -> HTTPResponse
  {
    response(body: encode(value), status: status, headers: headers)
  }

  /// An `application/json` response of `value` (dates as ISO 8601); `nil` when it cannot be
  /// encoded.
  static func response(encoding value: some Encodable, status: Int = 200) -> HTTPResponse? {
    let encoder = self.encoder
    encoder.dateEncodingStrategy = .iso8601
    guard let body = try? encoder.encode(value) else { return nil }
    return response(body: Array(body), status: status)
  }

  private static func response(body: [UInt8], status: Int, headers: HTTPHeaders = [:])
    -> HTTPResponse
  {
    var fields = headers
    fields.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
    return HTTPResponse(status: status, headers: fields, body: body)
  }

  /// An `application/x-www-form-urlencoded` response (OAuth 1.0a token endpoints).
  static func form(_ pairs: [(String, String)], status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Array(
        HTTPForm.encode(pairs.map { HTTPQueryItem(name: $0.0, value: $0.1) }).utf8))
  }

  /// Parses a JSON body into a `JSONValue`; `nil` when it is not JSON.
  static func decode(_ bytes: [UInt8]) -> JSONValue? {
    decode(JSONValue.self, from: bytes)
  }

  /// Decodes a JSON body into `T`; `nil` when it is empty or not a `T`.
  static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
    guard !bytes.isEmpty else { return nil }
    return try? JSONDecoder().decode(T.self, from: Data(bytes))
  }

  /// A JSON number from seconds.
  static func number(_ value: TimeInterval) -> JSONValue { .number(value.rounded(.down)) }

  /// `redirect` with `parameters` appended to its query (keeping any query it has).
  static func redirect(to redirect: String, _ parameters: [(String, String)]) -> HTTPResponse {
    let query = parameters.map {
      HTTPForm.encodeComponent($0.0) + "=" + HTTPForm.encodeComponent($0.1)
    }
    .joined(separator: "&")
    let separator = redirect.contains("?") ? "&" : "?"
    return .redirect(to: redirect + (query.isEmpty ? "" : separator + query))
  }

  /// An HTML page, for errors providers show in the browser instead of redirecting.
  static func page(title: String, _ message: String, status: Int = 400) -> HTTPResponse {
    .html(
      "<!doctype html><html><head><title>\(escape(title))</title></head><body><h1>"
        + "\(escape(title))</h1><p>\(escape(message))</p></body></html>\n",
      status: status)
  }

  /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 9110 §5.6.7.
  static func httpDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let weekday = days[((parts.weekday ?? 1) - 1 + 7) % 7]
    let month = months[((parts.month ?? 1) - 1 + 12) % 12]
    func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
    return "\(weekday), \(two(parts.day)) \(month) \(String(format: "%04d", parts.year ?? 1970)) "
      + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
