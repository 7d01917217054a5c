/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Field order and repeated fields are preserved exactly as received, so callers can reject
/// duplicates (for example a second `Authorization` field) instead of silently picking one.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/plain"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers.add(name: "Set-Cookie", value: "b=2")
/// headers["content-type"]            // "text/plain"
/// headers.values(for: "SET-COOKIE")  // ["a=1", "b=2"]
/// ```
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection,
  ExpressibleByDictionaryLiteral
{
  /// One header field: a name (as sent, case preserved) and its value (without surrounding
  /// whitespace).
  public struct Field: Sendable, Hashable {
    /// The field name, with its original letter case.
    public var name: String
    /// The field value, with leading and trailing spaces and tabs removed.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields in the order they were received or added.
  public private(set) var fields: [Field]

  /// Creates an empty header list.
  public init() { fields = [] }

  /// Creates a header list from fields, keeping their order.
  public init(_ fields: [Field]) { self.fields = fields }

  /// Creates a header list from a literal such as `["Content-Type": "text/plain"]`.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The first position of the collection.
  public var startIndex: Int { fields.startIndex }
  /// The position one past the last field.
  public var endIndex: Int { fields.endIndex }
  /// The field at `position`.
  public subscript(position: Int) -> Field { fields[position] }

  /// The value of the first field named `name` (case-insensitive), or `nil`.
  public subscript(name: String) -> String? {
    fields.first { Self.namesEqual($0.name, name) }?.value
  }

  /// All values of fields named `name` (case-insensitive), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
  }

  /// Whether at least one field is named `name` (case-insensitive).
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.namesEqual($0.name, name) }
  }

  /// Appends a field, keeping any existing fields with the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Removes every field named `name` and appends one field with `value`.
  public mutating func replaceOrAdd(name: String, value: String) {
    remove(name: name)
    add(name: name, value: value)
  }

  /// Removes every field named `name` (case-insensitive).
  public mutating func remove(name: String) {
    fields.removeAll { Self.namesEqual($0.name, name) }
  }

  /// Compares two field names ASCII case-insensitively, as RFC 9110 §5.1 requires.
  static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    return zip(left, right).allSatisfy { ASCII.lower($0) == ASCII.lower($1) }
  }
}

/// Byte classes used by the parser and serializer.
enum ASCII {
  static let cr: UInt8 = 0x0D
  static let lf: UInt8 = 0x0A
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09
  static let colon: UInt8 = 0x3A
  static let percent: UInt8 = 0x25
  static let plus: UInt8 = 0x2B
  static let slash: UInt8 = 0x2F
  static let question: UInt8 = 0x3F
  static let hash: UInt8 = 0x23

  static func lower(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
  }

  /// `tchar` from RFC 9110 §5.6.2: the characters allowed in methods and field names.
  static func isTokenChar(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  static func isToken(_ string: String) -> Bool {
    !string.isEmpty && string.utf8.allSatisfy(isTokenChar)
  }

  /// `field-vchar / SP / HTAB` from RFC 9110 §5.5, with obs-text (0x80–0xFF) allowed.
  static func isFieldValueChar(_ byte: UInt8) -> Bool {
    byte == tab || (byte >= 0x20 && byte != 0x7F)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }

  static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
