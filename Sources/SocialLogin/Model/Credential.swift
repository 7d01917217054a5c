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
  /// Provider-specific facts about the grant that are not secrets and that later calls need,
  /// keyed by a provider-prefixed name: LINE's `line.friendship_status_changed` from the
  /// login callback, Facebook's `facebook.data_access_expires_at`. Stored with the session;
  /// empty for most providers. Never put a token here.
  public var extra: [String: String]

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
    serverTimeOffset: TimeInterval = 0,
    extra: [String: String] = [:]
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
    self.extra = extra
  }

  private enum CodingKeys: String, CodingKey {
    case accessToken, refreshToken, idToken, tokenSecret, tokenType, scopes, expiresAt, issuedAt
    case serverTimeOffset, extra
  }

  /// Decodes a credential; records written before ``extra`` existed decode with it empty.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    accessToken = try container.decode(Secret.self, forKey: .accessToken)
    refreshToken = try container.decodeIfPresent(Secret.self, forKey: .refreshToken)
    idToken = try container.decodeIfPresent(Secret.self, forKey: .idToken)
    tokenSecret = try container.decodeIfPresent(Secret.self, forKey: .tokenSecret)
    tokenType = try container.decode(String.self, forKey: .tokenType)
    scopes = try container.decode([String].self, forKey: .scopes)
    expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
    issuedAt = try container.decode(Date.self, forKey: .issuedAt)
    serverTimeOffset = try container.decode(TimeInterval.self, forKey: .serverTimeOffset)
    extra = try container.decodeIfPresent([String: String].self, forKey: .extra) ?? [:]
  }

  /// Encodes a credential; ``extra`` is written only when it is not empty, so records of
  /// providers without extras keep their former shape.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(accessToken, forKey: .accessToken)
    try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
    try container.encodeIfPresent(idToken, forKey: .idToken)
    try container.encodeIfPresent(tokenSecret, forKey: .tokenSecret)
    try container.encode(tokenType, forKey: .tokenType)
    try container.encode(scopes, forKey: .scopes)
    try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
    try container.encode(issuedAt, forKey: .issuedAt)
    try container.encode(serverTimeOffset, forKey: .serverTimeOffset)
    if !extra.isEmpty { try container.encode(extra, forKey: .extra) }
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

  /// How long the provider granted the access token for: from ``issuedAt`` to ``expiresAt``,
  /// both on the provider's clock (`infinity` without an expiry).
  var lifetime: TimeInterval {
    guard let expiresAt else { return .infinity }
    return expiresAt.timeIntervalSince(issuedAt)
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
