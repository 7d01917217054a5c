import Foundation

/// A Firebase ID token that passed ``FirebaseProvider/verifyIDToken(_:)``: its claims, and what
/// the `firebase` claim says about how the user signed in.
///
/// ```swift
/// let token = try await firebase.verifyIDToken(bearer)
/// print(token.userID, token.signInProvider ?? "-", token.identities["facebook.com"] ?? [])
/// ```
public struct FirebaseIDToken: Hashable, Sendable {
  /// Every claim of the token.
  public var claims: JSONValue
  /// The Firebase user id (`sub`).
  public var userID: String
  /// When the token was issued (`iat`).
  public var issuedAt: Date
  /// When the token expires (`exp`).
  public var expiresAt: Date
  /// When the user signed in (`auth_time`).
  public var authenticatedAt: Date?
  /// How the user signed in (`firebase.sign_in_provider`: `facebook.com`, `custom`, ...).
  public var signInProvider: String?
  /// The user's ids at each linked provider (`firebase.identities`).
  public var identities: [String: [String]]
  /// The tenant (`firebase.tenant`), for multi-tenant projects.
  public var tenantID: String?
  /// Whether the token was unsigned (`alg: none`), as the Firebase Auth emulator issues them.
  /// Only accepted when the provider is configured for the emulator.
  public var isUnsigned: Bool

  /// The email claim.
  public var email: String? { claims["email"]?.stringValue }
  /// The `email_verified` claim.
  public var emailVerified: Bool? { claims["email_verified"]?.boolValue }
  /// The `name` claim.
  public var name: String? { claims["name"]?.stringValue }

  /// The identity the token proves (provider ``ProviderID/firebase``, subject = user id).
  public var identity: Identity {
    Identity(
      provider: .firebase, subject: userID, name: name, email: email,
      emailVerified: emailVerified,
      pictureURL: claims["picture"]?.stringValue.flatMap(URL.init(string:)), rawClaims: claims)
  }

  init(claims: JSONValue, isUnsigned: Bool) throws(JOSEError) {
    guard let subject = claims["sub"]?.stringValue else {
      throw JOSEError(.missingClaim, "The Firebase ID token has no string 'sub'.")
    }
    guard !subject.isEmpty, subject.count <= 128 else {
      throw JOSEError(
        .malformed, "The Firebase ID token's 'sub' must have 1 to 128 characters.")
    }
    guard let iat = claims["iat"]?.doubleValue, let exp = claims["exp"]?.doubleValue else {
      throw JOSEError(.missingClaim, "The Firebase ID token needs numeric 'iat' and 'exp'.")
    }
    self.claims = claims
    userID = subject
    issuedAt = Date(timeIntervalSince1970: iat)
    expiresAt = Date(timeIntervalSince1970: exp)
    authenticatedAt = claims["auth_time"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    let firebase = claims["firebase"]?.objectValue ?? [:]
    signInProvider = firebase["sign_in_provider"]?.stringValue
    tenantID = firebase["tenant"]?.stringValue
    var identities: [String: [String]] = [:]
    for (provider, ids) in firebase["identities"]?.objectValue ?? [:] {
      identities[provider] = (ids.arrayValue ?? []).compactMap(\.stringValue)
    }
    self.identities = identities
    self.isUnsigned = isUnsigned
  }
}
