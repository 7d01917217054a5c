/// A JSON value with no `Any` inside: claims, provider payloads and raw user info.
///
/// ```swift
/// let claims: JSONValue = ["sub": "42", "email_verified": true]
/// claims["sub"]?.stringValue   // "42"
/// ```
public enum JSONValue: Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// Any JSON number, kept as a `Double` (integers up to 2^53 are exact).
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object. Keys are unique; order is not preserved.
  case object([String: JSONValue])

  /// Creates `.string`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// Creates `.number`.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// Creates `.number`.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// Creates `.bool`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// Creates `.array`.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Creates `.object`; a repeated key keeps the last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  /// Creates `.null`.
  public init(nilLiteral: ()) { self = .null }

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value as JSON.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The member named `key` when this is an object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The string, when this is `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, when this is `.number`.
  public var doubleValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The number as an integer, when this is a `.number` with no fractional part.
  public var int64Value: Int64? {
    guard case .number(let value) = self, value.rounded() == value,
      abs(value) < 9.2e18
    else { return nil }
    return Int64(value)
  }

  /// The boolean, when this is `.bool`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The members, when this is `.object`.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The elements, when this is `.array`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }
}
