/// Why ``JSONValue/init(parsing:maximumDepth:)`` rejected a document.
///
/// ```swift
/// do {
///   _ = try JSONValue(parsing: Array(#"{"alg":"RS256","alg":"none"}"#.utf8))
/// } catch {
///   print(error)  // duplicate object key at byte 15
/// }
/// ```
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The UTF-8 byte offset where the problem was found.
  public var offset: Int
  /// What was wrong (never quotes the input).
  public var problem: String

  /// Creates an error.
  public init(offset: Int, problem: String) {
    self.offset = offset
    self.problem = problem
  }

  /// `problem at byte offset`.
  public var description: String { "\(problem) at byte \(offset)" }
}

extension JSONValue {
  /// The default nesting limit of ``init(parsing:maximumDepth:)``.
  public static let defaultMaximumDepth = 32

  /// Parses one strict RFC 8259 JSON text from UTF-8 bytes.
  ///
  /// The parser is written for untrusted token headers, claims and JWKS documents:
  /// - **Duplicate object keys are rejected.** Parsers disagree on which duplicate wins
  ///   (first, last, error), and a claim set that two components read differently is a
  ///   known way to smuggle a second `alg`, `aud` or `sub` past a check.
  /// - Nesting deeper than `maximumDepth` arrays/objects is rejected (no stack exhaustion).
  /// - Strings must be valid UTF-8 without raw control characters; `\u` escapes must pair
  ///   surrogates correctly. Numbers follow the JSON grammar exactly (no `+1`, `01`, `.5`,
  ///   `NaN`) and must fit a finite `Double`.
  /// - Nothing but whitespace may follow the value; a byte-order mark is not accepted.
  ///
  /// ```swift
  /// let claims = try JSONValue(parsing: Array(#"{"sub":"42","exp":1700000000}"#.utf8))
  /// claims["sub"]?.stringValue  // "42"
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The UTF-8 text.
  ///   - maximumDepth: The deepest nesting of arrays and objects accepted.
  /// - Throws: ``JSONParseError`` naming the first problem and its byte offset.
  public init<Bytes: Collection<UInt8>>(
    parsing bytes: Bytes, maximumDepth: Int = JSONValue.defaultMaximumDepth
  ) throws(JSONParseError) {
    let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        try StrictJSONParser.parse(buffer, maximumDepth: maximumDepth)
      }
    }
    if let contiguous {
      self = try contiguous.get()
      return
    }
    self = try Array(bytes).withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> JSONValue in
        try StrictJSONParser.parse(buffer, maximumDepth: maximumDepth)
      }
    }.get()
  }
}

/// A recursive-descent parser over a byte buffer; see ``JSONValue/init(parsing:maximumDepth:)``.
struct StrictJSONParser {
  private let input: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0
  private let maximumDepth: Int

  private init(_ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.input = input
    self.maximumDepth = maximumDepth
  }

  static func parse(
    _ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int
  ) throws(JSONParseError) -> JSONValue {
    var parser = StrictJSONParser(input, maximumDepth: maximumDepth)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == input.count else {
      throw parser.failure("unexpected data after the value")
    }
    return value
  }

  /// Parses a top-level JSON object, returning its members.
  static func parseObject(
    _ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int
  ) throws(JSONParseError) -> [String: JSONValue]? {
    guard case .object(let members) = try parse(input, maximumDepth: maximumDepth) else {
      return nil
    }
    return members
  }

