/// A signed-in Firebase user and the ``SessionActor`` that keeps their Firebase tokens fresh.
///
/// The session's access token is the Firebase ID token: ``idToken(minimumTTL:)`` returns one
/// valid for at least `minimumTTL`, refreshing it through Secure Token when needed (single
/// flight for every caller, persisted before it is returned). Watch ``states`` to follow the
/// user in a UI.
///
/// ```swift
/// let signedIn = try await firebase.signIn(with: try await login(.facebook))
/// let idToken = try await signedIn.idToken()
/// for await state in signedIn.states { print(state) }
/// ```
public struct FirebaseSession: Sendable {
  /// The session that holds and refreshes the Firebase tokens (provider ``ProviderID/firebase``,
  /// subject = the user's local id).
  public let session: SessionActor
  /// The Firebase user as of the sign-in, link or unlink that produced this value.
  public let user: FirebaseUser

  /// Wraps a session and its user.
  public init(session: SessionActor, user: FirebaseUser) {
    self.session = session
    self.user = user
  }

  /// A Firebase ID token valid for at least `minimumTTL`, refreshed first when needed.
  ///
  /// - Throws: ``AuthError`` (``AuthError/Code/signedOut`` once Firebase ended the session) or
  ///   `CancellationError`.
  public func idToken(minimumTTL: Duration = .zero) async throws -> String {
    try await session.freshAccessToken(minimumTTL: minimumTTL)
  }

  /// A Firebase ID token, refreshed through Secure Token first when `forcingRefresh` (as the
  /// Firebase SDKs' `getIDToken(forceRefresh:)`): after changing custom claims, or when a
  /// backend rejected a token that had not expired.
  ///
  /// ```swift
  /// let withNewClaims = try await signedIn.idToken(forcingRefresh: true)
  /// ```
  ///
  /// - Throws: As ``SessionActor/forceRefresh(timeout:)`` when forcing, otherwise as
  ///   ``idToken(minimumTTL:)``.
  public func idToken(forcingRefresh: Bool) async throws -> String {
    guard forcingRefresh else { return try await idToken() }
    return try await session.forceRefresh().accessToken.revealed
  }

  /// The session's states: the current one first, then every change.
  public var states: AsyncStream<AuthState> { session.states }
}
