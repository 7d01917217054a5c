import Foundation

/// The JSON body of the client form of `accounts:lookup`.
struct LookupRequest: Encodable {
  var idToken: String
}

/// The JSON body of `accounts:update` that unlinks providers.
struct UnlinkRequest: Encodable {
  var idToken: String
  var deleteProvider: [String]
  var returnSecureToken = true
}

extension FirebaseProvider {
  /// The user whose ID token this is, with every linked provider (`accounts:lookup`).
  ///
  /// - Throws: ``AuthError`` (``AuthError/Code/userNotFound`` when Firebase knows no such user,
  ///   `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, ...).
  public func lookup(idToken: Secret) async throws -> FirebaseUser {
    let operation = "Firebase account lookup"
    let object = try await postIdentityToolkit(
      "accounts:lookup", body: LookupRequest(idToken: idToken.revealed), operation: operation,
      secrets: [idToken.revealed])
    guard let first = object["users"]?.arrayValue?.first?.objectValue else {
      throw FirebaseError(code: "USER_NOT_FOUND", httpStatus: 200).authError(operation: operation)
    }
    return try FirebaseFields(first, operation: operation).lookedUpUser()
  }

  /// Unlinks `providerIDs` (`facebook.com`, ...) from the user of `idToken`
  /// (`accounts:update` with `deleteProvider`), returning the user as it is now and new tokens
  /// when Firebase issued them.
  func unlink(_ providerIDs: [String], idToken: Secret) async throws
    -> (user: FirebaseUser, credential: Credential?)
  {
    let operation = "Firebase unlinking"
    var request = try TransportRequest.json(
      url: try configuration.identityToolkit("accounts:update"),
      body: UnlinkRequest(idToken: idToken.revealed, deleteProvider: providerIDs))
    request.timeout = configuration.requestTimeout
    let (object, response) = try await send(
      request, operation: operation, secrets: [idToken.revealed])
    let fields = FirebaseFields(object, operation: operation)
    let user = try fields.lookedUpUser()
    guard let newIDToken = fields.string("idToken"), let refresh = fields.string("refreshToken")
    else { return (user, nil) }
    let expiresIn = try fields.lifetime("expiresIn")
    return (
      user,
      credential(
        idToken: newIDToken, refreshToken: refresh, expiresIn: expiresIn, response: response)
    )
  }
}

extension FirebaseFields {
  /// A user record of `accounts:lookup` or `accounts:update`: top-level fields plus
  /// `providerUserInfo`.
  func lookedUpUser() throws(AuthError) -> FirebaseUser {
    var user = self.user(localID: try requiredString("localId"))
    user.signInProvider = nil
    user.providerData = (object["providerUserInfo"]?.arrayValue ?? []).compactMap { entry in
      guard let info = entry.objectValue, let provider = info["providerId"]?.stringValue else {
        return nil
      }
      return FirebaseUserInfo(
        providerID: provider, rawID: info["rawId"]?.stringValue,
        federatedID: info["federatedId"]?.stringValue, email: info["email"]?.stringValue,
        displayName: info["displayName"]?.stringValue, photoURL: info["photoUrl"]?.stringValue,
        screenName: info["screenName"]?.stringValue)
    }
    return user
  }
}
