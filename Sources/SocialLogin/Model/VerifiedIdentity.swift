import Foundation

/// Whose a token is, as proven by the provider: what ``LoginProvider/verify(_:)`` returns for a
/// token that a mobile or web app obtained itself and sent to your service.
///
/// Every provider answers with this one shape, so a backend can accept Facebook, X, LINE and
/// OpenID Connect tokens through one code path:
///
/// ```swift
/// let verified = try await login.verify(.accessToken(token), from: .facebook)
/// guard verified.audience.isProven else { throw Unauthorized() }
/// print(verified.identity.subject, verified.expiresAt ?? .distantFuture)
/// ```
public struct VerifiedIdentity: Hashable, Sendable, Codable {
  /// Who the token belongs to.
  public var identity: Identity
  /// When the token stops being valid, when the provider said so.
  public var expiresAt: Date?
  /// The scopes (permissions) the token carries, when the provider said so.
  public var scopes: [String]
  /// Whether the token was proven to be issued to this app (client id, app id or channel).
  public var audience: AudienceCheck

  /// Creates a verified identity.
  public init(
    identity: Identity, expiresAt: Date? = nil, scopes: [String] = [], audience: AudienceCheck
  ) {
    self.identity = identity
    self.expiresAt = expiresAt
    self.scopes = scopes
    self.audience = audience
  }
}

/// Whether a verified token was proven to be issued to this app.
///
/// A token issued to another app of the same provider must not sign its user in here (token
/// substitution). Most token kinds prove their audience; some cannot (X offers no way to learn
/// which app an OAuth 2.0 access token was issued to).
public enum AudienceCheck: Hashable, Sendable, Codable {
  /// The provider confirmed the token was issued to `audience` (this app's id).
  case proven(audience: String)
  /// The provider offers no way to prove the audience of this kind of token; `reason` says why.
  case unprovable(reason: String)

  /// `true` when the audience was proven.
  public var isProven: Bool {
    if case .proven = self { return true }
    return false
  }
}
