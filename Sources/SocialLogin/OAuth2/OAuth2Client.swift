import Foundation

/// The OAuth 2.0 engine that provider actors (generic OpenID Connect, X, LINE, Facebook)
/// compose: authorization code with PKCE, `state` and `nonce`; callback validation; the token
/// endpoint (code exchange, refresh, custom grants); RFC 7009 revocation; and the RFC 8628
/// device authorization grant.
///
/// `OAuth2Client` holds only configuration, a transport and a clock; it keeps no per-user state,
/// so one value can serve every login and session of a provider concurrently. Single use of a
/// ``PendingLogin`` is the job of the caller's pending-login store: validate the callback with
/// ``validateCallback(_:pending:)`` (a pure function) *before* consuming the pending login, so
/// that a forged callback cannot burn a real one.
///
/// ```swift
/// let client = OAuth2Client(
///   provider: "my-oidc",
///   configuration: OAuth2Configuration(
///     clientID: "app",
///     clientSecret: "s3cret",
///     authorizationEndpoint: URL(string: "https://id.example.com/authorize")!,
///     tokenEndpoint: URL(string: "https://id.example.com/token")!,
///     scopes: ["openid", "profile"],
///     usesNonce: true),
///   transport: URLSessionTransport())
///
/// // 1. Send the user to the provider and keep `request.pending` in your pending-login store.
/// let request = try client.makeAuthorizationRequest(redirectURI: "https://app.example.com/cb")
/// // 2. When the browser comes back: validate, then consume the pending login, then exchange.
/// let callback = try AuthorizationCallback(url: callbackURL)
/// let code = try client.validateCallback(callback, pending: request.pending)
/// let tokens = try await client.exchangeCode(code, pending: request.pending)
/// // 3. Later: refresh, and classify failures the RFC 6749 way.
/// do {
///   let refreshed = try await client.refresh(tokens.credential)
/// } catch {
///   switch RefreshFailure.oauth2(error) { ... }
/// }
/// ```
public struct OAuth2Client: Sendable {
  /// The provider this client acts for; set on every ``AuthError`` it throws.
  public let provider: ProviderID
  /// The client's configuration.
  public let configuration: OAuth2Configuration
  /// The transport that sends every request.
  public let transport: any HTTPTransport
  /// The clock for pending-login lifetimes, token expiry and device-grant polling.
  public let clock: any AuthClock

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - provider: The provider id, used in pending logins and errors.
  ///   - configuration: Client identity, endpoints and protections.
  ///   - transport: The HTTP transport; a new ``URLSessionTransport`` by default.
  ///   - clock: The clock; the system clock by default (tests inject `ManualClock`).
  public init(
    provider: ProviderID,
    configuration: OAuth2Configuration,
    transport: any HTTPTransport = URLSessionTransport(),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.provider = provider
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
  }
}
