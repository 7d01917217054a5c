import Foundation
import SocialLoginCrypto

extension OAuth2Client {
  /// Builds the authorization request (RFC 6749 §4.1.1) for a new login.
  ///
  /// The URL carries, in order: `response_type=code`, `client_id`, `redirect_uri` (exactly as
  /// given), `scope` (joined with the configured separator; omitted when empty), `state`
  /// (256 random bits, base64url), `code_challenge` and `code_challenge_method` (unless PKCE is
  /// disabled), `nonce` (when configured), then the configured and the given extra parameters.
  /// The ``PendingLogin`` keeps the state, verifier, nonce, redirect URI and requested scope,
  /// and expires ``OAuth2Configuration/pendingLoginLifetime`` after the clock's current time.
  ///
  /// ```swift
  /// let request = try client.makeAuthorizationRequest(
  ///   redirectURI: "http://127.0.0.1:8765/callback",
  ///   additionalParameters: [URLQueryItem(name: "prompt", value: "consent")])
  /// try await pendingStore.insert(request.pending)
  /// openBrowser(request.url)
  /// ```
  ///
  /// - Parameters:
  ///   - redirectURI: The absolute redirect URI, without a fragment; the token request repeats it.
  ///   - scopes: The scopes to request; the configured scopes when `nil`.
  ///   - additionalParameters: Extra parameters for this request only.
  /// - Throws: ``AuthError/Code/configuration`` for a redirect URI that is not absolute or has
  ///   a fragment, an extra parameter that repeats one the client sets, or an endpoint that
  ///   cannot carry a query.
  public func makeAuthorizationRequest(
    redirectURI: String,
    scopes: [String]? = nil,
    additionalParameters: [URLQueryItem] = []
  ) throws(AuthError) -> AuthorizationRequest {
    try checkRedirectURI(redirectURI)
    let scope = (scopes ?? configuration.scopes).joined(separator: configuration.scopeSeparator)
    let state = SecureRandom.urlSafeToken(byteCount: 32)
    let verifier = configuration.pkce == .disabled ? nil : PKCE.makeVerifier()
    let nonce = configuration.usesNonce ? SecureRandom.urlSafeToken(byteCount: 32) : nil

    var fields: [(String, String)] = [
      ("response_type", "code"),
      ("client_id", configuration.clientID),
      ("redirect_uri", redirectURI),
    ]
    if !scope.isEmpty { fields.append(("scope", scope)) }
    fields.append(("state", state))
    if let verifier, let challenge = PKCE.challenge(for: verifier, method: configuration.pkce) {
      fields.append(("code_challenge", challenge))
      fields.append(("code_challenge_method", configuration.pkce.rawValue))
    }
    if let nonce { fields.append(("nonce", nonce)) }
    let reserved = Set(fields.map(\.0))
    for item in configuration.additionalAuthorizationParameters + additionalParameters {
      guard !reserved.contains(item.name) else {
        throw AuthError(
          .configuration,
          "The extra authorization parameter '\(item.name)' is set by the OAuth 2.0 client itself.",
          provider: provider)
      }
      fields.append((item.name, item.value ?? ""))
    }

    let url = try authorizationURL(with: fields)
    let now = clock.wallTime
    let pending = PendingLogin(
      provider: provider,
      state: Secret(state),
      redirectURI: redirectURI,
      codeVerifier: verifier.map { Secret($0) },
      nonce: nonce.map { Secret($0) },
      extra: scope.isEmpty ? [:] : [PendingLogin.requestedScopeKey: scope],
      createdAt: now,
      expiresAt: now.addingTimeInterval(configuration.pendingLoginLifetime))
    return AuthorizationRequest(url: url, pending: pending)
  }

  private func checkRedirectURI(_ redirectURI: String) throws(AuthError) {
    guard let components = URLComponents(string: redirectURI), let scheme = components.scheme,
      !scheme.isEmpty
    else {
      throw AuthError(
        .configuration, "The redirect URI must be an absolute URI.", provider: provider)
    }
    guard components.fragment == nil else {
      throw AuthError(
        .configuration, "The redirect URI must not have a fragment (RFC 6749 §3.1.2).",
        provider: provider)
    }
  }

  private func authorizationURL(with fields: [(String, String)]) throws(AuthError) -> URL {
    guard
      var components = URLComponents(
        url: configuration.authorizationEndpoint, resolvingAgainstBaseURL: false)
    else {
      throw AuthError(
        .configuration, "The authorization endpoint is not a valid URL.", provider: provider)
    }
    let query = FormEncoding.encode(fields)
    if let existing = components.percentEncodedQuery, !existing.isEmpty {
      components.percentEncodedQuery = existing + "&" + query
    } else {
      components.percentEncodedQuery = query
    }
    guard let url = components.url else {
      throw AuthError(
        .configuration, "The authorization URL could not be built.", provider: provider)
    }
    return url
  }
}

extension PendingLogin {
  /// The ``extra`` key under which ``OAuth2Client`` keeps the requested `scope`, used when the
  /// token response omits `scope` (RFC 6749 §5.1: then the granted scope is the requested one).
  public static let requestedScopeKey = "oauth2.scope"
}
