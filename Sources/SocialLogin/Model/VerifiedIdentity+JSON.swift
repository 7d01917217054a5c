import Foundation

/// The one JSON document for a verified token, written by `Codable` and printed by
/// `sociallogin verify`:
///
/// ```json
/// {
///   "provider": "line", "subject": "U4af4980629...", "name": "Alice",
///   "email": "alice@example.com", "email_verified": true,
///   "picture": "https://profile.line-scdn.net/...",
///   "claims": { ... every claim or profile field the provider returned ... },
///   "expires_at": "2026-12-02T16:00:00Z",
///   "scopes": ["profile", "openid"],
///   "audience": { "proven": true, "audience": "1656000000" }
/// }
/// ```
///
/// `name`, `email`, `email_verified`, `picture` and `expires_at` are left out when unknown;
/// `expires_at` is ISO 8601 in UTC, to the second, whatever the encoder's date strategy. An
/// unproven audience is `{ "proven": false, "reason": "..." }`.
extension VerifiedIdentity {
  enum CodingKeys: String, CodingKey {
    case provider, subject, name, email
    case emailVerified = "email_verified"
    case picture, claims
    case expiresAt = "expires_at"
    case scopes, audience
  }

  /// Decodes the document above.
  ///
  /// - Throws: `DecodingError` for a missing field, a malformed date or audience.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let picture = try container.decodeIfPresent(String.self, forKey: .picture)
    identity = Identity(
      provider: try container.decode(ProviderID.self, forKey: .provider),
      subject: try container.decode(String.self, forKey: .subject),
      name: try container.decodeIfPresent(String.self, forKey: .name),
      email: try container.decodeIfPresent(String.self, forKey: .email),
      emailVerified: try container.decodeIfPresent(Bool.self, forKey: .emailVerified),
      pictureURL: picture.flatMap { URL(string: $0) },
      rawClaims: try container.decodeIfPresent(JSONValue.self, forKey: .claims) ?? .object([:]))
    if let text = try container.decodeIfPresent(String.self, forKey: .expiresAt) {
      guard let date = try? Date(text, strategy: .iso8601) else {
        throw DecodingError.dataCorruptedError(
          forKey: .expiresAt, in: container, debugDescription: "expires_at is not ISO 8601")
      }
      expiresAt = date
    } else {
      expiresAt = nil
    }
    scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
    audience = try container.decode(AudienceCheck.self, forKey: .audience)
  }

  /// Encodes the document above.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(identity.provider, forKey: .provider)
    try container.encode(identity.subject, forKey: .subject)
    try container.encodeIfPresent(identity.name, forKey: .name)
    try container.encodeIfPresent(identity.email, forKey: .email)
    try container.encodeIfPresent(identity.emailVerified, forKey: .emailVerified)
    try container.encodeIfPresent(identity.pictureURL?.absoluteString, forKey: .picture)
    try container.encode(identity.rawClaims, forKey: .claims)
    try container.encodeIfPresent(expiresAt?.formatted(.iso8601), forKey: .expiresAt)
    try container.encode(scopes, forKey: .scopes)
    try container.encode(audience, forKey: .audience)
  }
}

/// The `audience` member of a verified identity's JSON: `{"proven": true, "audience": ...}`
/// or `{"proven": false, "reason": ...}`.
extension AudienceCheck {
  enum CodingKeys: String, CodingKey {
    case proven, audience, reason
  }

  /// Decodes `{"proven": true, "audience": ...}` or `{"proven": false, "reason": ...}`.
  ///
  /// - Throws: `DecodingError` when the member that `proven` calls for is missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if try container.decode(Bool.self, forKey: .proven) {
      self = .proven(audience: try container.decode(String.self, forKey: .audience))
    } else {
      self = .unprovable(reason: try container.decode(String.self, forKey: .reason))
    }
  }

  /// Encodes `{"proven": true, "audience": ...}` or `{"proven": false, "reason": ...}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .proven(let audience):
      try container.encode(true, forKey: .proven)
      try container.encode(audience, forKey: .audience)
    case .unprovable(let reason):
      try container.encode(false, forKey: .proven)
      try container.encode(reason, forKey: .reason)
    }
  }
}
