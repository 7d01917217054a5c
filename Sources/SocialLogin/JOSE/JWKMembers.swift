import SocialLoginCrypto

/// The members of a JWK object, read with typed ``JOSEError``s.
///
/// Shared by public-key parsing (``JWK/init(json:)``) and private-key parsing
/// (``JWSSigner/init(privateJWK:)``), so both reject a non-object, a non-string member and
/// bad base64url with the same messages.
struct JWKMembers {
  /// The object's members by name.
  let members: [String: JSONValue]
  /// How a missing member's error names the key: `"JWK"` or `"private JWK"`.
  private let kind: String

  /// Requires `json` to be an object.
  ///
  /// - Throws: ``JOSEError/Reason/invalidKey`` for any other JSON value.
  init(_ json: JSONValue, kind: String) throws(JOSEError) {
    guard case .object(let members) = json else {
      throw JOSEError(.invalidKey, "A JWK must be a JSON object.")
    }
    self.members = members
    self.kind = kind
  }

  /// The raw member, if present.
  subscript(name: String) -> JSONValue? { members[name] }

  /// The string member `name`, or `nil` when absent.
  ///
  /// - Throws: ``JOSEError/Reason/invalidKey`` when the member is present but not a string.
  func string(_ name: String) throws(JOSEError) -> String? {
    switch members[name] {
    case nil: return nil
    case .string(let value)?: return value
    default: throw JOSEError(.invalidKey, "The JWK member '\(name)' is not a string.")
    }
  }

  /// The base64url-decoded bytes of the required member `name`.
  ///
  /// - Throws: ``JOSEError/Reason/invalidKey`` when it is absent, not a string or not
  ///   base64url.
  func bytes(_ name: String) throws(JOSEError) -> [UInt8] {
    guard let text = try string(name) else {
      throw JOSEError(.invalidKey, "The \(kind) has no '\(name)' member.")
    }
    do {
      return try Base64URL.decode(text)
    } catch {
      throw JOSEError(.invalidKey, "The JWK member '\(name)' is not base64url (\(error)).")
    }
  }
}
