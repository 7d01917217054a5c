import Foundation

/// A JSON value read from a provider's answer with every number kept as its text.
///
/// The SDK's ``JSONValue`` stores numbers as `Double`, which rounds Kakao's 64-bit user ids
/// (they exceed 2^53). Descriptions select subjects with JSON pointers, so the engine reads
/// answers with this small reader instead: bounded (``maximumBytes``, ``maximumDepth``),
/// linear in the input, strict RFC 8259 (duplicate member names are refused, so a pointer
/// never has to guess which one was meant).
indirect enum DescribedJSON: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number, as the exact text of the answer (`4012345678901234567`).
  case number(String)
  case string(String)
  case array([DescribedJSON])
  case object([String: DescribedJSON])

  /// The largest answer read: 1 MiB, the transports' own default cap.
  static let maximumBytes = 1 << 20
  /// The deepest nesting read; provider answers are three levels deep at most.
  static let maximumDepth = 32

  /// Parses `bytes`; `nil` for anything that is not one well-formed JSON value within the
  /// limits.
  init?(parsing bytes: some Collection<UInt8>) {
    guard bytes.count <= Self.maximumBytes else { return nil }
    var reader = Reader(bytes: Array(bytes))
    guard let value = reader.value(depth: 0) else { return nil }
    reader.skipSpace()
    guard reader.index == reader.bytes.count else { return nil }
    self = value
  }

  /// The member `key` of an object.
  subscript(key: String) -> DescribedJSON? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The value `pointer` selects (RFC 6901), if any.
  func value(at pointer: JSONPointer) -> DescribedJSON? {
    var current = self
    for token in pointer.tokens {
      switch current {
      case .object(let members):
        guard let next = members[token] else { return nil }
        current = next
      case .array(let elements):
        guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  private static func arrayIndex(_ token: String) -> Int? {
    guard !token.isEmpty, token.utf8.count <= 9,
      token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      token == "0" || !token.hasPrefix("0")
    else { return nil }
    return Int(token)
  }

  var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  var objectValue: [String: DescribedJSON]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// A non-empty string as it is, or an integer as its exact decimal text (no sign other than
  /// a leading `-`, no fraction, no exponent, at most 40 digits): what a subject may be.
  var identifierText: String? {
    switch self {
    case .string(let text): return text.isEmpty ? nil : text
    case .number(let text): return Self.isInteger(text) ? text : nil
    default: return nil
    }
  }

  /// A positive whole number of seconds written as a JSON number (`3600`), or, when
  /// `allowingString`, as a string of decimal digits (`"3600"`); `nil` for anything else.
  func positiveSeconds(allowingString: Bool) -> TimeInterval? {
    let text: String
    switch self {
    case .number(let number): text = number
    case .string(let string) where allowingString: text = string
    default: return nil
    }
    guard !text.isEmpty, text.utf8.count <= 40, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let seconds = Double(text), seconds > 0
    else { return nil }
    return min(seconds, OAuth2TokenResponse.maximumSeconds)
  }

  private static func isInteger(_ text: String) -> Bool {
    let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
    return !digits.isEmpty && digits.count <= 40 && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }

  /// The value as a ``JSONValue`` for ``Identity/rawClaims``: an integer a `Double` cannot
  /// hold exactly stays its decimal text (a string), so no claim is silently rounded.
  var jsonValue: JSONValue {
    switch self {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .number(let text):
      guard let number = Double(text), number.isFinite else { return .string(text) }
      if Self.isInteger(text), abs(number) >= 9_007_199_254_740_992 { return .string(text) }
      return .number(number)
    case .string(let text): return .string(text)
    case .array(let elements): return .array(elements.map(\.jsonValue))
    case .object(let members): return .object(members.mapValues(\.jsonValue))
    }
  }

  /// A one-pass recursive-descent reader; recursion is bounded by ``maximumDepth``.
  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func skipSpace() {
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
      {
        index += 1
      }
    }

    mutating func value(depth: Int) -> DescribedJSON? {
      guard depth <= DescribedJSON.maximumDepth else { return nil }
      skipSpace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "\""): return string().map(DescribedJSON.string)
      case UInt8(ascii: "t"): return literal("true", .bool(true))
      case UInt8(ascii: "f"): return literal("false", .bool(false))
      case UInt8(ascii: "n"): return literal("null", .null)
      default: return number()
      }
    }

    private mutating func literal(_ text: StaticString, _ value: DescribedJSON) -> DescribedJSON? {
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count else { return nil }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
      index += count
      return value
    }

    private mutating func object(depth: Int) -> DescribedJSON? {
      index += 1
      var members: [String: DescribedJSON] = [:]
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
          return nil
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let member = value(depth: depth + 1), members.updateValue(member, forKey: key) == nil
        else { return nil }
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { return nil }
        index += 1
        return .object(members)
      }
    }

    private mutating func array(depth: Int) -> DescribedJSON? {
      index += 1
      var elements: [DescribedJSON] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        guard let element = value(depth: depth + 1) else { return nil }
        elements.append(element)
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { return nil }
        index += 1
        return .array(elements)
      }
    }

    private mutating func number() -> DescribedJSON? {
      let start = index
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() else { return nil }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
      {
        index += 1
        if index < bytes.count,
          bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
        {
          index += 1
        }
        guard digits() else { return nil }
      }
      return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() -> Bool {
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A string; the reader stands on its opening quote.
    private mutating func string() -> String? {
      index += 1
      var scalars = String.UnicodeScalarView()
      var runStart = index
      var plain: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          plain.append(contentsOf: bytes[runStart..<index])
          index += 1
          return finish(plain, scalars)
        }
        if byte < 0x20 { return nil }
        if byte == UInt8(ascii: "\\") {
          plain.append(contentsOf: bytes[runStart..<index])
          index += 1
          guard index < bytes.count, let escaped = escape() else { return nil }
          // Flush the plain bytes so far, then the escaped scalar, in order.
          guard let text = String(validating: plain, as: UTF8.self) else { return nil }
          scalars.append(contentsOf: text.unicodeScalars)
          plain.removeAll(keepingCapacity: true)
          scalars.append(escaped)
          runStart = index
          continue
        }
        index += 1
      }
      return nil
    }

    private func finish(_ plain: [UInt8], _ scalars: String.UnicodeScalarView) -> String? {
      guard let tail = String(validating: plain, as: UTF8.self) else { return nil }
      if scalars.isEmpty { return tail }
      var all = scalars
      all.append(contentsOf: tail.unicodeScalars)
      return String(all)
    }

    /// One escape after `\`; the reader stands on the character after the backslash.
    private mutating func escape() -> Unicode.Scalar? {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return "\""
      case UInt8(ascii: "\\"): return "\\"
      case UInt8(ascii: "/"): return "/"
      case UInt8(ascii: "b"): return "\u{08}"
      case UInt8(ascii: "f"): return "\u{0C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"):
        guard let high = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(high) {
          guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { return nil }
          index += 2
          guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
          return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
      default:
        return nil
      }
    }

    private mutating func hex4() -> UInt32? {
      guard bytes.count - index >= 4 else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        default: return nil
        }
        value = value << 4 | digit
        index += 1
      }
      return value
    }
  }
}
