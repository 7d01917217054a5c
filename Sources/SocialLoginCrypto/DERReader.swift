/// A strict reader of DER (ITU-T X.690 §10), the encoding of X.509 certificates.
///
/// Only the one valid encoding is accepted: definite lengths in minimal form, single-byte
/// tags, no bytes after the last element (checked by ``finish()``). Contents are read as
/// sub-readers over the same buffer, so nothing is copied until a value is extracted.
///
/// ```swift
/// var certificate = try DERReader(der).sequence()   // the outer SEQUENCE's contents
/// var tbs = try certificate.sequence()
/// ```
public struct DERReader: Sendable {
  /// `SEQUENCE` / `SEQUENCE OF` (constructed).
  public static let sequenceTag: UInt8 = 0x30
  /// `SET` / `SET OF` (constructed).
  public static let setTag: UInt8 = 0x31
  /// `INTEGER`.
  public static let integerTag: UInt8 = 0x02
  /// `BIT STRING`.
  public static let bitStringTag: UInt8 = 0x03
  /// `OCTET STRING`.
  public static let octetStringTag: UInt8 = 0x04
  /// `NULL`.
  public static let nullTag: UInt8 = 0x05
  /// `OBJECT IDENTIFIER`.
  public static let objectIdentifierTag: UInt8 = 0x06
  /// `UTCTime`.
  public static let utcTimeTag: UInt8 = 0x17
  /// `GeneralizedTime`.
  public static let generalizedTimeTag: UInt8 = 0x18

  private let bytes: [UInt8]
  private var position: Int
  private let end: Int

