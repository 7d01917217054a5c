import Foundation

extension FirebaseProvider {
  /// The Firebase user of the credential's ID token (`accounts:lookup`).
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    try await lookup(idToken: credential.idToken ?? credential.accessToken).identity
  }
}

extension FirebaseUser {
  /// The identity a Firebase session is stored under: subject = local id, the user (without
  /// credentials) as raw claims.
  var identity: Identity {
    let claims: JSONValue =
      (try? JSONEncoder().encode(self)).flatMap {
        try? JSONDecoder().decode(JSONValue.self, from: $0)
      }
      ?? .object(["localId": .string(localID)])
    return Identity(
      provider: .firebase, subject: localID, name: displayName, email: email,
      emailVerified: emailVerified, pictureURL: photoURL, rawClaims: claims)
  }

  /// The user stored in a Firebase session's identity, when it holds one.
  public init?(identity: Identity) {
    guard identity.provider == .firebase,
      let data = try? JSONEncoder().encode(identity.rawClaims),
      let user = try? JSONDecoder().decode(FirebaseUser.self, from: data),
      user.localID == identity.subject
    else { return nil }
    self = user
  }
}
