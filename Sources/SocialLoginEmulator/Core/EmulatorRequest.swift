import Foundation
import LoopbackHTTP
import SocialLoginCrypto

/// An HTTP request addressed to one emulated provider: the production host is gone from the
/// path, query and form are decoded, client credentials are read.
struct EmulatorRequest: Sendable {
  let http: HTTPRequest
  /// The production host from the first path segment (`api.x.com`).
  let host: String
  /// The path after the host, starting with `/` (`/2/oauth2/token`).
  let path: String
  let query: [HTTPQueryItem]
  /// The form body; empty when the body is not a form.
  let form: [HTTPQueryItem]
  /// Whether the body claims to be a form but does not decode as one.
  let isMalformedForm: Bool
  /// The emulator's clock when the request arrived.
  let now: Date

  init(http: HTTPRequest, host: String, path: String, now: Date) {
    self.http = http
    self.host = host
    self.path = path
    self.now = now
    query = http.queryItems
    let contentType = http.headers["Content-Type"]?.lowercased() ?? ""
    if contentType.hasPrefix("application/x-www-form-urlencoded") {
      let decoded = http.formItems
      form = decoded ?? []
      isMalformedForm = decoded == nil
    } else {
      form = []
      isMalformedForm = false
    }
  }

  var method: String { http.method }

  /// The first query value of `name`.
  func query(_ name: String) -> String? { query.first { $0.name == name }?.value }
  /// The first form value of `name`.
  func form(_ name: String) -> String? { form.first { $0.name == name }?.value }
  /// The form value, else the query value (Facebook and OAuth 1.0a accept both).
  func parameter(_ name: String) -> String? { form(name) ?? query(name) }

  /// Whether `name` appears more than once in query and form together.
  func isRepeated(_ name: String) -> Bool {
    (query.filter { $0.name == name }.count + form.filter { $0.name == name }.count) > 1
  }

  /// The first parameter that appears more than once, for `invalid_request`.
  var repeatedParameter: String? {
    var seen: Set<String> = []
    for item in query + form where !seen.insert(item.name).inserted { return item.name }
    return nil
  }

  /// RFC 6749 §2.3.1 Basic credentials (form-decoded after base64), or `nil`.
  var basicCredentials: (id: String, secret: String)? {
    guard let header = http.headers["Authorization"], header.count > 6,
      header.prefix(6).lowercased() == "basic ",
      let bytes = Base64.decode(header.dropFirst(6).trimmingCharacters(in: .whitespaces)),
      let text = String(validating: bytes, as: UTF8.self),
      let colon = text.firstIndex(of: ":"),
      let id = Self.formDecoded(text[..<colon]),
      let secret = Self.formDecoded(text[text.index(after: colon)...])
    else { return nil }
    return (id, secret)
  }

  private static func formDecoded(_ text: Substring) -> String? {
    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
  }

  /// Whether an `Authorization` header of any scheme was sent.
  var hasAuthorization: Bool { http.headers.contains("Authorization") }

  /// The bearer token from `Authorization: Bearer …`.
  var bearerToken: String? {
    guard let header = http.headers["Authorization"], header.count > 7,
      header.prefix(7).lowercased() == "bearer "
    else { return nil }
    let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
  }

  /// The URL as the client saw it: `http://HOST:PORT/api.x.com/oauth/request_token`.
  var emulatedURL: String {
    let authority = http.headers["Host"] ?? "127.0.0.1"
    return "http://" + authority + "/" + host + path
  }

  /// The production URL: `https://api.x.com/oauth/request_token`.
  var productionURL: String { "https://" + host + path }
}
