import Foundation

extension LINEProvider {
  /// `/v2/profile` (`userId`, `displayName`, `pictureUrl`, `statusMessage`), with the email
  /// from the stored ID token, and `friendship_status_changed` from the login.
  ///
  /// The ID token was validated when it was stored: its claims are read (and its issuer and
  /// audience compared), but neither its signature nor its expiry is checked again, because
  /// LINE's refresh sends no new one and its keys may have rotated since.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    var profile = try await self.profile(credential.accessToken)
    var claims: [String: JSONValue] = [:]
    if let idToken = credential.idToken,
      let stored = try? validator.storedClaims(idToken.revealed)
    {
      claims = stored.claims
    }
    if let changed = credential.extra[Self.friendshipStatusChangedKey] {
      profile["friendship_status_changed"] = .bool(changed == "true")
    }
    return try Self.identity(profile: profile, idTokenClaims: claims)
  }

  /// `GET /v2/profile` with the access token.
  func profile(_ accessToken: Secret) async throws -> [String: JSONValue] {
    try await get(
      configuration.profileEndpoint, bearer: accessToken,
      operation: "The LINE profile request (/v2/profile)")
  }

  static func identity(
    profile: [String: JSONValue], idTokenClaims claims: [String: JSONValue]
  ) throws(AuthError) -> Identity {
    guard let userID = profile["userId"]?.stringValue, !userID.isEmpty else {
      throw AuthError(.invalidResponse, "The LINE profile has no 'userId'.", provider: .line)
    }
    if let subject = claims["sub"]?.stringValue, subject != userID {
      throw AuthError(
        .invalidResponse, "The LINE profile's userId is not the ID token's subject.",
        provider: .line)
    }
    var raw = claims
    raw.merge(profile) { _, fromProfile in fromProfile }
    return Identity(
      provider: .line, subject: userID,
      name: profile["displayName"]?.stringValue ?? claims["name"]?.stringValue,
      email: claims["email"]?.stringValue,
      pictureURL: (profile["pictureUrl"]?.stringValue ?? claims["picture"]?.stringValue)
        .flatMap(URL.init(string:)),
      rawClaims: .object(raw))
  }
}