  /// A reader over all of `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    position = 0
    end = bytes.count
  }

  private init(bytes: [UInt8], range: Range<Int>) {
    self.bytes = bytes
    position = range.lowerBound
    end = range.upperBound
  }

  /// Whether every byte has been read.
  public var isAtEnd: Bool { position == end }

  /// The tag of the next element, or `nil` at the end.
  public var nextTag: UInt8? { position < end ? bytes[position] : nil }

  /// Reads the next element: its tag, its contents as a reader, and the range of the whole
  /// element (tag, length and contents) in the input.
  public mutating func readElement() throws(DERError) -> (
    tag: UInt8, contents: DERReader, encoded: Range<Int>
  ) {
    let start = position
    guard position < end else { throw .truncated }
    let tag = bytes[position]
    guard tag & 0x1F != 0x1F else { throw .highTagNumber }
    position += 1
    guard position < end else { throw .truncated }
    let first = bytes[position]
    position += 1
    var length: Int
    if first < 0x80 {
      length = Int(first)
    } else if first == 0x80 {
      throw .indefiniteLength
    } else {
      let count = Int(first & 0x7F)
      guard count <= 4 else { throw .lengthTooLarge }
      guard end - position >= count else { throw .truncated }
      guard bytes[position] != 0 else { throw .nonMinimalLength }
      length = 0
      for _ in 0..<count {
        length = length << 8 | Int(bytes[position])
        position += 1
      }
      guard length >= 0x80 else { throw .nonMinimalLength }
    }
    guard end - position >= length else { throw .truncated }
    let contents = position..<(position + length)
    position += length
    return (tag, DERReader(bytes: bytes, range: contents), start..<position)
  }

  /// Reads the next element, which must have tag `tag`, and returns its contents.
  public mutating func read(_ tag: UInt8) throws(DERError) -> DERReader {
    guard let found = nextTag else { throw .truncated }
    guard found == tag else { throw .unexpectedTag(expected: tag, found: found) }
    return try readElement().contents
  }

  /// Reads a `SEQUENCE` and returns its contents.
  public mutating func sequence() throws(DERError) -> DERReader {
    try read(Self.sequenceTag)
  }

  /// The remaining contents as bytes, consuming them.
  public mutating func remainingBytes() -> [UInt8] {
    defer { position = end }
    return Array(bytes[position..<end])
  }

  /// Throws ``DERError/trailingBytes(count:)`` unless everything has been read.
  public func finish() throws(DERError) {
    guard position == end else { throw .trailingBytes(count: end - position) }
  }

  /// Reads a minimally encoded `INTEGER` and returns its two's-complement bytes.
  public mutating func integerBytes() throws(DERError) -> [UInt8] {
    var contents = try read(Self.integerTag)
    let value = contents.remainingBytes()
    guard let first = value.first else { throw .nonMinimalInteger }
    if value.count > 1 {
      let second = value[1]
      if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
        throw .nonMinimalInteger
      }
    }
    return value
  }

  /// Reads a positive `INTEGER` and returns its magnitude, big-endian, without the sign byte.
  public mutating func positiveIntegerBytes() throws(DERError) -> [UInt8] {
    let value = try integerBytes()
    guard value[0] & 0x80 == 0 else { throw .nonPositiveInteger }
    let magnitude = value.first == 0 ? Array(value.dropFirst()) : value
    guard !magnitude.isEmpty else { throw .nonPositiveInteger }
    return magnitude
  }

  /// Reads a `NULL`.
  public mutating func null() throws(DERError) {
    guard try read(Self.nullTag).isAtEnd else { throw .invalidPrimitive }
  }

  /// Reads an `OBJECT IDENTIFIER` and returns its content bytes (compare them with known
  /// encodings), after checking that every sub-identifier is minimally encoded.
  public mutating func objectIdentifier() throws(DERError) -> [UInt8] {
    var contents = try read(Self.objectIdentifierTag)
    let value = contents.remainingBytes()
    guard let last = value.last, last & 0x80 == 0 else { throw .invalidPrimitive }
    var startsComponent = true
    for byte in value {
      if startsComponent && byte == 0x80 { throw .invalidPrimitive }  // leading zero group
      startsComponent = byte & 0x80 == 0
    }
    return value
  }

  /// Reads a `BIT STRING` of whole bytes (no unused bits) and returns them.
  public mutating func bitStringBytes() throws(DERError) -> [UInt8] {
    var contents = try read(Self.bitStringTag)
    let value = contents.remainingBytes()
    guard value.first == 0 else { throw .invalidBitString }
    return Array(value.dropFirst())
  }

  /// Reads a `UTCTime` or `GeneralizedTime` in the DER forms RFC 5280 §4.1.2.5 allows
  /// (`YYMMDDHHMMSSZ`, years 1950–2049; `YYYYMMDDHHMMSSZ`) and returns seconds since 1970.
  public mutating func time() throws(DERError) -> Int64 {
    guard let tag = nextTag else { throw .truncated }
    let digitsCount: Int
    switch tag {
    case Self.utcTimeTag: digitsCount = 12
    case Self.generalizedTimeTag: digitsCount = 14
    default: throw .unexpectedTag(expected: Self.utcTimeTag, found: tag)
    }
    var contents = try readElement().contents
    let text = contents.remainingBytes()
    guard text.count == digitsCount + 1, text.last == UInt8(ascii: "Z") else { throw .invalidTime }
    var digits: [Int] = []
    for byte in text.dropLast() {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw .invalidTime }
      digits.append(Int(byte - UInt8(ascii: "0")))
    }
    func number(_ at: Int, _ count: Int) -> Int {
      digits[at..<(at + count)].reduce(0) { $0 * 10 + $1 }
    }
    var year: Int
    var index: Int
    if digitsCount == 12 {
      year = number(0, 2)
      year += year >= 50 ? 1900 : 2000
      index = 2
    } else {
      year = number(0, 4)
      index = 4
    }
    let month = number(index, 2)
    let day = number(index + 2, 2)
    let hour = number(index + 4, 2)
    let minute = number(index + 6, 2)
    let second = number(index + 8, 2)
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), (1...monthDays[month - 1]).contains(day), hour < 24,
      minute < 60, second < 60
    else { throw .invalidTime }
    // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }
}
