import Foundation
import LoopbackHTTP

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG URL Standard §5), the
/// strict RFC 3986 percent-encoding that OAuth 1.0a signs, and the RFC 6749 §2.3.1
/// `Authorization: Basic` header for client credentials.
///
/// ```swift
/// FormEncoding.encode([("grant_type", "authorization_code"), ("code", "a b+c")])
/// // "grant_type=authorization_code&code=a+b%2Bc"
/// FormEncoding.percentEncodeRFC3986("a b~")        // "a%20b~"
/// FormEncoding.basicAuthorization(clientID: "id", clientSecret: "s:cret")
/// // "Basic aWQ6cyUzQWNyZXQ="
/// ```
public enum FormEncoding {
  /// The media type of form bodies.
  public static let contentType = "application/x-www-form-urlencoded"

  /// Serializes `fields` in order as `name=value&name=value`, each side encoded with
  /// ``encodeComponent(_:)``.
  public static func encode(_ fields: [(String, String)]) -> String {
    fields.map { encodeComponent($0.0) + "=" + encodeComponent($0.1) }.joined(separator: "&")
  }

  /// Encodes one name or value: ASCII letters, digits and `*-._` are kept, space becomes `+`,
  /// every other UTF-8 byte becomes `%XX` (upper-case hex).
  public static func encodeComponent(_ value: String) -> String {
    // The loopback server's encoder is the same WHATWG algorithm; one implementation serves both.
    HTTPForm.encodeComponent(value)
  }

  /// Parses a form body into its fields, in order (WHATWG `application/x-www-form-urlencoded`
  /// parser): empty sequences between `&` are skipped, a field without `=` has an empty value,
  /// `+` decodes to space, malformed `%` escapes are kept literally and invalid UTF-8 becomes
  /// U+FFFD. Parsing never fails.
  public static func decode(_ body: String) -> [(String, String)] {
    body.split(separator: "&", omittingEmptySubsequences: true).map { sequence in
      if let equals = sequence.firstIndex(of: "=") {
        return (
          decodeComponent(sequence[..<equals]),
          decodeComponent(sequence[sequence.index(after: equals)...])
        )
      }
      return (decodeComponent(sequence), "")
    }
  }

