import Foundation
import SocialLogin

/// The JSON documents the CLI prints for identities.
enum IdentityJSON {
  /// The identity: subject, provider, profile fields and every claim.
  static func object(_ identity: Identity) -> [String: JSONValue] {
    var object: [String: JSONValue] = [
      "provider": .string(identity.provider.rawValue),
      "subject": .string(identity.subject),
      "claims": identity.rawClaims,
    ]
    if let name = identity.name { object["name"] = .string(name) }
    if let email = identity.email { object["email"] = .string(email) }
    if let verified = identity.emailVerified { object["email_verified"] = .bool(verified) }
    if let picture = identity.pictureURL { object["picture"] = .string(picture.absoluteString) }
    return object
  }

  /// ``object(_:)`` as pretty JSON.
  static func text(_ identity: Identity) -> String {
    pretty(.object(object(identity)))
  }

  /// A verified identity: the identity's fields plus `expires_at` (ISO 8601), `scopes` and
  /// `audience` (`{"proven": true, "audience": ...}` or `{"proven": false, "reason": ...}`).
  static func text(_ verified: VerifiedIdentity) -> String {
    var object = object(verified.identity)
    if let expiry = verified.expiresAt { object["expires_at"] = .string(iso8601(expiry)) }
    object["scopes"] = .array(verified.scopes.map { .string($0) })
    switch verified.audience {
    case .proven(let audience):
      object["audience"] = ["proven": true, "audience": .string(audience)]
    case .unprovable(let reason):
      object["audience"] = ["proven": false, "reason": .string(reason)]
    }
    return pretty(.object(object))
  }

  static func pretty(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  static func iso8601(_ date: Date) -> String {
    date.formatted(.iso8601)
  }
}
