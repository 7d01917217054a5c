import Foundation

extension LoginClient {
  /// Signs in with what an Apple app sent: exchanges its authorization code (no
  /// `redirect_uri`), verifies its identity token and the ID token issued with the code, and
  /// registers the session (its refresh token is what ``deleteAccount(_:)`` revokes).
  ///
  /// ```swift
  /// // POST /auth/apple  {authorizationCode, identityToken, fullName}
  /// let session = try await login.signInWithApple(
  ///   authorizationCode: Secret(body.authorizationCode),
  ///   identityToken: Secret(body.identityToken), nonce: Secret(rawNonceIssuedToThisApp))
  /// ```
  ///
  /// - Parameters: As ``AppleProvider/exchange(authorizationCode:identityToken:nonce:clientID:redirectURI:userName:)``.
  /// - Returns: The live session.
  /// - Throws: ``AuthError/Code/unknownProvider`` without an ``AppleProvider``; otherwise the
  ///   exchange's and the store's errors.
  @discardableResult
  public func signInWithApple(
    authorizationCode: Secret, identityToken: Secret? = nil, nonce: Secret? = nil,
    clientID: String? = nil, redirectURI: String? = nil, userName: String? = nil
  ) async throws -> SessionActor {
    let apple = try appleProvider()
    // A native sign-in is a login, for the client's observer, like a browser login.
    environment.observer?.observe(.loginStarted(provider: .apple))
    return try await observingLogin(provider: .apple, session: \.self) {
      let (credential, identity) = try await environment.observing(.apple) {
        try await apple.exchange(
          authorizationCode: authorizationCode, identityToken: identityToken, nonce: nonce,
          clientID: clientID, redirectURI: redirectURI, userName: userName)
      }
      return try await register(credential: credential, identity: identity)
    }
  }

  /// Deletes a user's account the way App Store Review Guideline 5.1.1(v) asks: revokes the
  /// session's tokens at the provider first (Apple: the refresh token at `/auth/revoke`),
  /// and only once that succeeded ends the session with ``SignOutReason/accountDeleted`` and
  /// deletes its stored record. Delete your own user data after this returns.
  ///
  /// ```swift
  /// try await login.deleteAccount(SessionKey(provider: .apple, subject: user.appleSubject))
  /// try await database.deleteUser(user.id)
  /// ```
  ///
  /// - Throws: The revocation's error, with the session kept so the deletion can be retried;
  ///   ``AuthError/Code/signedOut`` when no session has that key, live here or stored (the
  ///   session is loaded from the store when another replica made it);
  ///   ``AuthError/Code/storageFailed`` when the revoked session's record could not be
  ///   deleted.
  public func deleteAccount(_ key: SessionKey) async throws {
    guard let session = try await loadSession(key, autoRefresh: false) else {
      throw AuthError(
        .signedOut, "No session of \(key) is stored to revoke for the account deletion.",
        provider: key.provider)
    }
    try await session.revokeForDeletion()
  }

  /// Verifies a server-to-server notification Apple posted (the request body) and acts on it
  /// once: `consent-revoked` and `account-delete` end the user's session (live here, on
  /// another replica, or only stored) with ``SignOutReason/consentRevoked`` or
  /// ``SignOutReason/accountDeleted``; the email events change nothing here.
  ///
  /// ```swift
  /// // POST /apple/notifications (the URL registered for the Services ID)
  /// let event = try await login.handleAppleNotification(body: request.body, seen: nonceStore)
  /// if event.kind == .accountDelete { try await database.deleteUser(appleSubject: event.subject) }
  /// ```
  ///
  /// A captured notification is worth nothing to replay: it is refused once its `iat` is more
  /// than ``ProviderEventReceiver/Configuration/maximumSecurityEventAge`` (7 days) old or its
  /// `exp` passed, and its `jti` is kept in `seen` until then, so a second delivery throws ``AuthError/Code/replayed`` and ends nothing (answer
  /// it with 200 all the same, so that Apple stops redelivering it). Replicas share `seen`
  /// (the Redis nonce store). When acting fails, the `jti` is forgotten again, so Apple's
  /// redelivery can act. Only a session made through the app the notification is for (its
  /// `aud` among the audiences of the session's ID token) ends; one whose ID token is missing
  /// ends too, as the user's word cannot be checked against it.
  ///
  /// - Parameters:
  ///   - body: The request body Apple posted.
  ///   - seen: Where handled notifications' ids are kept until they expire: the backend's
  ///     ``NonceStore`` (one shared by every replica).
  /// - Returns: The verified notification.
  /// - Throws: As ``AppleProvider/verifyNotification(body:)``; ``AuthError/Code/replayed``
  ///   for a notification handled already; store errors.
  @discardableResult
  public func handleAppleNotification(body: [UInt8], seen: any NonceStore) async throws
    -> AppleServerNotification
  {
    // The receiver's Apple route owns the work; this is the same code without HTTP.
    try await ProviderEventReceiver(client: self, seen: seen).handleAppleNotification(body: body)
  }

  /// The registered ``AppleProvider``.
  func appleProvider() throws -> AppleProvider {
    guard let apple = try provider(.apple) as? AppleProvider else {
      throw AuthError(
        .unknownProvider, "The provider registered as 'apple' is not an AppleProvider.",
        provider: .apple)
    }
    return apple
  }
}

extension SessionActor {
  /// Revokes the tokens, then ends the session with ``SignOutReason/accountDeleted``; a failed
  /// revocation throws and keeps the session (see ``LoginClient/deleteAccount(_:)``).
  func revokeForDeletion() async throws {
    try checkStillSignedIn()
    guard provider.capabilities.contains(.revocation) else {
      throw AuthError(
        .unsupported, "The provider '\(key.provider)' cannot revoke tokens.",
        provider: key.provider)
    }
    try await provider.revoke(phase.unsaved ?? record.credential)
    _ = try await signOut(reason: .accountDeleted, revoke: false)
  }
}
