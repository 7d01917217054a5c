/// Names a provider as Firebase Authentication does (`facebook.com`, `twitter.com`,
/// `google.com`, `oidc.<name>`), for example the provider to
/// ``FirebaseAuth/unlink(_:from:)``.
///
/// Firebase's ids differ from the SDK's ``ProviderID`` (`facebook.com`, not `facebook`), so
/// this type is not made from a string literal: a bare string never passes for one. Use the
/// constants, ``oidc(_:)``, or ``init(rawValue:)`` for an id read from Firebase.
///
/// ```swift
/// let unlinked = try await firebase.unlink(.facebook, from: signedIn)
/// let noLINE = try await firebase.unlink(.oidc("line"), from: unlinked)
/// ```
public struct FirebaseProviderID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// Firebase's provider id, for example `facebook.com` or `oidc.line`.
  public let rawValue: String

  /// Wraps a Firebase provider id as Firebase spells it, for example one from
  /// ``FirebaseUserInfo/providerID``.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Firebase's provider id.
  public var description: String { rawValue }

  /// Facebook Login: `facebook.com`.
  public static let facebook = FirebaseProviderID(rawValue: "facebook.com")
  /// X, formerly Twitter: `twitter.com`.
  public static let twitter = FirebaseProviderID(rawValue: "twitter.com")
  /// Google: `google.com`.
  public static let google = FirebaseProviderID(rawValue: "google.com")

  /// An OpenID Connect provider configured in Firebase: `oidc.<name>`, for example
  /// `.oidc("line")` for `oidc.line`.
  public static func oidc(_ name: String) -> FirebaseProviderID {
    FirebaseProviderID(rawValue: "oidc.\(name)")
  }
}
