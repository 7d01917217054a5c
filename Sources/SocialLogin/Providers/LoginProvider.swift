import Foundation

/// A login provider: Facebook, X, LINE, an OpenID Connect provider, or your own.
///
/// Each provider is an actor that is stateless about users: all per-user state lives in a
/// ``SessionActor``. The provider builds authorization requests, turns callbacks into
/// ``Credential``s, refreshes and revokes tokens, fetches identities, verifies tokens that
/// mobile apps send, and classifies its own failures, because providers report "your refresh
/// token is dead" in different ways.
///
/// ```swift
/// actor MyProvider: LoginProvider {
///   nonisolated let id: ProviderID = "my-provider"
///   nonisolated let capabilities: ProviderCapabilities = [.refresh, .pkce]
///   // ...
/// }
/// ```
public protocol LoginProvider: Actor {
  /// The provider's id; sessions and stores are keyed by it.
  nonisolated var id: ProviderID { get }

  /// What the provider can do.
  nonisolated var capabilities: ProviderCapabilities { get }

  /// Builds the authorization request for a new login that will redirect to `redirectURI`.
  ///
  /// The returned ``PendingLogin`` carries the `state`, PKCE verifier and nonce; keep it until
  /// the callback arrives and pass it to ``completeAuthorization(_:callback:)``.
  func makeAuthorizationRequest(redirectURI: String) async throws -> AuthorizationRequest

  /// Validates the callback against `pending` and exchanges it for a credential.
  func completeAuthorization(_ pending: PendingLogin, callback: AuthorizationCallback)
    async throws -> Credential

  /// Spends the refresh token in `credential` and returns the new credential.
  ///
  /// Throws ``AuthError``; the session asks ``classifyRefreshFailure(_:)`` what the error means.
  /// Sessions call ``spendRefreshToken(_:)`` instead, which keeps the new tokens when a check
  /// after the token endpoint's answer fails; this method throws that check's error.
  func refresh(_ credential: Credential) async throws -> Credential

  /// Spends the refresh token in `credential` and returns what the token endpoint issued,
  /// with anything found wrong with it after the endpoint answered.
  ///
  /// Once a token endpoint answered with tokens, the refresh token it spent may be dead
  /// (providers rotate them, and some revoke the whole grant when a spent one comes back), so
  /// the new tokens must reach the session whatever fails afterwards. Throw only when no tokens
  /// were issued (the request failed, or the answer was an error or unreadable); report a
  /// failed check of issued tokens as ``RefreshOutcome/problem`` instead: the session persists
  /// the tokens first and then degrades (``RefreshOutcome/Problem/unverified(_:)``) or ends
  /// (``RefreshOutcome/Problem/identityMismatch(_:)``).
  ///
  /// The default implementation returns ``refresh(_:)``'s credential with no problem, so a
  /// provider whose refresh checks nothing after the answer need not implement it.
  ///
  /// ```swift
  /// func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
  ///   let issued = try await oauth.refresh(credential).credential  // throws: nothing issued
  ///   guard sameAccount(issued, credential) else {
  ///     return RefreshOutcome(
  ///       credential: issued,
  ///       problem: .identityMismatch(AuthError(.invalidToken, "Another account.")))
  ///   }
  ///   return RefreshOutcome(credential: issued)
  /// }
  /// ```
  func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome

  /// Fetches who the credential belongs to.
  func fetchIdentity(for credential: Credential) async throws -> Identity

  /// Verifies a token obtained elsewhere (for example by a mobile app) and returns whose it is,
  /// and whether it was proven to be issued to this app.
  ///
  /// Throws ``AuthError`` with ``AuthError/Code/invalidToken`` when the token is not valid or
  /// was issued to another app.
  func verify(_ token: ExternalToken) async throws -> VerifiedIdentity

  /// Revokes the credential at the provider, where the provider supports it.
  func revoke(_ credential: Credential) async throws

  /// Says what a failed refresh means for the session: retry later, or sign out and why.
  nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure
}

/// What a failed refresh means for the session.
public enum RefreshFailure: Hashable, Sendable {
  /// Retry later; the session keeps its tokens and becomes `.degraded`.
  /// `retryAfter` is the provider's `Retry-After`, when it gave one.
  case transient(retryAfter: Date?)
  /// The refresh token is no longer accepted. The session re-reads the store once to adopt a
  /// token another process may have rotated in, and otherwise signs out with `reason`.
  case refreshTokenInvalid(SignOutReason)
  /// Sign out now with `reason` (account disabled, consent revoked, ...).
  case terminal(SignOutReason)
}