  private func failure(_ problem: String) -> JSONParseError {
    JSONParseError(offset: index, problem: problem)
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while index < input.count {
      switch input[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard index < input.count else { throw failure("unexpected end of input") }
    switch input[index] {
    case UInt8(ascii: "{"): return try parseObjectValue()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    default:
      throw failure("unexpected character")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    guard input.count - index >= count else { throw failure("invalid literal") }
    let matches = literal.withUTF8Buffer { expected in
      for offset in 0..<count where input[index + offset] != expected[offset] {
        return false
      }
      return true
    }
    guard matches else { throw failure("invalid literal") }
    index += count
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth)") }
  }

  private mutating func parseObjectValue() throws(JSONParseError) -> JSONValue {
    try enter()
    index += 1  // {
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < input.count, input[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < input.count, input[index] == UInt8(ascii: "\"") else {
        throw failure("expected a string key")
      }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      guard index < input.count, input[index] == UInt8(ascii: ":") else {
        throw failure("expected ':'")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      if members.updateValue(value, forKey: key) != nil {
        throw JSONParseError(offset: keyOffset, problem: "duplicate object key")
      }
      skipWhitespace()
      guard index < input.count else { throw failure("unterminated object") }
      switch input[index] {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return .object(members)
      default:
        throw failure("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    index += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < input.count, input[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < input.count else { throw failure("unterminated array") }
      switch input[index] {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return .array(elements)
      default:
        throw failure("expected ',' or ']'")
      }
    }
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    var isASCII = true
    // Fast path: no escapes.
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: input[start..<index])
        index += 1
        if isASCII { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
          throw JSONParseError(offset: start, problem: "invalid UTF-8 in string")
        }
        return string
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw failure("control character in string") }
      if byte >= 0x80 { isASCII = false }
      index += 1
    }
    guard index < input.count else { throw failure("unterminated string") }
    // Slow path: decode escapes into a byte buffer.
    var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<index]))
    while index < input.count {
      let byte = input[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        guard let string = String(validating: bytes, as: UTF8.self) else {
          throw JSONParseError(offset: start, problem: "invalid UTF-8 in string")
        }
        return string
      case UInt8(ascii: "\\"):
        index += 1
        guard index < input.count else { throw failure("unterminated escape") }
        let escape = input[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
          let scalar = try parseUnicodeEscape()
          bytes.append(contentsOf: String(Character(scalar)).utf8)
        default:
          throw failure("invalid escape")
        }
      default:
        if byte < 0x20 { throw failure("control character in string") }
        bytes.append(byte)
        index += 1
      }
    }
    throw failure("unterminated string")
  }

  /// Reads the 4 hex digits after `\u` (and a low surrogate's `\uXXXX` when needed).
  private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
    let high = try parseHex4()
    if (0xDC00...0xDFFF).contains(high) { throw failure("unpaired low surrogate") }
    guard (0xD800...0xDBFF).contains(high) else {
      guard let scalar = Unicode.Scalar(high) else { throw failure("invalid \\u escape") }
      return scalar
    }
    guard input.count - index >= 6, input[index] == UInt8(ascii: "\\"),
      input[index + 1] == UInt8(ascii: "u")
    else { throw failure("unpaired high surrogate") }
    index += 2
    let low = try parseHex4()
    guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired high surrogate") }
    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    guard let scalar = Unicode.Scalar(value) else { throw failure("invalid surrogate pair") }
    return scalar
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard input.count - index >= 4 else { throw failure("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = input[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw failure("invalid hex digit in \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  @inline(__always)
  private func isDigit(at position: Int) -> Bool {
    position < input.count && input[position] >= UInt8(ascii: "0")
      && input[position] <= UInt8(ascii: "9")
  }

  private mutating func parseNumber() throws(JSONParseError) -> Double {
    let start = index
    var isNegative = false
    if input[index] == UInt8(ascii: "-") {
      isNegative = true
      index += 1
    }
    guard isDigit(at: index) else { throw failure("invalid number") }
    var integer: UInt64 = 0
    var digitCount = 0
    if input[index] == UInt8(ascii: "0") {
      index += 1
      if isDigit(at: index) { throw failure("leading zero in number") }
      digitCount = 1
    } else {
      while isDigit(at: index) {
        if digitCount < 19 {
          integer = integer &* 10 &+ UInt64(input[index] - UInt8(ascii: "0"))
        }
        digitCount += 1
        index += 1
      }
    }
    var isIntegral = true
    if index < input.count, input[index] == UInt8(ascii: ".") {
      isIntegral = false
      index += 1
      guard isDigit(at: index) else { throw failure("invalid number fraction") }
      while isDigit(at: index) { index += 1 }
    }
    if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
      isIntegral = false
      index += 1
      if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard isDigit(at: index) else { throw failure("invalid number exponent") }
      while isDigit(at: index) { index += 1 }
    }
    // Integers below 2^53 convert exactly; everything else goes through the correctly
    // rounding standard-library conversion.
    if isIntegral, digitCount <= 15 {
      let magnitude = Double(integer)
      return isNegative ? -magnitude : magnitude
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONParseError(offset: start, problem: "number out of range")
    }
    return value
  }
}

extension JSONValue {
  /// Compact JSON text with object keys sorted, for display and stable output.
  ///
  /// Integral numbers below 2^53 print without a fraction; strings escape `"`, `\` and control
  /// characters only (no `\/`).
  ///
  /// ```swift
  /// let text = JSONValue.object(["b": 1, "a": "x"]).jsonText  // {"a":"x","b":1}
  /// ```
  public var jsonText: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let value):
      if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
        output += String(Int64(value))
      } else {
        output += "\(value)"
      }
    case .string(let value): Self.writeString(value, to: &output)
    case .array(let elements):
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        element.write(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (position, key) in members.keys.sorted().enumerated() {
        if position > 0 { output += "," }
        Self.writeString(key, to: &output)
        output += ":"
        members[key]?.write(to: &output)
      }
      output += "}"
    }
  }

  private static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
}
