import Foundation

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
