import Foundation

/// The tokens a provider issued for one signed-in account.
///
/// Every token is a ``Secret``: printing, dumping or logging a credential never shows them.
/// Expiry is optional because some providers (Facebook, OAuth 1.0a) issue tokens without one.
///
/// ```swift
/// let credential = Credential(accessToken: "at", refreshToken: "rt",
///                             expiresAt: Date().addingTimeInterval(3600))
/// ```
public struct Credential: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The bearer access token (or the OAuth 1.0a token).
  public var accessToken: Secret
  /// The refresh token, when the provider issued one.
  public var refreshToken: Secret?
  /// The OpenID Connect ID token, when the provider issued one.
  public var idToken: Secret?
  /// The OAuth 1.0a token secret (X/Twitter OAuth 1.0a only).
  public var tokenSecret: Secret?
  /// The token type the provider announced, normalised to lower case (`"bearer"`).
  public var tokenType: String
  /// The scopes granted, when the provider said.
  public var scopes: [String]
  /// When the access token expires, on the **server's** clock; `nil` when unknown.
  public var expiresAt: Date?
  /// When the credential was issued, on the server's clock.
  public var issuedAt: Date
  /// Server clock minus local clock, in seconds, measured from the `Date` header of the
  /// response that carried this credential (0 when the server sent none).
  public var serverTimeOffset: TimeInterval

  /// Creates a credential.
  public init(
    accessToken: Secret,
    refreshToken: Secret? = nil,
    idToken: Secret? = nil,
    tokenSecret: Secret? = nil,
    tokenType: String = "bearer",
    scopes: [String] = [],
    expiresAt: Date? = nil,
    issuedAt: Date = Date(),
    serverTimeOffset: TimeInterval = 0
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.idToken = idToken
    self.tokenSecret = tokenSecret
    self.tokenType = tokenType.lowercased()
    self.scopes = scopes
    self.expiresAt = expiresAt
    self.issuedAt = issuedAt
    self.serverTimeOffset = serverTimeOffset
  }

  /// The expiry converted to the local clock, correcting for the server's clock skew.
  public var localExpiresAt: Date? {
    expiresAt.map { $0.addingTimeInterval(-serverTimeOffset) }
  }

  /// Whether the access token is still valid for at least `minimumTTL` at local time `now`.
  ///
  /// A credential with no expiry is treated as valid: the provider did not say otherwise.
  public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
    guard let expiry = localExpiresAt else { return true }
    return expiry.timeIntervalSince(now) >= minimumTTL
  }

  /// A description that names which tokens are present without revealing any of them.
  public var description: String {
    var parts = ["accessToken: <redacted>"]
    if refreshToken != nil { parts.append("refreshToken: <redacted>") }
    if idToken != nil { parts.append("idToken: <redacted>") }
    if tokenSecret != nil { parts.append("tokenSecret: <redacted>") }
    parts.append("tokenType: \(tokenType)")
    if !scopes.isEmpty { parts.append("scopes: \(scopes.joined(separator: " "))") }
    if let expiresAt { parts.append("expiresAt: \(expiresAt)") }
    return "Credential(\(parts.joined(separator: ", ")))"
  }
}
