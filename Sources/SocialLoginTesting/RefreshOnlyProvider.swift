import Foundation
import SocialLogin

/// A provider that can only refresh, through a real OAuth 2.0 token endpoint (for example a
/// ``RotatingTokenServer``), over the SDK's own `OAuth2Client` and HTTP transport.
/// Multi-replica tests and the `replicas` bench use it where the provider's login flow does not
/// matter, only its refresh.
///
/// `onRefresh` runs before each request is sent (a worker process announces that it leads).
public actor RefreshOnlyProvider: LoginProvider {
  /// The provider id the sessions are keyed by.
  public nonisolated let id: ProviderID
  /// Refresh, with rotating refresh tokens.
  public nonisolated let capabilities: ProviderCapabilities = [.refresh, .rotatesRefreshTokens]
  private let client: OAuth2Client
  private let onRefresh: @Sendable () -> Void

  /// Creates a provider refreshing at `tokenEndpoint` as client `clientID`.
  ///
  /// `transport` is a new `URLSessionTransport` by default; benches pass a
  /// ``LoopbackTransport`` to measure without `URLSession`'s spinning wait.
  public init(
    id: ProviderID, tokenEndpoint: URL, clientID: String = "replica-client",
    transport: any HTTPTransport = URLSessionTransport(),
    onRefresh: @escaping @Sendable () -> Void = {}
  ) {
    self.id = id
    self.onRefresh = onRefresh
    client = OAuth2Client(
      provider: id,
      configuration: OAuth2Configuration(
        clientID: clientID, clientSecret: "replica-secret", authorizationEndpoint: tokenEndpoint,
        tokenEndpoint: tokenEndpoint, requestTimeout: .seconds(30)),
      transport: transport)
  }

  /// Sends three requests shaped like a refresh (form `POST`s to the token endpoint) whose
  /// grant the server refuses without spending anything (``RotatingTokenServer``
  /// counts only `refresh_token` grants): a new process's first requests pay for setting up
  /// the transport and its connection, which a bench should not count as the provider's
  /// latency.
  public func warmUp() async {
    let endpoint = client.configuration.tokenEndpoint
    var request = TransportRequest.form(url: endpoint, fields: [("grant_type", "warm_up")])
    request.timeout = .seconds(5)
    for _ in 0..<3 { _ = try? await client.transport.send(request) }
  }

  /// Spends the refresh token at the token endpoint.
  public func refresh(_ credential: Credential) async throws -> Credential {
    onRefresh()
    let started = ContinuousClock.now
    defer { refreshDurations.append(started.duration(to: .now)) }
    return try await client.refresh(credential).credential
  }

  /// How long each refresh took, from sending the request to having its answer parsed: the
  /// provider's latency as this client sees it (the server's own delay, the network, and the
  /// HTTP transport on both sides).
  public private(set) var refreshDurations: [Duration] = []

  /// Not supported: this provider only refreshes.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    throw Self.unsupported
  }

  /// Not supported: this provider only refreshes.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    throw Self.unsupported
  }

  /// Not supported: this provider only refreshes.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    throw Self.unsupported
  }

  /// Not supported: this provider only refreshes.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    throw Self.unsupported
  }

  /// Not supported: this provider only refreshes.
  public func revoke(_ credential: Credential) async throws {
    throw Self.unsupported
  }

  private static var unsupported: AuthError {
    AuthError(.unsupported, "RefreshOnlyProvider only refreshes tokens.")
  }
}
