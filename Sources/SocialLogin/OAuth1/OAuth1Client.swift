import Foundation
import SocialLoginCrypto

/// The OAuth 1.0a three-legged flow (RFC 5849 §2, "Sign in with X") and request signing.
///
/// `OAuth1Client` is a stateless `Sendable` value: provider actors compose one and keep the
/// per-login state (request token and its secret) in a ``PendingLogin``.
///
/// 1. ``requestToken(callback:accessType:)`` obtains a request token (the response must
///    confirm the callback).
/// 2. ``authorizationURL(requestToken:mode:forceLogin:screenName:)`` is the page to open.
/// 3. ``verifier(from:requestToken:)`` checks the callback (the token must match, in constant
///    time; `denied` means the user declined) and ``accessToken(requestToken:secret:verifier:)``
///    exchanges it for a ``Credential`` with a token secret.
///
/// Then ``sign(_:token:tokenSecret:)`` signs API calls and
/// ``invalidateToken(_:tokenSecret:)`` revokes the token.
///
/// ```swift
/// let client = OAuth1Client(
///   consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: consumerSecret,
///   transport: URLSessionTransport())
///
/// let login = try await client.makeAuthorizationRequest(callback: "https://app.example/x/cb")
/// // redirect the browser to login.url, keep login.pending
///
/// let callback = try AuthorizationCallback(url: callbackURL)
/// let result = try await client.completeAuthorization(login.pending, callback: callback)
/// print(result.screenName ?? "?", result.credential)   // tokens stay redacted
///
/// let me = try client.sign(
///   TransportRequest(url: URL(string: "https://api.x.com/2/users/me")!),
///   credential: result.credential)
/// let response = try await transport.send(me)
/// ```
public struct OAuth1Client: Sendable {
  /// Which browser endpoint ``authorizationURL(requestToken:mode:forceLogin:screenName:)``
  /// uses.
  public enum AuthorizationMode: String, Hashable, Sendable {
    /// `oauth/authenticate`: "Sign in with X"; no consent screen when the user already granted
    /// access.
    case authenticate
    /// `oauth/authorize`: always shows the consent screen (required for desktop apps).
    case authorize
  }

  /// The `x_auth_access_type` X accepts on the request-token step.
  public enum AccessType: String, Hashable, Sendable {
    /// Ask only for read access, even if the app is registered read/write.
    case read
    /// Ask for read and write access.
    case write
  }

  /// How long ``makeAuthorizationRequest(callback:mode:forceLogin:screenName:accessType:lifetime:)``
  /// keeps a pending login valid by default.
  public static let defaultLoginLifetime: TimeInterval = 15 * 60

  /// The signer holding the consumer key, consumer secret, clock and nonce source.
  public var signer: OAuth1Signer
  /// The provider's endpoints.
  public var endpoints: OAuth1Endpoints
  /// Sends the requests.
  public var transport: any HTTPTransport
  /// The provider named in errors and pending logins.
  public var provider: ProviderID

  /// Creates a client from a configured signer.
  public init(
    signer: OAuth1Signer,
    transport: any HTTPTransport,
    endpoints: OAuth1Endpoints = .x,
    provider: ProviderID = .twitter
  ) {
    self.signer = signer
    self.transport = transport
    self.endpoints = endpoints
    self.provider = provider
  }

  /// Creates a client for X (or any OAuth 1.0a provider given its `endpoints`).
  ///
  /// - Parameters:
  ///   - consumerKey: the consumer (API) key.
  ///   - consumerSecret: the consumer (API key) secret.
  ///   - transport: sends the requests.
  ///   - endpoints: the provider's URLs; ``OAuth1Endpoints/x`` by default.
  ///   - provider: the provider named in errors; ``ProviderID/twitter`` by default.
  ///   - clock: gives `oauth_timestamp`, `Retry-After` and pending-login times.
  ///   - nonce: makes each `oauth_nonce`; defaults to ``OAuth1Signer/randomNonce(length:)``.
  public init(
    consumerKey: String,
    consumerSecret: Secret,
    transport: any HTTPTransport,
    endpoints: OAuth1Endpoints = .x,
    provider: ProviderID = .twitter,
    clock: any AuthClock = SystemAuthClock(),
    nonce: @escaping @Sendable () -> String = { OAuth1Signer.randomNonce() }
  ) {
    self.init(
      signer: OAuth1Signer(
        consumerKey: consumerKey, consumerSecret: consumerSecret, clock: clock, nonce: nonce),
      transport: transport, endpoints: endpoints, provider: provider)
  }

  // MARK: Step 1: request token

