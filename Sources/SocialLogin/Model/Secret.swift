/// A string that must never appear in logs, descriptions, `dump` output or error messages.
///
/// Tokens, secrets and verifiers are stored as `Secret` so that printing a ``Credential``
/// by accident cannot leak them. Read the value deliberately with ``revealed``.
///
/// ```swift
/// let token: Secret = "eyJhbGciOi..."
/// print(token)            // <redacted>
/// send(token.revealed)    // the real value, only where it must go on the wire
/// ```
public struct Secret: Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
  /// The secret value. Read it only to put it on the wire or into a store.
  public let revealed: String

  /// Wraps a secret value.
  public init(_ value: String) { revealed = value }

  /// Wraps a secret literal (for tests and examples).
  public init(stringLiteral value: String) { revealed = value }

  /// Decodes the secret from a plain string.
  public init(from decoder: any Decoder) throws {
    revealed = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the secret as a plain string (stores need the value).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(revealed)
  }

  /// Whether the secret is the empty string.
  public var isEmpty: Bool { revealed.isEmpty }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }

  /// Always `Secret(<redacted>)`.
  public var debugDescription: String { "Secret(<redacted>)" }

  /// A mirror with no children, so `dump` and reflection show no secret.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
