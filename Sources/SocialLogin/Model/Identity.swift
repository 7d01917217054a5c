import Foundation
import SocialLoginCrypto

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
///
/// Keys compare, hash and order by the UTF-8 bytes of the provider and the subject, not by
/// Swift's `String` equality: that treats canonically equivalent strings as equal (`"é"` and
/// `"e\u{301}"`), and a provider's subject ids are opaque byte strings, so two accounts whose
/// ids merely look alike must never share one session.
///
/// ```swift
/// let composed = SessionKey(provider: .line, subject: "\u{E9}")
/// let decomposed = SessionKey(provider: .line, subject: "e\u{301}")
/// assert(composed != decomposed)
/// ```
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

  /// Equal when the provider and the subject have the same UTF-8 bytes.
  public static func == (lhs: SessionKey, rhs: SessionKey) -> Bool {
    lhs.provider.rawValue.utf8.elementsEqual(rhs.provider.rawValue.utf8)
      && lhs.subject.utf8.elementsEqual(rhs.subject.utf8)
  }

  /// Hashes the UTF-8 bytes of the provider and the subject (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(provider.rawValue.utf8.count)
    for byte in provider.rawValue.utf8 { hasher.combine(byte) }
    hasher.combine(subject.utf8.count)
    for byte in subject.utf8 { hasher.combine(byte) }
  }

  /// Orders by the provider's UTF-8 bytes, then the subject's.
  public static func < (lhs: SessionKey, rhs: SessionKey) -> Bool {
    if !lhs.provider.rawValue.utf8.elementsEqual(rhs.provider.rawValue.utf8) {
      return lhs.provider.rawValue.utf8.lexicographicallyPrecedes(rhs.provider.rawValue.utf8)
    }
    return lhs.subject.utf8.lexicographicallyPrecedes(rhs.subject.utf8)
  }

  /// The SHA-256 of the length-prefixed provider (its UTF-8 byte count as a big-endian
  /// `UInt64`, then its bytes) and the subject's bytes: the one digest that names a key where
  /// raw text cannot go (long file names, Redis hash tags). Stored names depend on it: never
  /// change it.
  package var digest: [UInt8] {
    var hasher = SHA256()
    let provider = Array(self.provider.rawValue.utf8)
    withUnsafeBytes(of: UInt64(provider.count).bigEndian) { hasher.update($0) }
    hasher.update(provider)
    hasher.update(Array(subject.utf8))
    return hasher.finalize()
  }
}
