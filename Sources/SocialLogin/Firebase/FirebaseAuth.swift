import Foundation

/// Firebase Authentication for a ``LoginClient``: turn any provider's login into a Firebase
/// session, link and unlink providers, and verify Firebase ID tokens.
///
/// Register ``FirebaseProvider`` on the client (``LoginProvider/firebase(apiKey:projectID:tenantID:emulatorHost:environment:acceptsUnsignedEmulatorTokens:transport:clock:)``),
/// then every Firebase session is a ``SessionActor`` of that client: persisted in its store,
/// restored at start, refreshed ahead of expiry, observable through `states`.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.facebook(appID: appID, appSecret: secret), .firebase(apiKey: key, projectID: "my-app")],
///   store: try FileSessionStore(directory: dir))
/// let firebase = try FirebaseAuth(client: login)
/// let signedIn = try await firebase.signIn(with: try await login(.facebook))
/// print(signedIn.user.localID, try await signedIn.idToken())
/// ```
public actor FirebaseAuth {
  /// The client whose store and registry hold the Firebase sessions.
  public nonisolated let client: LoginClient
  /// The client's Firebase provider.
  public nonisolated let provider: FirebaseProvider

  /// Uses the ``FirebaseProvider`` registered on `client` under ``ProviderID/firebase``.
  ///
  /// - Throws: ``AuthError/Code/unknownProvider`` when the client has no Firebase provider.
  public init(client: LoginClient) throws(AuthError) {
    guard let provider = client.providers[.firebase] as? FirebaseProvider else {
      throw AuthError(
        .unknownProvider,
        "The client has no Firebase provider: add .firebase(apiKey:projectID:) to its providers.",
        provider: .firebase)
    }
    self.client = client
    self.provider = provider
  }

  /// Exchanges an identity provider's credential for a Firebase user and a live, persisted
  /// Firebase session (`accounts:signInWithIdp`).
  ///
  /// ```swift
  /// let signedIn = try await firebase.signIn(with: .facebook(accessToken: token))
  /// ```
  ///
  /// - Throws: ``AuthError``: ``AuthError/Code/invalidIdPResponse`` when Firebase refused the
  ///   credential, ``AuthError/Code/accountExistsWithDifferentCredential`` (with a
  ///   ``FirebaseAccountConflict`` in ``AuthError/firebaseError``) when the user must sign in
  ///   another way and link, ``AuthError/Code/unsupported`` for an X OAuth 2.0 token, transient
  ///   codes for network and quota failures, storage errors.
  public func signIn(with credential: FirebaseCredential) async throws -> FirebaseSession {
    // A sign-in is a login of the Firebase session, for the client's observer.
    client.environment.observer?.observe(.loginStarted(provider: .firebase))
    return try await client.observingLogin(provider: .firebase, session: \.session) {
      let result = try await client.environment.observing(.firebase) {
        try await provider.signInWithIdp(credential)
      }
      let user = await completed(result.user, idToken: result.credential.accessToken)
      let session = try await client.register(
        credential: result.credential, identity: user.identity)
      return FirebaseSession(session: session, user: user)
    }
  }

  /// Signs in to Firebase with the provider credential of a live session, for example the one
  /// `login(.facebook)` returned: Facebook's access token, X's OAuth 1.0a token and secret,
  /// Google's or any OpenID Connect provider's ID token (as `oidc.<provider id>`, or the id set
  /// in ``FirebaseProvider/Configuration/providerIDs``).
  ///
  /// ```swift
  /// let facebook = try await login(.facebook)
  /// let signedIn = try await firebase.signIn(with: facebook)
  /// ```
  ///
  /// - Parameters:
  ///   - session: A signed-in session of another provider.
  ///   - rawNonce: The raw nonce of the session's ID token, when Firebase needs it (Facebook
  ///     Limited Login, OpenID Connect providers that require one).
  /// - Throws: as ``signIn(with:)-(FirebaseCredential)``, and ``AuthError/Code/unsupported``
  ///   when the session holds no credential Firebase accepts.
  public func signIn(with session: SessionActor, rawNonce: Secret? = nil) async throws
    -> FirebaseSession
  {
    try await signIn(with: try await credential(for: session, rawNonce: rawNonce))
  }

  /// The Firebase credential a session's tokens make; see ``signIn(with:rawNonce:)``.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for a Firebase session,
  ///   ``AuthError/Code/unsupported`` when the session has no token Firebase accepts, and the
  ///   session's own errors (signed out, refresh failures).
  public func credential(for session: SessionActor, rawNonce: Secret? = nil) async throws
    -> FirebaseCredential
  {
    let providerID = session.key.provider
    guard providerID != .firebase else {
      throw AuthError(
        .configuration, "The session is already a Firebase session.", provider: .firebase)
    }
    let credential = try await session.freshCredential()
    let firebaseID = provider.configuration.firebaseProviderID(for: providerID)
    switch firebaseID {
    case "facebook.com":
      if let rawNonce, let idToken = credential.idToken {
        return .facebookLimitedLogin(idToken: idToken, rawNonce: rawNonce)
      }
      return .facebook(accessToken: credential.accessToken)
    case "twitter.com":
      guard let secret = credential.tokenSecret else {
        return .twitterOAuth2(accessToken: credential.accessToken)
      }
      return .twitter(token: credential.accessToken, secret: secret)
    case "google.com":
      guard let idToken = credential.idToken else {
        return .googleAccessToken(credential.accessToken)
      }
      return .google(idToken: idToken, accessToken: credential.accessToken)
    case "apple.com":
      guard let idToken = credential.idToken else {
        throw Self.noIDToken(providerID, firebaseID)
      }
      return .apple(idToken: idToken, rawNonce: rawNonce)
    default:
      guard let idToken = credential.idToken else { throw Self.noIDToken(providerID, firebaseID) }
      return .oidc(firebaseID, idToken: idToken, rawNonce: rawNonce)
    }
  }

  private static func noIDToken(_ provider: ProviderID, _ firebaseID: String) -> AuthError {
    AuthError(
      .unsupported,
      "Firebase's \(firebaseID) needs an ID token, and the \(provider) session has none "
        + "(sign in with the openid scope).", provider: .firebase)
  }

  /// Links another provider's credential to the signed-in Firebase user (`signInWithIdp` with
  /// the user's ID token), so either provider signs them in later. The session takes the new
  /// tokens Firebase issues.
  ///
  /// - Throws: ``AuthError/Code/credentialAlreadyInUse`` when the credential belongs to another
  ///   Firebase user, ``AuthError/Code/emailAlreadyInUse``, and the errors of
  ///   ``signIn(with:)-(FirebaseCredential)``.
  public func link(_ signedIn: FirebaseSession, with credential: FirebaseCredential)
    async throws -> FirebaseSession
  {
    let idToken = Secret(try await signedIn.idToken())
    let result = try await provider.signInWithIdp(credential, linkingTo: idToken)
    guard result.user.localID == signedIn.user.localID else {
      throw AuthError(
        .invalidResponse, "Firebase linked the credential to another user than the session's.",
        provider: .firebase)
    }
    var user = await completed(result.user, idToken: result.credential.accessToken)
    user.isNewUser = false
    let session = try await client.register(credential: result.credential, identity: user.identity)
    return FirebaseSession(session: session, user: user)
  }

  /// Links the provider credential of a live session (see ``signIn(with:rawNonce:)``).
  public func link(_ signedIn: FirebaseSession, with session: SessionActor, rawNonce: Secret? = nil)
    async throws -> FirebaseSession
  {
    try await link(signedIn, with: try await credential(for: session, rawNonce: rawNonce))
  }

  /// Unlinks `providerID` (``FirebaseProviderID/facebook``, `.oidc("line")`, ...) from the
  /// user (`accounts:update` with `deleteProvider`).
  ///
  /// - Throws: ``AuthError`` with Firebase's code, or storage errors.
  public func unlink(_ providerID: FirebaseProviderID, from signedIn: FirebaseSession)
    async throws -> FirebaseSession
  {
    let idToken = Secret(try await signedIn.idToken())
    let (user, newCredential) = try await provider.unlink([providerID.rawValue], idToken: idToken)
    guard user.localID == signedIn.user.localID else {
      throw AuthError(
        .invalidResponse, "Firebase unlinked a provider of another user than the session's.",
        provider: .firebase)
    }
    var updated = user
    updated.isNewUser = false
    let credential: Credential
    if let newCredential {
      credential = newCredential
    } else {
      credential = try await signedIn.session.freshCredential()
    }
    // Re-registering stores the user's new provider list with the session.
    let session = try await client.register(credential: credential, identity: updated.identity)
    return FirebaseSession(session: session, user: updated)
  }

  /// The user of a Firebase session as Firebase knows it now (`accounts:lookup`).
  public func currentUser(of signedIn: FirebaseSession) async throws -> FirebaseUser {
    try await provider.lookup(idToken: Secret(try await signedIn.idToken()))
  }

  /// The live Firebase session of user `localID`, for example one restored from the store.
  public func session(for localID: String) async -> FirebaseSession? {
    guard let session = client.session(for: SessionKey(provider: .firebase, subject: localID))
    else { return nil }
    let identity = await session.identity
    let user = identity.flatMap(FirebaseUser.init(identity:)) ?? FirebaseUser(localID: localID)
    return FirebaseSession(session: session, user: user)
  }

  /// Verifies a Firebase ID token; see ``FirebaseProvider/verifyIDToken(_:)``.
  public func verifyIDToken(_ token: String) async throws -> FirebaseIDToken {
    try await provider.verifyIDToken(token)
  }

  /// The sign-in's user with every linked provider from `accounts:lookup`. The lookup only
  /// adds detail: when it fails, the sign-in's own view of the user is kept.
  private func completed(_ user: FirebaseUser, idToken: Secret) async -> FirebaseUser {
    guard let looked = try? await provider.lookup(idToken: idToken),
      looked.localID == user.localID
    else { return user }
    var merged = user
    if !looked.providerData.isEmpty { merged.providerData = looked.providerData }
    merged.email = looked.email ?? user.email
    merged.emailVerified = looked.emailVerified ?? user.emailVerified
    merged.displayName = looked.displayName ?? user.displayName
    merged.photoURL = looked.photoURL ?? user.photoURL
    return merged
  }
}
