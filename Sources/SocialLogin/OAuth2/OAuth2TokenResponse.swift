import Foundation

/// A successful token endpoint response (RFC 6749 §5.1): the ``Credential`` it carries and the
/// raw JSON, for provider-specific fields (`open_id`, `user_id`, `x_refresh_token_expires_in`,
/// ...).
///
/// Parsing is tolerant: `expires_in` may be a number, a numeric string or absent; `token_type`
/// may have any case (it is lower-cased) or be absent (`"bearer"` is assumed); a missing `scope`
/// means the requested scopes were granted. Expiry is computed on the server's clock: the
/// credential's ``Credential/expiresAt`` is the response's `Date` (or the local time when there
/// is none) plus `expires_in`, and ``Credential/serverTimeOffset`` records server minus local
/// time, so ``Credential/localExpiresAt`` is right even when the clocks disagree.
///
/// ```swift
/// let tokens = try await client.exchangeCode(code, pending: pending)
/// let userID = tokens.raw["user_id"]?.stringValue   // LINE, X, ... extras
/// try await store.save(tokens.credential)
/// ```
public struct OAuth2TokenResponse: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
  /// The tokens, expiry and scopes.
  public var credential: Credential
  /// The whole JSON object the server sent. It contains the tokens: never log it.
  public var raw: JSONValue
  /// The `expires_in` the server sent, in seconds, when it sent a usable one.
  public var expiresIn: TimeInterval?
  /// The server's clock from the response's `Date` header, when present.
  public var serverDate: Date?

  /// Creates a response value.
  public init(
    credential: Credential, raw: JSONValue, expiresIn: TimeInterval? = nil, serverDate: Date? = nil
  ) {
    self.credential = credential
    self.raw = raw
    self.expiresIn = expiresIn
    self.serverDate = serverDate
  }

  /// Describes the credential (redacted) and the names of the raw fields, never their values.
  public var description: String {
    let keys = raw.objectValue?.keys.sorted().joined(separator: ", ") ?? ""
    return "OAuth2TokenResponse(\(credential), fields: [\(keys)])"
  }

  /// A mirror that shows only the redacted credential.
  public var customMirror: Mirror {
    Mirror(self, children: ["credential": credential], displayStyle: .struct)
  }
}
