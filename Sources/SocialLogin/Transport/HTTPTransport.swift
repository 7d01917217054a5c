import Foundation

/// Sends HTTP requests for the SDK. Plug in AsyncHTTPClient or your own client by conforming
/// to this protocol; the default is ``URLSessionTransport``.
///
/// Implementations must not follow redirects (token endpoints answer with errors, not
/// redirects), must honour ``TransportRequest/timeout``, must stop reading after
/// ``TransportRequest/maxResponseBytes``, and should throw `CancellationError` when the calling
/// task is cancelled. They should set ``AuthError/answerLost`` on a failure after the request
/// may have been sent (a timeout, a reset or close before the whole answer arrived): a session
/// then knows that a refresh token it sent may have been spent.
///
/// ```swift
/// struct MyTransport: HTTPTransport {
///   func send(_ request: TransportRequest) async throws -> TransportResponse { ... }
/// }
/// ```
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response, whatever its status.
  /// Throws ``AuthError`` (``AuthError/Code/network``, ``AuthError/Code/timedOut``,
  /// ``AuthError/Code/responseTooLarge``) or `CancellationError`.
  func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// An ordered list of HTTP header fields with case-insensitive lookup.
public struct HTTPHeaderFields: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
  /// The fields in order, names as given.
  public private(set) var fields: [(name: String, value: String)]

  /// Creates an empty list.
  public init() { fields = [] }

  /// Creates a list from name/value pairs.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The first value for `name`, compared case-insensitively; setting replaces every value.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
    set {
      fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
      if let newValue { fields.append((name: name, value: newValue)) }
    }
  }

  /// Appends a field, keeping existing ones with the same name.
  public mutating func append(name: String, value: String) {
    fields.append((name: name, value: value))
  }

  /// Iterates over the fields in order.
  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  /// Compares names case-insensitively and values exactly, in order.
  public static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy {
        $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value
      }
  }

  /// Hashes lower-cased names and values.
  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name.lowercased())
      hasher.combine(field.value)
    }
  }
}

/// An HTTP request the SDK wants sent.
public struct TransportRequest: Hashable, Sendable {
  /// `GET`, `POST`, ...
  public var method: String
  /// The absolute URL.
  public var url: URL
  /// The header fields.
  public var headers: HTTPHeaderFields
  /// The body, if any.
  public var body: Data?
  /// How long the whole exchange may take.
  public var timeout: Duration
  /// The largest response body the caller accepts.
  public var maxResponseBytes: Int

  /// Creates a request. The defaults suit token endpoints: 30 s, 1 MiB.
  public init(
    method: String = "GET",
    url: URL,
    headers: HTTPHeaderFields = [:],
    body: Data? = nil,
    timeout: Duration = .seconds(30),
    maxResponseBytes: Int = 1 << 20
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.maxResponseBytes = maxResponseBytes
  }
}

/// An HTTP response.
public struct TransportResponse: Hashable, Sendable {
  /// The status code.
  public var status: Int
  /// The header fields.
  public var headers: HTTPHeaderFields
  /// The body.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: HTTPHeaderFields = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The server's clock from the `Date` header, when present and valid (RFC 9110 §5.6.7).
  public var serverDate: Date? { headers["Date"].flatMap(HTTPDate.parse) }

  /// When to retry according to `Retry-After` (seconds or an HTTP date), relative to `now`.
  public func retryAfter(now: Date) -> Date? {
    guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
      return nil
    }
    if let seconds = HTTPDate.deltaSeconds(value[...]) { return now.addingTimeInterval(seconds) }
    guard let date = HTTPDate.parse(value) else { return nil }
    // An HTTP date is on the server's clock; shift it by the server's offset when known.
    let offset = serverDate.map { $0.timeIntervalSince(now) } ?? 0
    return date.addingTimeInterval(-offset)
  }
}