extension LoginProvider {
  /// ``refresh(_:)``'s credential, with no problem: for providers that check nothing after
  /// the token endpoint answered.
  public func spendRefreshToken(_ credential: Credential) async throws -> RefreshOutcome {
    RefreshOutcome(credential: try await refresh(credential))
  }

  /// The RFC 6749 classification: network, timeout, 5xx and 429 are transient;
  /// `invalid_grant` means the refresh token is dead; other OAuth errors are terminal.
  ///
  /// Providers that speak differently (X answers `invalid_request` for a spent refresh token)
  /// override this.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    RefreshFailure.rfc6749(error)
  }
}

extension RefreshFailure {
  /// Classifies `error` by RFC 6749 rules; see ``LoginProvider/classifyRefreshFailure(_:)``.
  ///
  /// Only a definitive answer of the provider signs the user out: an RFC 6749 §5.2 error body
  /// (`invalid_grant` → ``refreshTokenInvalid(_:)``, any other OAuth `error` →
  /// ``terminal(_:)``), or an error the provider's own code already classified
  /// (``AuthError/Code/refreshTokenInvalid``, ``AuthError/Code/signedOut``). Everything else
  /// is ``transient(retryAfter:)``: network failures, timeouts, 5xx and 429, and every answer
  /// that is not a well-formed OAuth error — HTML pages from a proxy or WAF at any status,
  /// empty or truncated bodies, a success without `access_token`. Such answers say nothing
  /// about the refresh token, so the session keeps it and retries with backoff. A provider
  /// whose documented answer to a dead refresh token is not an OAuth error says so in its own
  /// ``LoginProvider/classifyRefreshFailure(_:)`` (see
  /// ``oauth2(_:refreshTokenInvalidWhen:)``).
  public static func rfc6749(_ error: any Error) -> RefreshFailure {
    guard let error = error as? AuthError else { return .transient(retryAfter: nil) }
    if error.isTransient { return .transient(retryAfter: error.retryAfter) }
    switch error.code {
    case .refreshTokenInvalid:
      return .refreshTokenInvalid(error.signOutReason ?? .refreshTokenExpired)
    case .signedOut:
      return .terminal(error.signOutReason ?? .refreshTokenRevoked)
    default:
      break
    }
    guard let code = error.oauth?.error else { return .transient(retryAfter: error.retryAfter) }
    // LINE sends upper-case codes.
    if code.lowercased() == "invalid_grant" { return .refreshTokenInvalid(.refreshTokenExpired) }
    return .terminal(.providerRejected(code: code))
  }
}

/// What a refresh produced once the token endpoint answered with tokens: the credential, and
/// anything found wrong with it afterwards (see ``LoginProvider/spendRefreshToken(_:)``).
///
/// ```swift
/// let outcome = try await provider.spendRefreshToken(credential)
/// try await store.save(outcome.credential)  // first: the spent refresh token may be dead
/// if case .identityMismatch(let error)? = outcome.problem { throw error }
/// ```
public struct RefreshOutcome: Sendable {
  /// A check of the issued tokens that failed after the token endpoint answered.
  public enum Problem: Sendable {
    /// The tokens could not be fully checked, but nothing says they belong to another account:
    /// a new ID token whose key could not be fetched, whose time claims are off by more than
    /// the leeway, or whose `at_hash` does not match. The ``RefreshOutcome/credential`` keeps
    /// the new access and refresh tokens (and the previous, verified ID token); the session
    /// persists it, serves the new access token, and stays ``AuthState/degraded(retryAt:)``
    /// until a later refresh passes every check.
    case unverified(AuthError)
    /// The tokens name another account than the session's (another `iss`, `sub` or `aud`,
    /// OIDC Core §12.2). The session drops them and signs out with
    /// ``SignOutReason/identityMismatch``.
    case identityMismatch(AuthError)

    /// The error that describes the problem.
    public var error: AuthError {
      switch self {
      case .unverified(let error), .identityMismatch(let error): return error
      }
    }
  }

  /// The issued tokens, merged as the provider keeps them (for example with the previous ID
  /// token when the response had none, or when the new one could not be verified).
  public var credential: Credential
  /// What failed after the answer, or `nil` when every check passed.
  public var problem: Problem?

  /// Creates an outcome.
  public init(credential: Credential, problem: Problem? = nil) {
    self.credential = credential
    self.problem = problem
  }

  /// The credential, or the problem's error: what ``LoginProvider/refresh(_:)`` returns.
  public func get() throws(AuthError) -> Credential {
    if let problem { throw problem.error }
    return credential
  }
}