  /// Decodes one name or value: `+` becomes space and `%XX` escapes become bytes.
  public static func decodeComponent(_ value: some StringProtocol) -> String {
    let bytes = Array(value.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x2B {
        output.append(0x20)
      } else if byte == 0x25, index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 2
      } else {
        output.append(byte)
      }
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Percent-encodes `value` per RFC 3986 §2.1, keeping only the unreserved characters
  /// `A-Za-z0-9-._~`; space becomes `%20`. This is the encoding OAuth 1.0a (RFC 5849 §3.6)
  /// requires for signature base strings and the `Authorization: OAuth` header.
  public static func percentEncodeRFC3986(_ value: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(value.utf8.count)
    for byte in value.utf8 {
      if isAlphanumeric(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E {
        output.append(byte)
      } else {
        appendPercentEncoded(byte, to: &output)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The `Authorization` header value for HTTP Basic client authentication (RFC 6749 §2.3.1):
  /// the client id and secret are each form-urlencoded, joined with `:`, and base64-encoded.
  ///
  /// Encoding first keeps a `:` in the client id from splitting the pair in the wrong place.
  public static func basicAuthorization(clientID: String, clientSecret: String) -> String {
    let pair = encodeComponent(clientID) + ":" + encodeComponent(clientSecret)
    return "Basic " + Data(pair.utf8).base64EncodedString()
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  private static func appendPercentEncoded(_ byte: UInt8, to output: inout [UInt8]) {
    output.append(0x25)
    output.append(hexDigits[Int(byte >> 4)])
    output.append(hexDigits[Int(byte & 0x0F)])
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }
}

extension TransportRequest {
  /// A `POST` (by default) with a form-encoded body, for token and revocation endpoints.
  ///
  /// Sets `Content-Type: application/x-www-form-urlencoded` and, unless `headers` has one,
  /// `Accept: application/json`. Fields are sent in the given order.
  ///
  /// ```swift
  /// var request = TransportRequest.form(
  ///   url: tokenURL,
  ///   fields: [("grant_type", "refresh_token"), ("refresh_token", refreshToken.revealed)],
  ///   headers: ["Authorization": FormEncoding.basicAuthorization(clientID: id, clientSecret: s)])
  /// let response = try await transport.send(request)
  /// ```
  public static func form(
    method: String = "POST",
    url: URL,
    fields: [(String, String)],
    headers: HTTPHeaderFields = [:]
  ) -> TransportRequest {
    var headers = headers
    headers["Content-Type"] = FormEncoding.contentType
    if headers["Accept"] == nil { headers["Accept"] = "application/json" }
    return TransportRequest(
      method: method, url: url, headers: headers, body: Data(FormEncoding.encode(fields).utf8))
  }

  /// A `POST` (by default) with `body` encoded as JSON (sorted keys, unescaped slashes).
  ///
  /// Sets `Content-Type: application/json` and, unless `headers` has one,
  /// `Accept: application/json`.
  ///
  /// ```swift
  /// struct SignIn: Encodable { var postBody: String; var requestUri: String }
  /// let request = try TransportRequest.json(url: signInURL, body: SignIn(...))
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` when `body` cannot be encoded (for example a
  ///   non-finite `Double`).
  public static func json<T: Encodable>(
    method: String = "POST",
    url: URL,
    body: T,
    headers: HTTPHeaderFields = [:]
  ) throws(AuthError) -> TransportRequest {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(body)
    } catch {
      throw AuthError(
        .configuration, "Could not encode the JSON body of \(method) \(url.path): \(error)",
        underlying: error)
    }
    var headers = headers
    headers["Content-Type"] = "application/json"
    if headers["Accept"] == nil { headers["Accept"] = "application/json" }
    return TransportRequest(method: method, url: url, headers: headers, body: data)
  }
}

extension TransportResponse {
  /// Decodes the body as JSON into `T`.
  ///
  /// ```swift
  /// struct TokenResponse: Decodable { var accessToken: String; var expiresIn: Int? }
  /// let decoder = JSONDecoder()
  /// decoder.keyDecodingStrategy = .convertFromSnakeCase
  /// let tokens = try response.decodeJSON(TokenResponse.self, decoder: decoder)
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` with ``AuthError/httpStatus`` set and a
  ///   message that says what was wrong (empty or truncated body, missing key, wrong type and
  ///   where). The message never quotes the body, which may hold tokens.
  public func decodeJSON<T: Decodable>(
    _ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
  ) throws(AuthError) -> T {
    do {
      return try decoder.decode(T.self, from: body)
    } catch {
      throw AuthError(
        .invalidResponse, Self.explain(error, type: T.self, byteCount: body.count),
        httpStatus: status, underlying: error)
    }
  }

  /// Parses a form-encoded body (OAuth 1.0a token responses, some OAuth 2 servers) into a
  /// dictionary. When a name repeats, the first value wins.
  ///
  /// ```swift
  /// let fields = try response.formFields()
  /// let token = fields["oauth_token"]
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when the body is not UTF-8 text.
  public func formFields() throws(AuthError) -> [String: String] {
    guard let text = String(data: body, encoding: .utf8) else {
      throw AuthError(
        .invalidResponse,
        "Expected a form-encoded body, but the \(body.count)-byte body is not UTF-8 text.",
        httpStatus: status)
    }
    var result: [String: String] = [:]
    for (name, value) in FormEncoding.decode(text) where result[name] == nil {
      result[name] = value
    }
    return result
  }

  private static func explain(_ error: any Error, type: Any.Type, byteCount: Int) -> String {
    let target = "Could not decode \(type) from the JSON response"
    guard let error = error as? DecodingError else {
      return "\(target) (\(byteCount) bytes)."
    }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
      return keys.isEmpty ? "the top level" : "'" + keys.joined(separator: ".") + "'"
    }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      if byteCount == 0 { return "\(target): the body is empty." }
      return "\(target): the \(byteCount)-byte body is not valid JSON (truncated or malformed)."
    case .dataCorrupted(let context):
      return "\(target): invalid value at \(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "\(target): missing key '\(key.stringValue)' at \(path(context))."
    case .typeMismatch(let expected, let context):
      return "\(target): expected \(expected) at \(path(context)): \(context.debugDescription)"
    case .valueNotFound(let expected, let context):
      return "\(target): expected \(expected) but found null at \(path(context))."
    @unknown default:
      return "\(target) (\(byteCount) bytes)."
    }
  }
}
