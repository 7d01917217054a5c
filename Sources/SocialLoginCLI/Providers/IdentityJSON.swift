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

  /// A verified identity: `VerifiedIdentity`'s own JSON document (its `Codable` form, one
  /// schema for the library and the CLI), pretty-printed with sorted keys.
  static func text(_ verified: VerifiedIdentity) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(verified) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
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