  /// Obtains a request token: a signed `POST` to ``OAuth1Endpoints/requestToken`` carrying
  /// `oauth_callback` in the `Authorization` header and, when given, `x_auth_access_type` in
  /// the query.
  ///
  /// - Parameters:
  ///   - callback: the redirect URL registered for the app, or `oob` for PIN-based login.
  ///   - accessType: narrows the access X grants (`read` or `write`).
  /// - Returns: the request token and its secret.
  /// - Throws: ``AuthError`` — ``AuthError/Code/invalidResponse`` when the response lacks the
  ///   token or does not say `oauth_callback_confirmed=true`; ``AuthError/Code/providerError``
  ///   (with ``AuthError/providerCode``) when X rejects the request;
  ///   ``AuthError/Code/serverUnavailable`` for 5xx and 429; transport errors and
  ///   `CancellationError` as thrown by the transport.
  public func requestToken(
    callback: String, accessType: AccessType? = nil
  ) async throws -> OAuth1RequestToken {
    guard !callback.isEmpty else {
      throw AuthError(
        .configuration, "The OAuth 1.0a callback is empty; pass the registered URL or 'oob'.",
        provider: provider)
    }
    var url = endpoints.requestToken
    if let accessType {
      url.append(queryItems: [URLQueryItem(name: "x_auth_access_type", value: accessType.rawValue)])
    }
    let request = try signer.sign(
      Self.post(url), oauthParameters: [("oauth_callback", callback)])
    let response = try await send(request, operation: "the request-token request")
    let fields = try formFields(of: response, operation: "the request-token response")
    let confirmed = fields["oauth_callback_confirmed"]
    guard confirmed == "true" else {
      let found = confirmed.map { "'\(Self.sanitize($0, secrets: []))'" } ?? "missing"
      throw AuthError(
        .invalidResponse,
        "The request-token response does not confirm the callback "
          + "(oauth_callback_confirmed is \(found), expected 'true'); the provider did not "
          + "accept the callback as OAuth 1.0a requires, so the login cannot continue safely.",
        provider: provider, httpStatus: response.status)
    }
    let (token, secret) = try tokenPair(in: fields, response: response, step: "request-token")
    return OAuth1RequestToken(token: token, secret: Secret(secret))
  }

  // MARK: Step 2: authorization

