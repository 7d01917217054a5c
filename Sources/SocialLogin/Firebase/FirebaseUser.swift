import Foundation

/// A Firebase Authentication user, as Identity Toolkit describes it after a sign-in, a link or
/// a lookup.
///
/// It encodes to (and decodes from) Firebase's own field names (`localId`, `photoUrl`,
/// `providerUserInfo`, ...), so the JSON the CLI prints matches the REST API. The IdP
/// credential is never encoded: it holds tokens.
///
/// ```swift
/// let signedIn = try await firebase.signIn(with: session)
/// print(signedIn.user.localID, signedIn.user.isNewUser, signedIn.user.providerData.map(\.providerID))
/// ```
public struct FirebaseUser: Hashable, Sendable, Codable {
  /// The Firebase user id (`localId`, the ID token's `sub`).
  public var localID: String
  /// The email address, when Firebase has one.
  public var email: String?
  /// Whether Firebase considers the email verified.
  public var emailVerified: Bool?
  /// The display name.
  public var displayName: String?
  /// The profile photo.
  public var photoURL: URL?
  /// The provider of the sign-in that produced this value (`facebook.com`), when known.
  public var signInProvider: String?
  /// The provider's id for the user as Firebase records it (`federatedId`), when returned.
  public var federatedID: String?
  /// Whether this sign-in created the user.
  public var isNewUser: Bool
  /// Every provider linked to the user.
  public var providerData: [FirebaseUserInfo]
  /// The identity provider's user info exactly as Firebase returned it: a JSON string that may
  /// not parse, so it is kept raw. See ``rawUserInfoJSON``.
  public var rawUserInfo: String?
  /// The tenant, for multi-tenant projects.
  public var tenantID: String?
  /// The identity provider's credential, when Firebase returned it (`returnIdpCredential`).
  /// Never encoded.
  public var idpCredential: FirebaseIdPCredential?

  /// Creates a user.
  public init(
    localID: String,
    email: String? = nil,
    emailVerified: Bool? = nil,
    displayName: String? = nil,
    photoURL: URL? = nil,
    signInProvider: String? = nil,
    federatedID: String? = nil,
    isNewUser: Bool = false,
    providerData: [FirebaseUserInfo] = [],
    rawUserInfo: String? = nil,
    tenantID: String? = nil,
    idpCredential: FirebaseIdPCredential? = nil
  ) {
    self.localID = localID
    self.email = email
    self.emailVerified = emailVerified
    self.displayName = displayName
    self.photoURL = photoURL
    self.signInProvider = signInProvider
    self.federatedID = federatedID
    self.isNewUser = isNewUser
    self.providerData = providerData
    self.rawUserInfo = rawUserInfo
    self.tenantID = tenantID
    self.idpCredential = idpCredential
  }

  /// ``rawUserInfo`` parsed as JSON, or `nil` when it is absent or does not parse.
  public var rawUserInfoJSON: JSONValue? {
    guard let rawUserInfo else { return nil }
    return try? JSONValue(parsing: Array(rawUserInfo.utf8))
  }

  /// Firebase's field names.
  enum CodingKeys: String, CodingKey {
    case localID = "localId"
    case email, emailVerified, displayName
    case photoURL = "photoUrl"
    case signInProvider = "providerId"
    case federatedID = "federatedId"
    case isNewUser
    case providerData = "providerUserInfo"
    case rawUserInfo
    case tenantID = "tenantId"
  }

  /// Decodes Firebase's field names; absent lists and flags take their defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    localID = try container.decode(String.self, forKey: .localID)
    email = try container.decodeIfPresent(String.self, forKey: .email)
    emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
    displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
    photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
      .flatMap(URL.init(string:))
    signInProvider = try container.decodeIfPresent(String.self, forKey: .signInProvider)
    federatedID = try container.decodeIfPresent(String.self, forKey: .federatedID)
    isNewUser = try container.decodeIfPresent(Bool.self, forKey: .isNewUser) ?? false
    providerData =
      try container.decodeIfPresent([FirebaseUserInfo].self, forKey: .providerData) ?? []
    rawUserInfo = try container.decodeIfPresent(String.self, forKey: .rawUserInfo)
    tenantID = try container.decodeIfPresent(String.self, forKey: .tenantID)
    idpCredential = nil
  }

  /// Encodes Firebase's field names, without the IdP credential.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(localID, forKey: .localID)
    try container.encodeIfPresent(email, forKey: .email)
    try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
    try container.encodeIfPresent(displayName, forKey: .displayName)
    try container.encodeIfPresent(photoURL?.absoluteString, forKey: .photoURL)
    try container.encodeIfPresent(signInProvider, forKey: .signInProvider)
    try container.encodeIfPresent(federatedID, forKey: .federatedID)
    try container.encode(isNewUser, forKey: .isNewUser)
    try container.encode(providerData, forKey: .providerData)
    try container.encodeIfPresent(rawUserInfo, forKey: .rawUserInfo)
    try container.encodeIfPresent(tenantID, forKey: .tenantID)
  }
}

