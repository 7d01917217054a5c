import Foundation

extension AppleProvider {
  /// Exchanges an authorization code an Apple app obtained (`ASAuthorizationAppleIDCredential
  /// .authorizationCode`) for tokens, and verifies whose they are.
  ///
  /// The code is exchanged as the client id of the app that obtained it: `clientID` when
  /// given, else the `aud` of `identityToken`, else the web Services ID. No `redirect_uri` is
  /// sent unless given (native codes have none). `identityToken`, when given, is verified
  /// first with `nonce` (raw, or its SHA-256 hex in the token); the ID token Apple issues with
  /// the code must then name the same user.
  ///
  /// ```swift
  /// let (credential, identity) = try await apple.exchange(
  ///   authorizationCode: Secret(code), identityToken: Secret(idToken), nonce: Secret(raw))
  /// try await login.register(credential: credential, identity: identity)
  /// ```
  ///
  /// - Parameters:
  ///   - authorizationCode: The code (single use, valid five minutes).
  ///   - identityToken: The identity token the app received with it, if it sent one.
  ///   - nonce: The raw nonce the app used, if any.
  ///   - clientID: The client id that obtained the code (the app's bundle id), if known.
  ///   - redirectURI: The redirect URI of the authorization request, for web codes only.
  ///   - userName: The name the app received on the first authorization
  ///     (`credential.fullName`), kept like the web flow's `user` JSON.
  /// - Returns: The credential (its refresh token is what revocation needs) and the identity.
  /// - Throws: ``AuthError/Code/invalidToken`` for an identity token that does not verify or
  ///   names another user; ``AuthError/Code/providerError`` (`invalid_grant`) for a code that
  ///   expired, was used or revoked; ``AuthError/Code/configuration`` for `invalid_client`.
  public func exchange(
    authorizationCode: Secret, identityToken: Secret? = nil, nonce: Secret? = nil,
    clientID: String? = nil, redirectURI: String? = nil, userName: String? = nil
  ) async throws -> (credential: Credential, identity: Identity) {
    var appVerified: VerifiedJWT?
    if let identityToken {
      appVerified = try await verifyIDToken(
        identityToken, nonce: nonce, clientIDs: configuration.clientIDs,
        refusingUnexpectedNonce: nonce == nil)
    }
    let issuedTo =
      clientID ?? appVerified?.audiences.first(where: configuration.clientIDs.contains)
      ?? configuration.webClientID
    var fields = [("code", authorizationCode.revealed)]
    if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
    var credential = try await requestingToken(issuedTo) { client in
      try await client.requestToken(grantType: "authorization_code", fields: fields)
        .credential
    }
    credential.extra[Self.clientIDKey] = issuedTo
    if let userName, !userName.isEmpty {
      let user = JSONValue.object(["name": .object(["firstName": .string(userName)])])
      credential.extra[Self.userKey] = user.jsonText
    }
    guard let idToken = credential.idToken else {
      throw AuthError(
        .invalidResponse, "Apple's token response has no id_token.", provider: .apple)
    }
    // The token endpoint's ID token carries the nonce only when the app's did.
    let issued = try await verifyIDToken(
      idToken, nonce: appVerified == nil ? nonce : nil, clientIDs: [issuedTo])
    if let appVerified, appVerified.subject != issued.subject {
      throw AuthError(
        .invalidToken,
        "The identity token the app sent and the code name different Apple users.",
        provider: .apple)
    }
    let identity = try Self.identity(
      claims: issued.claims.objectValue ?? [:], user: credential.extra[Self.userKey])
    return (credential, identity)
  }
}
