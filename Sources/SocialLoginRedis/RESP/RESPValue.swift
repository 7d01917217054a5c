/// One reply from a Redis server, in either protocol version (RESP2 or RESP3).
///
/// Replies are untrusted input: the `RESPParser` that builds them bounds their size and
/// nesting, so a value in hand is always small enough to walk. Errors the server sends
/// (`-ERR ...`, `!...`) are values too, so that one failing command in a pipeline does not hide
/// the others' replies; ``RedisClient/send(_:)`` turns a top-level error into a thrown
/// ``RedisError``.
public enum RESPValue: Hashable, Sendable {
  /// `+OK` (RESP2 and RESP3).
  case simpleString(String)
  /// `-ERR message` or a RESP3 blob error: the server refused the command.
  case error(String)
  /// `:42`.
  case integer(Int64)
  /// `$n` bytes, or `nil` for the RESP2 null bulk string (`$-1`).
  case bulkString([UInt8]?)
  /// `*n` elements, or `nil` for the RESP2 null array (`*-1`).
  case array([RESPValue]?)
  /// RESP3 `_` null.
  case null
  /// RESP3 `#t` / `#f`.
  case boolean(Bool)
  /// RESP3 `,` double.
  case double(Double)
  /// RESP3 `(` big number, kept as its decimal digits.
  case bigNumber(String)
  /// RESP3 `=` verbatim string (its three-letter format prefix removed).
  case verbatimString(String)
  /// RESP3 `%` map, in the order the server sent it.
  case map([RESPPair])
  /// RESP3 `~` set.
  case set([RESPValue])
  /// RESP3 `>` push (pub/sub messages on a RESP3 connection).
  case push([RESPValue])

  /// Whether this is a null of either protocol.
  public var isNull: Bool {
    switch self {
    case .null, .bulkString(nil), .array(nil): return true
    default: return false
    }
  }

  /// The bytes of a bulk, simple or verbatim string; `nil` otherwise.
  public var bytes: [UInt8]? {
    switch self {
    case .bulkString(let bytes): return bytes
    case .simpleString(let text), .verbatimString(let text): return Array(text.utf8)
    default: return nil
    }
  }

  /// A string value as UTF-8 text (invalid sequences replaced); `nil` for other types.
  public var string: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

  /// An integer, or a string holding a decimal integer; `nil` otherwise.
  public var integer: Int64? {
    if case .integer(let value) = self { return value }
    return string.flatMap { Int64($0) }
  }

  /// The elements of an array, set or push; `nil` otherwise (and for a null array).
  public var elements: [RESPValue]? {
    switch self {
    case .array(let values): return values
    case .set(let values), .push(let values): return values
    default: return nil
    }
  }
}

/// One key/value entry of a RESP3 map.
public struct RESPPair: Hashable, Sendable {
  /// The entry's key.
  public var key: RESPValue
  /// The entry's value.
  public var value: RESPValue

  /// Creates an entry.
  public init(key: RESPValue, value: RESPValue) {
    self.key = key
    self.value = value
  }
}
