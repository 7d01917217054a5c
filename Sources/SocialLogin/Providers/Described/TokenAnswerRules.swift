/// How a described provider's token endpoint is asked and how its answers are read.
public struct TokenAnswerRules: Hashable, Sendable, Codable {
  /// How `expires_in` is written.
  public enum ExpiresIn: String, Hashable, Sendable, Codable {
    /// A JSON number (RFC 6749).
    case number
    /// A JSON number or a string of decimal digits: NAVER sends `"3600"`.
    case numberOrString
  }

  /// How `expires_in` is written; a number by default. Anything else (a fraction, a sign, a
  /// string where only numbers are allowed) is an unreadable answer, never a guess.
  public var expiresIn: ExpiresIn
  /// Whether token requests send `Accept: application/json`: GitHub answers form-encoded
  /// without it.
  public var acceptsJSON: Bool

  /// Creates the rules.
  public init(expiresIn: ExpiresIn = .number, acceptsJSON: Bool = true) {
    self.expiresIn = expiresIn
    self.acceptsJSON = acceptsJSON
  }
}
