/// An RFC 6901 JSON pointer (`/response/id`, `/kakao_account/email`) naming where a value
/// is in a provider's answer.
///
/// Numbers a pointer selects are read from the answer's text, never through a `Double`:
/// Kakao's ids exceed 2^53.
public struct JSONPointer: Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The pointer's text.
  public let rawValue: String
  /// The unescaped reference tokens (`~1` is `/`, `~0` is `~`).
  public let tokens: [String]

  /// Parses a pointer; `nil` for text that is not one (it must be empty or start with `/`,
  /// and `~` must be followed by `0` or `1`).
  public init?(parsing text: String) {
    guard let tokens = Self.parse(text) else { return nil }
    rawValue = text
    self.tokens = tokens
  }

  /// A pointer written in code; text that is not a pointer selects nothing.
  public init(stringLiteral value: String) {
    rawValue = value
    tokens = Self.parse(value) ?? ["\u{0}invalid"]
  }

  /// Decodes the pointer's text.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for text that is not a pointer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let pointer = JSONPointer(parsing: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text.prefix(64))' is not a JSON pointer (RFC 6901)")
    }
    self = pointer
  }

  /// Encodes the pointer's text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The pointer's text.
  public var description: String { rawValue }

  private static func parse(_ text: String) -> [String]? {
    if text.isEmpty { return [] }
    guard text.hasPrefix("/") else { return nil }
    var tokens: [String] = []
    for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      var token = ""
      var escaped = false
      for character in part {
        if escaped {
          switch character {
          case "0": token.append("~")
          case "1": token.append("/")
          default: return nil
          }
          escaped = false
        } else if character == "~" {
          escaped = true
        } else {
          token.append(character)
        }
      }
      if escaped { return nil }
      tokens.append(token)
    }
    return tokens
  }
}
