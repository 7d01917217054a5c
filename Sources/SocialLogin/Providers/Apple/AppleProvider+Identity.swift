import Foundation

extension AppleProvider {
  /// Who the credential belongs to, from its ID token (validated when it was stored; Apple's
  /// access token serves no API) and the first-login `user` name kept in
  /// ``Credential/extra`` under ``userKey``.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` when the credential has no ID token or it names
  ///   another issuer or client.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    guard let idToken = credential.idToken else {
      throw AuthError(
        .invalidToken, "The Apple credential has no ID token to take the identity from.",
        provider: .apple)
    }
    let clientID = credential.extra[Self.clientIDKey] ?? configuration.webClientID
    let validator = IDTokenValidator(
      configuration: IDTokenValidator.Configuration(
        issuer: AppleConfiguration.issuer, clientID: clientID, allowedAlgorithms: [.rs256],
        provider: .apple),
      keys: keys, clock: clock)
    let stored = try validator.storedClaims(idToken.revealed)
    return try Self.identity(claims: stored.claims, user: credential.extra[Self.userKey])
  }

  /// The identity in Apple ID-token claims: `sub`, `email`, `email_verified` (a boolean or the
  /// string `"true"`/`"false"`), and the name of the first-login `user` JSON, if any.
  static func identity(claims: [String: JSONValue], user: String?) throws(AuthError) -> Identity {
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
      throw AuthError(.invalidToken, "The Apple ID token has no subject.", provider: .apple)
    }
    return Identity(
      provider: .apple, subject: subject, name: user.flatMap(userName(fromJSON:)),
      email: claims["email"]?.stringValue, emailVerified: flag(claims["email_verified"]),
      rawClaims: .object(claims))
  }

  /// "First Last" from the `user` JSON Apple posts on the first authorization
  /// (`{"name":{"firstName":"…","lastName":"…"},"email":"…"}`); `nil` when it is not that
  /// JSON or has no name.
  static func userName(fromJSON text: String) -> String? {
    guard case .object(let user)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    else { return nil }
    let name = user["name"]?.objectValue ?? [:]
    let parts = [name["firstName"]?.stringValue, name["lastName"]?.stringValue]
      .compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }
}

/// What Apple says about a user beyond the standard claims, read from a verified identity's
/// ``Identity/rawClaims``.
///
/// ```swift
/// let verified = try await login.verify(.idToken(token, nonce: nonce), from: .apple)
/// let apple = AppleIDTokenClaims(verified.identity)
/// if apple.isPrivateEmail == true { /* a relay address: mail goes through Apple */ }
/// ```
public struct AppleIDTokenClaims: Hashable, Sendable {
  /// Apple's judgement of whether the user is a real person (`real_user_status`).
  public enum RealUserStatus: Int, Hashable, Sendable {
    /// The platform cannot tell (0).
    case unsupported = 0
    /// Apple does not know (1).
    case unknown = 1
    /// Likely a real person (2).
    case likelyReal = 2
  }

  /// Whether the email is a private relay address (`is_private_email`, boolean or string).
  public var isPrivateEmail: Bool?
  /// Whether Apple verified the email (`email_verified`, boolean or string).
  public var emailVerified: Bool?
  /// `real_user_status`, when present and known.
  public var realUserStatus: RealUserStatus?
  /// Whether the platform supports nonces (`nonce_supported`).
  public var nonceSupported: Bool?

  /// Reads the claims of an identity ``AppleProvider`` made.
  public init(_ identity: Identity) {
    let claims = identity.rawClaims.objectValue ?? [:]
    isPrivateEmail = AppleProvider.flag(claims["is_private_email"])
    emailVerified = AppleProvider.flag(claims["email_verified"])
    realUserStatus = claims["real_user_status"]?.doubleValue.flatMap {
      RealUserStatus(rawValue: Int(exactly: $0) ?? -1)
    }
    nonceSupported = AppleProvider.flag(claims["nonce_supported"])
  }
}