/// One provider linked to a Firebase user (an entry of `providerUserInfo`).
public struct FirebaseUserInfo: Hashable, Sendable, Codable {
  /// `facebook.com`, `twitter.com`, `oidc.line`, ...
  public var providerID: String
  /// The provider's id for the user (`rawId`).
  public var rawID: String?
  /// The federated id Firebase records.
  public var federatedID: String?
  /// The email the provider shared.
  public var email: String?
  /// The display name the provider shared.
  public var displayName: String?
  /// The photo the provider shared.
  public var photoURL: String?
  /// The provider's screen name (X).
  public var screenName: String?

  /// Creates an entry.
  public init(
    providerID: String, rawID: String? = nil, federatedID: String? = nil, email: String? = nil,
    displayName: String? = nil, photoURL: String? = nil, screenName: String? = nil
  ) {
    self.providerID = providerID
    self.rawID = rawID
    self.federatedID = federatedID
    self.email = email
    self.displayName = displayName
    self.photoURL = photoURL
    self.screenName = screenName
  }

  enum CodingKeys: String, CodingKey {
    case providerID = "providerId"
    case rawID = "rawId"
    case federatedID = "federatedId"
    case email, displayName
    case photoURL = "photoUrl"
    case screenName
  }
}

/// The identity provider's credential that Firebase returns with `returnIdpCredential`: the
/// provider's own tokens after the exchange, and on a conflict, what is needed to link later.
public struct FirebaseIdPCredential: Hashable, Sendable, CustomStringConvertible {
  /// The provider (`facebook.com`).
  public var providerID: String
  /// The provider's access token (`oauthAccessToken`).
  public var accessToken: Secret?
  /// The provider's ID token (`oauthIdToken`).
  public var idToken: Secret?
  /// The OAuth 1.0a token secret (`oauthTokenSecret`, X).
  public var tokenSecret: Secret?
  /// The access token's lifetime in seconds (`oauthExpireIn`), when given.
  public var expiresIn: Int?
  /// Firebase's `pendingToken`: a handle on the credential for a later `signInWithIdp`.
  public var pendingToken: Secret?

  /// Creates a credential.
  public init(
    providerID: String, accessToken: Secret? = nil, idToken: Secret? = nil,
    tokenSecret: Secret? = nil, expiresIn: Int? = nil, pendingToken: Secret? = nil
  ) {
    self.providerID = providerID
    self.accessToken = accessToken
    self.idToken = idToken
    self.tokenSecret = tokenSecret
    self.expiresIn = expiresIn
    self.pendingToken = pendingToken
  }

  /// The credential to send to `signInWithIdp` again (to link it to the account that owns the
  /// email, say), when it holds enough.
  public var firebaseCredential: FirebaseCredential? {
    switch providerID {
    case "facebook.com": return accessToken.map { .facebook(accessToken: $0) }
    case "twitter.com":
      guard let accessToken, let tokenSecret else { return nil }
      return .twitter(token: accessToken, secret: tokenSecret)
    case "google.com":
      if let idToken { return .google(idToken: idToken, accessToken: accessToken) }
      return accessToken.map { .googleAccessToken($0) }
    default:
      guard providerID.hasPrefix("oidc."), let idToken else { return nil }
      return .oidc(providerID, idToken: idToken)
    }
  }

  /// Names the provider and which tokens are present, never their values.
  public var description: String {
    var parts = [providerID]
    if accessToken != nil { parts.append("accessToken: <redacted>") }
    if idToken != nil { parts.append("idToken: <redacted>") }
    if tokenSecret != nil { parts.append("tokenSecret: <redacted>") }
    if pendingToken != nil { parts.append("pendingToken: <redacted>") }
    return "FirebaseIdPCredential(\(parts.joined(separator: ", ")))"
  }
}

/// What Firebase said about an account conflict: an account with this email exists with other
/// sign-in methods (`needConfirmation`), or the credential or email is taken.
///
/// To resolve it, sign the user in with one of ``verifiedProviders`` and link ``credential``
/// to that account with ``FirebaseAuth/link(_:with:)``.
public struct FirebaseAccountConflict: Hashable, Sendable {
  /// The provider of the credential that was refused.
  public var providerID: String?
  /// The email address in conflict.
  public var email: String?
  /// The existing account's local id, when Firebase named it.
  public var localID: String?
  /// The sign-in methods of the existing account (`verifiedProvider`), when named.
  public var verifiedProviders: [String]
  /// The provider's credential, when Firebase returned it, to link later.
  public var credential: FirebaseIdPCredential?

  /// Creates a conflict.
  public init(
    providerID: String? = nil, email: String? = nil, localID: String? = nil,
    verifiedProviders: [String] = [], credential: FirebaseIdPCredential? = nil
  ) {
    self.providerID = providerID
    self.email = email
    self.localID = localID
    self.verifiedProviders = verifiedProviders
    self.credential = credential
  }
}
