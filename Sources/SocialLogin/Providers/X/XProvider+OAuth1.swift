import Foundation
import SocialLoginCrypto

extension XProvider {
  /// The ``PendingLogin/extra`` key holding the OAuth 1.0a request token (public: it travels
  /// through the browser).
  public static let requestTokenKey = "x.oauth1.request_token"

  /// Steps 1 and 2 of OAuth 1.0a: a request token for `redirectURI?state=…`, then the URL.
  ///
  /// X keeps the query of the `oauth_callback` it redirects to (its callback-URL guide: query
  /// strings may be added in the request-token request, not in the app settings), so the
  /// callback comes back with `state`, `oauth_token` and `oauth_verifier`.
  func oauth1AuthorizationRequest(
    _ client: OAuth1Client, configuration: OAuth1Configuration, redirectURI: String
  ) async throws -> AuthorizationRequest {
    let state = SecureRandom.urlSafeToken(byteCount: 32)
    guard var components = URLComponents(string: redirectURI), components.scheme != nil,
      components.fragment == nil
    else {
      throw AuthError(
        .configuration, "The OAuth 1.0a callback must be an absolute URL without a fragment.",
        provider: id)
    }
    var items = components.queryItems ?? []
    guard !items.contains(where: { $0.name == "state" }) else {
      throw AuthError(
        .configuration, "The callback URL already has a 'state' parameter.", provider: id)
    }
    items.append(URLQueryItem(name: "state", value: state))
    components.queryItems = items
    guard let callback = components.string else {
      throw AuthError(
        .configuration, "The OAuth 1.0a callback URL could not be built.", provider: id)
    }
    let token = try await client.requestToken(
      callback: callback, accessType: configuration.accessType)
    let url = try client.authorizationURL(
      requestToken: token.token, mode: .authenticate, forceLogin: configuration.forceLogin)
    let now = clock.wallTime
    let pending = PendingLogin(
      provider: id, state: Secret(state), redirectURI: redirectURI,
      requestTokenSecret: token.secret, extra: [Self.requestTokenKey: token.token],
      createdAt: now, expiresAt: now.addingTimeInterval(configuration.pendingLoginLifetime))
    return AuthorizationRequest(url: url, pending: pending)
  }

  /// Step 3 of OAuth 1.0a: checks `state`, expiry and the request token (constant time; a
  /// `denied` callback is ``AuthError/Code/accessDenied``), then exchanges the verifier.
  func oauth1Complete(
    _ client: OAuth1Client, pending: PendingLogin, callback: AuthorizationCallback
  ) async throws -> Credential {
    guard pending.provider == id else {
      throw AuthError(
        .invalidCallback, "The pending login is for '\(pending.provider)', not X.", provider: id)
    }
    let state: String?
    do {
      state = try callback.value("state")
    } catch {
      throw AuthError(.invalidCallback, "The callback repeats the 'state' parameter.", provider: id)
    }
    guard let state, ConstantTime.equals(Array(state.utf8), Array(pending.state.revealed.utf8))
    else {
      throw AuthError(
        .stateMismatch, "The callback's 'state' is missing or does not match the login.",
        provider: id)
    }
    guard clock.wallTime <= pending.expiresAt else {
      throw AuthError(
        .invalidCallback, "The login expired before its callback arrived; start it again.",
        provider: id)
    }
    guard let secret = pending.requestTokenSecret,
      let requestToken = pending.extra[Self.requestTokenKey]
    else {
      throw AuthError(
        .invalidCallback, "The pending login is not an OAuth 1.0a login of X.", provider: id)
    }
    let verifier = try client.verifier(from: callback, requestToken: requestToken)
    return try await client.accessToken(
      requestToken: requestToken, secret: secret, verifier: verifier
    ).credential
  }
}
