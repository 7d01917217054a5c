import Foundation

/// Who signed in: the provider's stable subject id plus the profile it shared.
///
/// ```swift
/// let identity = try await provider.fetchIdentity(for: credential)
/// print(identity.subject, identity.email ?? "-")
/// ```
public struct Identity: Hashable, Sendable, Codable {
  /// The provider that vouches for this identity.
  public var provider: ProviderID
  /// The provider's stable, unique id for the account (`sub`, Facebook `id`, LINE `userId`).
  public var subject: String
  /// The display name, when shared.
  public var name: String?
  /// The email address, when shared.
  public var email: String?
  /// Whether the provider says it verified the email address.
  public var emailVerified: Bool?
  /// The profile picture URL, when shared.
  public var pictureURL: URL?
  /// Everything the provider returned about the user, as typed JSON.
  public var rawClaims: JSONValue

  /// Creates an identity.
  public init(
    provider: ProviderID,
    subject: String,
    name: String? = nil,
    email: String? = nil,
    emailVerified: Bool? = nil,
    pictureURL: URL? = nil,
    rawClaims: JSONValue = .object([:])
  ) {
    self.provider = provider
    self.subject = subject
    self.name = name
    self.email = email
    self.emailVerified = emailVerified
    self.pictureURL = pictureURL
    self.rawClaims = rawClaims
  }

  /// The key under which this identity's session is registered and stored.
  public var sessionKey: SessionKey { SessionKey(provider: provider, subject: subject) }
}

/// Identifies one signed-in account: a provider plus that provider's subject id.
public struct SessionKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The provider.
  public var provider: ProviderID
  /// The provider's subject id for the account.
  public var subject: String

  /// Creates a key.
  public init(provider: ProviderID, subject: String) {
    self.provider = provider
    self.subject = subject
  }

  /// `provider:subject`.
  public var description: String { "\(provider.rawValue):\(subject)" }

  /// Orders by provider, then subject.
  public static func < (lhs: SessionKey, rhs: SessionKey) -> Bool {
    (lhs.provider.rawValue, lhs.subject) < (rhs.provider.rawValue, rhs.subject)
  }
}