/// What a provider supports.
public struct ProviderCapabilities: OptionSet, Hashable, Sendable {
  /// The option bits.
  public let rawValue: UInt32
  /// Creates capabilities from bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Access tokens can be refreshed with a refresh token.
  public static let refresh = ProviderCapabilities(rawValue: 1 << 0)
  /// Each refresh returns a new refresh token and kills the old one.
  public static let rotatesRefreshTokens = ProviderCapabilities(rawValue: 1 << 1)
  /// The authorization request uses PKCE.
  public static let pkce = ProviderCapabilities(rawValue: 1 << 2)
  /// The provider signs in with OAuth 1.0a.
  public static let oauth1 = ProviderCapabilities(rawValue: 1 << 3)
  /// Tokens can be revoked at the provider.
  public static let revocation = ProviderCapabilities(rawValue: 1 << 4)
  /// The provider issues OpenID Connect ID tokens.
  public static let openIDConnect = ProviderCapabilities(rawValue: 1 << 5)
  /// The provider supports the device authorization grant.
  public static let deviceGrant = ProviderCapabilities(rawValue: 1 << 6)
}

/// A token obtained outside the SDK, for ``LoginProvider/verify(_:)``.
public enum ExternalToken: Hashable, Sendable {
  /// An OAuth 2.0 access token.
  case accessToken(Secret)
  /// An OpenID Connect ID token and the nonce it must carry, if any.
  case idToken(Secret, nonce: String?)
  /// An OAuth 1.0a token and its secret.
  case oauth1(token: Secret, secret: Secret)
}

/// An authorization request ready to open in a browser.
public struct AuthorizationRequest: Sendable {
  /// The URL to open.
  public var url: URL
  /// What to keep until the callback arrives.
  public var pending: PendingLogin

  /// Creates a request.
  public init(url: URL, pending: PendingLogin) {
    self.url = url
    self.pending = pending
  }
}

/// A login that was started and waits for its callback.
public struct PendingLogin: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The provider the login is for.
  public var provider: ProviderID
  /// The `state` sent in the authorization request (single use).
  public var state: Secret
  /// The exact redirect URI sent in the authorization request.
  public var redirectURI: String
  /// The PKCE code verifier, when PKCE is used.
  public var codeVerifier: Secret?
  /// The OpenID Connect nonce, when one was sent.
  public var nonce: Secret?
  /// The OAuth 1.0a request token secret, for OAuth 1.0a logins.
  public var requestTokenSecret: Secret?
  /// Provider-specific values to carry to the callback (never secrets).
  public var extra: [String: String]
  /// When the login was started (local clock).
  public var createdAt: Date
  /// When the login stops being accepted (local clock).
  public var expiresAt: Date

  /// Creates a pending login.
  public init(
    provider: ProviderID,
    state: Secret,
    redirectURI: String,
    codeVerifier: Secret? = nil,
    nonce: Secret? = nil,
    requestTokenSecret: Secret? = nil,
    extra: [String: String] = [:],
    createdAt: Date,
    expiresAt: Date
  ) {
    self.provider = provider
    self.state = state
    self.redirectURI = redirectURI
    self.codeVerifier = codeVerifier
    self.nonce = nonce
    self.requestTokenSecret = requestTokenSecret
    self.extra = extra
    self.createdAt = createdAt
    self.expiresAt = expiresAt
  }

  /// Names the provider and redirect URI; never the state, verifier or nonce.
  public var description: String {
    "PendingLogin(provider: \(provider), redirectURI: \(redirectURI), expiresAt: \(expiresAt))"
  }
}

/// The parameters a provider sent back to the redirect URI.
public struct AuthorizationCallback: Hashable, Sendable {
  /// The callback's query (or fragment) parameters in order, duplicates kept.
  public var parameters: [URLQueryItem]

  /// Creates a callback from parameters.
  public init(parameters: [URLQueryItem]) { self.parameters = parameters }

  /// Parses the query of a callback URL with the one callback decoder
  /// (``init(query:)``: `+` is a space, as browsers encode forms).
  public init(url: URL) throws {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      throw AuthError(.invalidCallback, "The callback URL could not be parsed.")
    }
    self.init(query: components.percentEncodedQuery ?? "")
  }

  /// The single value of `name`; throws when the parameter appears more than once.
  public func value(_ name: String) throws -> String? {
    let values = parameters.filter { $0.name == name }
    guard values.count <= 1 else {
      throw AuthError(.invalidCallback, "The callback repeats the '\(name)' parameter.")
    }
    return values.first?.value
  }
}