  /// The URL to open in the browser for `requestToken`.
  ///
  /// ```swift
  /// let url = try client.authorizationURL(requestToken: token.token, mode: .authorize,
  ///                                       forceLogin: true, screenName: "xapi")
  /// // https://api.x.com/oauth/authorize?oauth_token=…&force_login=true&screen_name=xapi
  /// ```
  ///
  /// - Parameters:
  ///   - requestToken: the token from ``requestToken(callback:accessType:)``.
  ///   - mode: ``AuthorizationMode/authenticate`` (default) or ``AuthorizationMode/authorize``.
  ///   - forceLogin: ask the user to enter their credentials even when signed in.
  ///   - screenName: prefill the user name field.
  /// - Throws: ``AuthError/Code/configuration`` when the endpoint URL cannot take a query.
  public func authorizationURL(
    requestToken: String,
    mode: AuthorizationMode = .authenticate,
    forceLogin: Bool = false,
    screenName: String? = nil
  ) throws(AuthError) -> URL {
    let endpoint = mode == .authenticate ? endpoints.authenticate : endpoints.authorize
    var fields = [("oauth_token", requestToken)]
    if forceLogin { fields.append(("force_login", "true")) }
    if let screenName { fields.append(("screen_name", screenName)) }
    let query = fields.map { name, value in
      Self.encodeQueryComponent(name) + "=" + Self.encodeQueryComponent(value)
    }.joined(separator: "&")
    guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true) else {
      throw AuthError(
        .configuration, "The \(mode.rawValue) endpoint is not a valid URL.", provider: provider)
    }
    let existing = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
    components.percentEncodedQuery = [existing, query].compactMap { $0 }.joined(separator: "&")
    guard let url = components.url else {
      throw AuthError(
        .configuration, "Could not build the \(mode.rawValue) URL.", provider: provider)
    }
    return url
  }

  // MARK: Step 3: callback and access token

  /// Checks the callback for the login started with `requestToken` and returns its
  /// `oauth_verifier`.
  ///
  /// - Throws: ``AuthError/Code/accessDenied`` when the callback carries `denied` (the user
  ///   cancelled); ``AuthError/Code/stateMismatch`` when `oauth_token` is missing or is not
  ///   `requestToken` (compared in constant time); ``AuthError/Code/invalidCallback`` when a
  ///   parameter is repeated or `oauth_verifier` is missing or empty. Messages never quote the
  ///   verifier.
  public func verifier(
    from callback: AuthorizationCallback, requestToken: String
  ) throws(AuthError) -> Secret {
    let denied: String?
    let token: String?
    let verifier: String?
    do {
      denied = try callback.value("denied")
      token = try callback.value("oauth_token")
      verifier = try callback.value("oauth_verifier")
    } catch let error as AuthError {
      var error = error
      error.provider = provider
      throw error
    } catch {
      throw AuthError(.invalidCallback, "The callback could not be read.", provider: provider)
    }
    if denied != nil {
      throw AuthError(
        .accessDenied, "The user declined to authorize the app (the callback carries 'denied').",
        provider: provider)
    }
    guard let token, !token.isEmpty else {
      throw AuthError(
        .stateMismatch, "The callback has no oauth_token, so it cannot be tied to this login.",
        provider: provider)
    }
    guard ConstantTime.equals(Array(token.utf8), Array(requestToken.utf8)) else {
      throw AuthError(
        .stateMismatch,
        "The callback's oauth_token is not the request token of this login; it belongs to "
          + "another login or was forged.",
        provider: provider)
    }
    guard let verifier, !verifier.isEmpty else {
      throw AuthError(
        .invalidCallback, "The callback has no oauth_verifier.", provider: provider)
    }
    return Secret(verifier)
  }

  /// Exchanges a verified request token for an access token: a `POST` to
  /// ``OAuth1Endpoints/accessToken`` signed with the request token and its secret, with
  /// `oauth_verifier` in the `Authorization` header.
  ///
  /// - Returns: the credential (token type `oauth1`, no expiry) with `user_id` and
  ///   `screen_name` when sent.
  /// - Throws: ``AuthError`` as ``requestToken(callback:accessType:)`` does, and
  ///   ``AuthError/Code/invalidResponse`` when `oauth_token` or `oauth_token_secret` is missing.
  public func accessToken(
    requestToken: String, secret: Secret, verifier: Secret
  ) async throws -> OAuth1AccessToken {
    let request = try signer.sign(
      Self.post(endpoints.accessToken), token: requestToken, tokenSecret: secret,
      oauthParameters: [("oauth_verifier", verifier.revealed)])
    let response = try await send(
      request, operation: "the access-token request", secrets: [secret, verifier])
    let fields = try formFields(of: response, operation: "the access-token response")
    let (token, tokenSecret) = try tokenPair(in: fields, response: response, step: "access-token")
    let now = signer.clock.wallTime
    let serverDate = response.serverDate
    let credential = Credential(
      accessToken: Secret(token), tokenSecret: Secret(tokenSecret), tokenType: "oauth1",
      issuedAt: serverDate ?? now,
      serverTimeOffset: serverDate.map { $0.timeIntervalSince(now) } ?? 0)
    return OAuth1AccessToken(
      credential: credential,
      userID: fields["user_id"].flatMap { $0.isEmpty ? nil : $0 },
      screenName: fields["screen_name"].flatMap { $0.isEmpty ? nil : $0 })
  }

  // MARK: Pending-login helpers

  /// Steps 1 and 2 together: obtains a request token and returns the URL to open with a
  /// ``PendingLogin`` to keep until the callback.
  ///
  /// The pending login's ``PendingLogin/state`` is the request token (it plays the role of
  /// OAuth 2 `state`: the callback must carry it back), ``PendingLogin/requestTokenSecret``
  /// its secret, and ``PendingLogin/redirectURI`` the callback.
  public func makeAuthorizationRequest(
    callback: String,
    mode: AuthorizationMode = .authenticate,
    forceLogin: Bool = false,
    screenName: String? = nil,
    accessType: AccessType? = nil,
    lifetime: TimeInterval = OAuth1Client.defaultLoginLifetime
  ) async throws -> AuthorizationRequest {
    let token = try await requestToken(callback: callback, accessType: accessType)
    let url = try authorizationURL(
      requestToken: token.token, mode: mode, forceLogin: forceLogin, screenName: screenName)
    let now = signer.clock.wallTime
    let pending = PendingLogin(
      provider: provider, state: Secret(token.token), redirectURI: callback,
      requestTokenSecret: token.secret, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
    return AuthorizationRequest(url: url, pending: pending)
  }

  /// Step 3 for a login started with
  /// ``makeAuthorizationRequest(callback:mode:forceLogin:screenName:accessType:lifetime:)``:
  /// checks that `pending` is for this provider and not expired, validates the callback with
  /// ``verifier(from:requestToken:)`` and calls ``accessToken(requestToken:secret:verifier:)``.
  ///
  /// - Throws: ``AuthError/Code/invalidCallback`` when `pending` is for another provider, has
  ///   expired or has no request token secret; otherwise as the two steps.
  public func completeAuthorization(
    _ pending: PendingLogin, callback: AuthorizationCallback
  ) async throws -> OAuth1AccessToken {
    guard pending.provider == provider else {
      throw AuthError(
        .invalidCallback,
        "The pending login is for '\(pending.provider)', not '\(provider)'.", provider: provider)
    }
    guard signer.clock.wallTime < pending.expiresAt else {
      throw AuthError(
        .invalidCallback, "The pending login expired at \(pending.expiresAt); start a new one.",
        provider: provider)
    }
    guard let secret = pending.requestTokenSecret else {
      throw AuthError(
        .invalidCallback, "The pending login has no request token secret; it is not OAuth 1.0a.",
        provider: provider)
    }
    let requestToken = pending.state.revealed
    let verifier = try verifier(from: callback, requestToken: requestToken)
    return try await accessToken(requestToken: requestToken, secret: secret, verifier: verifier)
  }

  // MARK: Signed API calls and revocation

  /// Returns `request` signed for the user holding `token` (an access token), with a fresh
  /// nonce and timestamp. Build the request completely (query, form body and its
  /// `Content-Type`) before signing it.
  ///
  /// ```swift
  /// let request = TransportRequest.form(
  ///   url: URL(string: "https://api.x.com/1.1/statuses/update.json")!,
  ///   fields: [("status", "Hello!")])
  /// let response = try await transport.send(
  ///   try client.sign(request, token: credential.accessToken, tokenSecret: secret))
  /// ```
  ///
  /// - Throws: ``AuthError/Code/configuration`` when the URL has no scheme or host or the form
  ///   body is not UTF-8.
  public func sign(
    _ request: TransportRequest, token: Secret, tokenSecret: Secret
  ) throws(AuthError) -> TransportRequest {
    try signer.sign(request, token: token.revealed, tokenSecret: tokenSecret)
  }

  /// Returns `request` signed with `credential`'s access token and token secret.
  ///
  /// - Throws: ``AuthError/Code/configuration`` when the credential has no token secret (it is
  ///   not an OAuth 1.0a credential), and as ``sign(_:token:tokenSecret:)``.
  public func sign(
    _ request: TransportRequest, credential: Credential
  ) throws(AuthError) -> TransportRequest {
    guard let tokenSecret = credential.tokenSecret else {
      throw AuthError(
        .configuration,
        "The credential has no token secret, so it cannot sign OAuth 1.0a requests.",
        provider: provider)
    }
    return try sign(request, token: credential.accessToken, tokenSecret: tokenSecret)
  }

  /// Revokes an access token: a `POST` to ``OAuth1Endpoints/invalidateToken`` signed with that
  /// token. X answers `{"access_token":"…"}`; any 2xx counts as success.
  ///
  /// - Throws: ``AuthError/Code/providerError`` with ``AuthError/providerCode`` `89` when the
  ///   token was already invalid, ``AuthError/Code/serverUnavailable`` for 5xx and 429, and
  ///   transport errors.
  public func invalidateToken(_ token: Secret, tokenSecret: Secret) async throws {
    let request = try sign(
      Self.post(endpoints.invalidateToken), token: token, tokenSecret: tokenSecret)
    _ = try await send(request, operation: "the token invalidation", secrets: [tokenSecret, token])
  }

  /// Revokes `credential`'s access token; see ``invalidateToken(_:tokenSecret:)``.
  public func invalidateToken(_ credential: Credential) async throws {
    guard let tokenSecret = credential.tokenSecret else {
      throw AuthError(
        .configuration, "The credential has no token secret; it is not an OAuth 1.0a credential.",
        provider: provider)
    }
    try await invalidateToken(credential.accessToken, tokenSecret: tokenSecret)
  }

  // MARK: Internals

  private static func post(_ url: URL) -> TransportRequest {
    TransportRequest(method: "POST", url: url, headers: ["Accept": "*/*"])
  }

  /// RFC 3986 encoding for query values (so `+` in a screen name is not read as a space).
  private static func encodeQueryComponent(_ value: String) -> String {
    FormEncoding.percentEncodeRFC3986(value)
  }

  private func tokenPair(
    in fields: [String: String], response: TransportResponse, step: String
  ) throws(AuthError) -> (token: String, secret: String) {
    guard let token = fields["oauth_token"], !token.isEmpty,
      let secret = fields["oauth_token_secret"], !secret.isEmpty
    else {
      let names = fields.keys.sorted().joined(separator: ", ")
      throw AuthError(
        .invalidResponse,
        "The \(step) response lacks oauth_token or oauth_token_secret "
          + "(fields present: \(names.isEmpty ? "none" : names)).",
        provider: provider, httpStatus: response.status)
    }
    return (token, secret)
  }
}
