import Foundation

/// Firebase Authentication as a ``LoginProvider``: the token service behind Firebase sessions.
///
/// A Firebase session is a ``SessionActor`` whose provider is this actor, so single-flight
/// refresh, persistence, the state stream and automatic refresh ahead of expiry work as for
/// every other provider: ``refresh(_:)`` spends the Firebase refresh token at Secure Token,
/// and the session's access token *is* the Firebase ID token (one hour). Sessions are created
/// by exchanging another provider's credential, through ``FirebaseAuth``; this provider has no
/// authorization flow of its own.
///
/// ```swift
/// let login = try LoginClient(
///   providers: [.facebook(appID: id, appSecret: secret), .firebase(apiKey: key, projectID: "my-app")],
///   store: store)
/// let firebase = try FirebaseAuth(client: login)
/// ```
public actor FirebaseProvider: LoginProvider {
  /// Always ``ProviderID/firebase``.
  public nonisolated let id: ProviderID = .firebase
  /// Refresh only: Firebase refresh tokens last until revoked, and are not revocable with the
  /// client API.
  public nonisolated let capabilities: ProviderCapabilities = [.refresh]
  /// The project and endpoints.
  public nonisolated let configuration: Configuration

  let transport: any HTTPTransport
  let clock: any AuthClock
  let certificates: FirebaseCertificateCache

  /// Creates the provider.
  ///
  /// - Parameters:
  ///   - configuration: Project, API key, endpoints and emulator.
  ///   - transport: How to reach Firebase.
  ///   - clock: Time for token expiry and ID-token checks.
  public init(
    configuration: Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    certificates = FirebaseCertificateCache(
      url: configuration.certificatesURL, transport: transport, clock: clock)
  }

  /// Firebase sessions come from ``FirebaseAuth/signIn(with:)-(FirebaseCredential)``.
  ///
  /// - Throws: always ``AuthError/Code/unsupported``.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    throw Self.noAuthorizationFlow
  }

  /// Firebase sessions come from ``FirebaseAuth/signIn(with:)-(FirebaseCredential)``.
  ///
  /// - Throws: always ``AuthError/Code/unsupported``.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    throw Self.noAuthorizationFlow
  }

  private static let noAuthorizationFlow = AuthError(
    .unsupported,
    "Firebase has no browser login of its own: sign in with another provider and exchange the "
      + "session with FirebaseAuth.signIn(with:).", provider: .firebase)

  /// Firebase refresh tokens cannot be revoked with the API key (the Admin API's
  /// `revokeRefreshTokens` needs service-account credentials).
  ///
  /// - Throws: always ``AuthError/Code/unsupported``.
  public func revoke(_ credential: Credential) async throws {
    throw AuthError(
      .unsupported,
      "Firebase refresh tokens can be revoked only with the Admin API (service account).",
      provider: .firebase)
  }

}
