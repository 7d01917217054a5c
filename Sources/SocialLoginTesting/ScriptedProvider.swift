import Foundation
import SocialLogin

/// A provider whose answers a test scripts: it drives sessions without any network.
///
/// By default each refresh issues a new access token and a rotated refresh token valid for
/// ``tokenLifetime`` on the injected clock. Enqueue steps to script failures, delays or
/// side effects (such as another "process" writing the store first).
///
/// ```swift
/// let provider = ScriptedProvider(clock: clock)
/// await provider.enqueueRefresh { _ in
///   throw AuthError(.network, "offline")
/// }
/// ```
public actor ScriptedProvider: LoginProvider {
  /// One scripted refresh: receives the credential being spent, returns the new one or throws.
  public typealias RefreshStep = @Sendable (Credential) async throws -> Credential

  /// The provider id (default `"scripted"`).
  public nonisolated let id: ProviderID
  /// The capabilities the provider claims.
  public nonisolated let capabilities: ProviderCapabilities
  /// How long issued access tokens live.
  public nonisolated let tokenLifetime: Duration
  private let clock: any AuthClock
  private var steps: [RefreshStep] = []
  private var issued = 0
  private let classifier: (@Sendable (any Error) -> RefreshFailure)?

  /// How many times ``refresh(_:)`` was called.
  public private(set) var refreshCount = 0
  /// The refresh tokens spent, in order.
  public private(set) var spentRefreshTokens: [String] = []
  /// The credentials revoked, in order.
  public private(set) var revokedAccessTokens: [String] = []

  /// Creates a scripted provider.
  ///
  /// - Parameters:
  ///   - id: The provider id.
  ///   - capabilities: What it claims to support (refresh with rotation and revocation by default).
  ///   - clock: The clock used to stamp expiry on issued tokens.
  ///   - tokenLifetime: How long issued access tokens live.
  ///   - classifier: How refresh failures are classified (RFC 6749 rules by default).
  public init(
    id: ProviderID = "scripted",
    capabilities: ProviderCapabilities = [.refresh, .rotatesRefreshTokens, .revocation],
    clock: any AuthClock,
    tokenLifetime: Duration = .seconds(3600),
    classifier: (@Sendable (any Error) -> RefreshFailure)? = nil
  ) {
    self.id = id
    self.capabilities = capabilities
    self.clock = clock
    self.tokenLifetime = tokenLifetime
    self.classifier = classifier
  }

  /// Queues a step for the next refresh that has no step yet.
  public func enqueueRefresh(_ step: @escaping RefreshStep) {
    steps.append(step)
  }

  /// Issues a fresh credential numbered `n`, as the default refresh does.
  public nonisolated func makeCredential(number: Int, clockNow: Date) -> Credential {
    let lifetime = TimeInterval(tokenLifetime.components.seconds)
    return Credential(
      accessToken: Secret("at-\(number)"), refreshToken: Secret("rt-\(number)"),
      expiresAt: clockNow.addingTimeInterval(lifetime), issuedAt: clockNow)
  }

  /// Runs the next scripted step, or issues a new rotated credential.
  public func refresh(_ credential: Credential) async throws -> Credential {
    refreshCount += 1
    spentRefreshTokens.append(credential.refreshToken?.revealed ?? "")
    if !steps.isEmpty {
      let step = steps.removeFirst()
      return try await step(credential)
    }
    issued += 1
    return makeCredential(number: 1000 + issued, clockNow: clock.wallTime)
  }

  /// Classifies with the injected classifier, or by RFC 6749 rules.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    classifier?(error) ?? RefreshFailure.rfc6749(error)
  }

  /// Builds a request to `https://scripted.invalid/authorize`.
  public func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest {
    let now = clock.wallTime
    let state = UUID().uuidString
    let pending = PendingLogin(
      provider: id, state: Secret(state), redirectURI: redirectURI, createdAt: now,
      expiresAt: now.addingTimeInterval(600))
    var components = URLComponents()
    components.scheme = "https"
    components.host = "scripted.invalid"
    components.path = "/authorize"
    components.queryItems = [
      URLQueryItem(name: "state", value: state),
      URLQueryItem(name: "redirect_uri", value: redirectURI),
    ]
    guard let url = components.url else {
      throw AuthError(.configuration, "The redirect URI could not be encoded.", provider: id)
    }
    return AuthorizationRequest(url: url, pending: pending)
  }

  /// Accepts a callback whose `state` matches and issues a credential.
  public func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential
  {
    guard try callback.value("state") == pending.state.revealed else {
      throw AuthError(.stateMismatch, "The callback state does not match.", provider: id)
    }
    issued += 1
    return makeCredential(number: issued, clockNow: clock.wallTime)
  }

  /// Returns `user-1` for every credential.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    Identity(provider: id, subject: "user-1", name: "Test User")
  }

  /// Returns `user-1` for every token, with a proven audience.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    VerifiedIdentity(
      identity: Identity(provider: id, subject: "user-1"), audience: .proven(audience: "scripted"))
  }

  /// Records the revoked access token.
  public func revoke(_ credential: Credential) async throws {
    revokedAccessTokens.append(credential.accessToken.revealed)
  }
}
