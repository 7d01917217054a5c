import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// A generic OpenID Connect provider under `/oidc` (OIDC Core, RFC 6749, 7636, 7009, 7662):
/// discovery, authorize with PKCE and nonce, token with Basic or post client authentication,
/// ES256 (or RS256) ID tokens with `at_hash`, rotating refresh tokens, userinfo, JWKS,
/// introspection and revocation. Its issuer is `http://HOST:PORT/oidc`.
struct EmulatedOIDC: EmulatedProvider {
  let environment: EmulatorEnvironment
  /// The generic provider's id in faults, transcripts and `/_emulator/` requests: `oidc`.
  /// An emulator-local name, unlike the SDK's `ProviderID.oidc(issuer:)`, which names a
  /// client's provider by its issuer.
  static let id: ProviderID = "oidc"
  let name = EmulatedOIDC.id

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  var issuer: String { environment.baseURL + "/oidc" }

  var routes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["GET"], "oidc", "/.well-known/openid-configuration", endpoint: "discovery", discovery),
      EmulatorRoute(["GET"], "oidc", "/authorize", endpoint: "authorize", authorize),
      EmulatorRoute(["POST"], "oidc", "/token", endpoint: "token", token),
      EmulatorRoute(["GET", "POST"], "oidc", "/userinfo", endpoint: "userinfo", userinfo),
      EmulatorRoute(["GET"], "oidc", "/jwks", endpoint: "jwks", jwks),
      EmulatorRoute(["POST"], "oidc", "/introspect", endpoint: "introspection", introspect),
      EmulatorRoute(["POST"], "oidc", "/revoke", endpoint: "revocation", revoke),
    ] + deviceRoutes
  }

  var status: JSONValue {
    ["name": "oidc", "issuer": .string(issuer), "client_id": .string(EmulatorApps.oidcClientID)]
  }

  func usesRS256(endpoint: String) -> Bool {
    environment.oidcSignsWithRS256 && (endpoint == "token" || endpoint == "jwks")
  }

  /// The OAuth 2.0 error body; a 401 carries `WWW-Authenticate`.
  static func oauthError(_ error: String, _ description: String, status: Int = 400)
    -> HTTPResponse
  {
    var response = EmulatorJSON.response(
      ["error": .string(error), "error_description": .string(description)], status: status)
    if status == 401 {
      response.headers.add(name: "WWW-Authenticate", value: "Basic realm=\"oidc\"")
    }
    return response
  }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    deviceFault(status: status, fault: fault) ?? oauthFault(status: status, fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.oauthError(
      "invalid_grant",
      reason == .expired ? "The refresh token expired." : "The refresh token was revoked.")
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    endpoint == "userinfo"
      ? Self.bearerError("invalid_token", "The account is disabled.")
      : Self.oauthError("invalid_grant", "The account is disabled.")
  }

  static func bearerError(_ error: String, _ description: String) -> HTTPResponse {
    var response = EmulatorJSON.response(
      ["error": .string(error), "error_description": .string(description)], status: 401)
    response.headers.add(name: "WWW-Authenticate", value: "Bearer error=\"\(error)\"")
    return response
  }

  func discovery(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response([
      "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
      "token_endpoint": .string(issuer + "/token"),
      "userinfo_endpoint": .string(issuer + "/userinfo"),
      "jwks_uri": .string(issuer + "/jwks"),
      "introspection_endpoint": .string(issuer + "/introspect"),
      "revocation_endpoint": .string(issuer + "/revoke"),
      "device_authorization_endpoint": .string(issuer + "/device_authorization"),
      "response_types_supported": ["code"], "subject_types_supported": ["public"],
      "id_token_signing_alg_values_supported": environment.oidcSignsWithRS256
        ? ["RS256"] : ["ES256"],
      "code_challenge_methods_supported": ["S256", "plain"],
      "grant_types_supported": [
        "authorization_code", "refresh_token", .string(Self.deviceGrantType),
      ],
      "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
      "scopes_supported": ["openid", "profile", "email", "offline_access"],
      "authorization_response_iss_parameter_supported": true,
    ])
  }

  func authorize(_ request: EmulatorRequest) -> HTTPResponse {
    guard request.query("client_id") == EmulatorApps.oidcClientID else {
      return EmulatorJSON.page(title: "OpenID Provider", "Unknown client_id.")
    }
    let read: EmulatorCodeRequest
    switch EmulatorCodeRequest.read(
      request,
      invalidRedirect: EmulatorJSON.page(title: "OpenID Provider", "Invalid redirect_uri."),
      extraTail: [("iss", issuer)], unsupportedResponseType: "Only the code flow is supported.")
    {
    case .answer(let answer): return answer
    case .request(let request): read = request
    }
    let scopes = (request.query("scope") ?? "").split(separator: " ").map(String.init)
    guard scopes.contains("openid") else {
      return read.fail("invalid_scope", "openid is required.")
    }
    if let problem = read.pkceProblem(
      allowed: ["S256", "plain"], message: "Unsupported code_challenge_method.")
    {
      return problem
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "OIDC client") {
    case .page(let page): return page
    case .deny: return read.fail("access_denied", "The user denied the request.")
    case .approve(let user):
      let code = environment.issueAuthorizationCode(
        prefix: "oidccode-", provider: name, clientID: EmulatorApps.oidcClientID,
        userID: user.id, scopes: scopes, request: request, redirectURI: read.redirectURI,
        challenge: read.challenge, challengeMethod: read.method, nonce: request.query("nonce"))
      return EmulatorJSON.redirect(to: read.redirectURI, [("code", code)] + read.tail)
    }
  }

  /// Basic (client_secret_basic) or form (client_secret_post) authentication, not both.
  func authenticateClient(_ request: EmulatorRequest) -> HTTPResponse? { authenticate(request) }

  /// Basic (client_secret_basic) or form (client_secret_post) authentication, not both.
  private func authenticate(_ request: EmulatorRequest) -> HTTPResponse? {
    let basic = request.basicCredentials
    let posted = request.form("client_secret")
    if basic != nil && posted != nil {
      return Self.oauthError("invalid_request", "Use one client authentication method.")
    }
    let id = basic?.id ?? request.form("client_id")
    let secret = basic?.secret ?? posted
    guard id == EmulatorApps.oidcClientID, let secret,
      ConstantTime.equals(Array(secret.utf8), Array(EmulatorApps.oidcClientSecret.utf8))
    else { return Self.oauthError("invalid_client", "Client authentication failed.", status: 401) }
    if let bodyID = request.form("client_id"), bodyID != id {
      return Self.oauthError("invalid_request", "client_id does not match the credentials.")
    }
    return nil
  }

  func token(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "The request body is not a valid form.")
    }
    // Device clients may be public: the device grant checks its client itself.
    if request.form("grant_type") == Self.deviceGrantType { return deviceToken(request) }
    if let error = authenticate(request) { return error }
    switch request.form("grant_type") {
    case "authorization_code": return exchangeCode(request)
    case "refresh_token": return refresh(request)
    case nil: return Self.oauthError("invalid_request", "grant_type is required.")
    default: return Self.oauthError("unsupported_grant_type", "Unsupported grant_type.")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest) -> HTTPResponse {
    switch environment.redeemCodeGrant(request, provider: name) {
    case .success(let found):
      return issueTokens(
        user: found.user, scopes: found.code.scopes, grantID: found.code.grantID,
        nonce: found.code.extra["nonce"], now: request.now, withIDToken: true)
    case .failure(.missingCode): return Self.oauthError("invalid_request", "code is required.")
    case .failure(.alreadyUsed):
      return Self.oauthError("invalid_grant", "The code was already used.")
    case .failure(.expired): return Self.oauthError("invalid_grant", "The code expired.")
    case .failure(.redirectMismatch):
      return Self.oauthError(
        "invalid_grant", "redirect_uri does not match the authorization request.")
    case .failure(.pkceMismatch):
      return Self.oauthError("invalid_grant", "PKCE verification failed.")
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure: return Self.oauthError("invalid_grant", "Unknown code.")
    }
  }

  private func refresh(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return Self.oauthError("invalid_request", "refresh_token is required.")
    }
    let now = request.now
    let spent: IssuedToken? = environment.tokens.update(value) { token in
      guard let current = token, current.kind == .refresh, current.provider == name,
        current.isLive(at: now)
      else { return nil }
      token?.spent = true
      return current
    }
    guard let spent else {
      return Self.oauthError("invalid_grant", "The refresh token is invalid.")
    }
    guard let user = environment.user(spent.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    return issueTokens(
      user: user, scopes: spent.scopes, grantID: spent.grantID, nonce: nil, now: now,
      withIDToken: true)
  }

  func issueTokens(
    user: EmulatedUser, scopes: [String], grantID: String, nonce: String?, now: Date,
    withIDToken: Bool
  ) -> HTTPResponse {
    let lifetimes = environment.lifetimes(for: name)
    let access = environment.issueToken(
      .access, prefix: "oidcat-", provider: name, clientID: EmulatorApps.oidcClientID,
      user: user, scopes: scopes, grantID: grantID, now: now, lifetime: lifetimes.accessToken)
    let refresh = environment.issueToken(
      .refresh, prefix: "oidcrt-", provider: name, clientID: EmulatorApps.oidcClientID,
      user: user, scopes: scopes, grantID: grantID, now: now, lifetime: lifetimes.refreshToken)
    var body: [String: JSONValue] = [
      "access_token": .string(access), "token_type": "Bearer",
      "expires_in": EmulatorJSON.number(lifetimes.accessToken), "refresh_token": .string(refresh),
      "scope": .string(scopes.joined(separator: " ")),
    ]
    if withIDToken {
      do {
        body["id_token"] = .string(
          try idToken(user: user, scopes: scopes, nonce: nonce, accessToken: access, now: now))
      } catch {
        return Self.oauthError(
          "server_error", "The emulator cannot sign ID tokens: \(error)", status: 500)
      }
    }
    return EmulatorJSON.response(.object(body))
  }

  private func idToken(
    user: EmulatedUser, scopes: [String], nonce: String?, accessToken: String, now: Date
  ) throws -> String {
    let iat = now.timeIntervalSince1970.rounded(.down)
    var claims = openIDClaims(of: user, scopes: scopes)
    claims["iss"] = .string(issuer)
    claims["aud"] = .string(EmulatorApps.oidcClientID)
    claims["iat"] = .number(iat)
    claims["auth_time"] = .number(iat)
    claims["exp"] = .number(iat + environment.lifetimes(for: name).idToken)
    claims["at_hash"] = .string(emulatorAccessTokenHash(accessToken))
    if let nonce { claims["nonce"] = .string(nonce) }
    return try environment.keys.jwt(
      claims, signing: environment.oidcSignsWithRS256 ? .rs256 : .es256)
  }

  func userinfo(_ request: EmulatorRequest) -> HTTPResponse {
    guard
      let token = environment.tokens.live(
        request.bearerToken, kind: .access, provider: name, at: request.now),
      let user = environment.user(token.userID)
    else { return Self.bearerError("invalid_token", "The access token is invalid or expired.") }
    guard !user.isDisabled else { return accountDisabled(endpoint: "userinfo", request: request) }
    return EmulatorJSON.response(.object(openIDClaims(of: user, scopes: token.scopes)))
  }

  /// The user's claims for `scopes`, with `preferred_username` (the emulator's user id) when
  /// `profile` is granted: what ID tokens and userinfo both carry.
  private func openIDClaims(of user: EmulatedUser, scopes: [String]) -> [String: JSONValue] {
    var claims = user.openIDClaims(at: name, scopes: scopes)
    if scopes.contains("profile") { claims["preferred_username"] = .string(user.id) }
    return claims
  }

  func jwks(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(
      environment.keys.jwks(environment.oidcSignsWithRS256 ? [.rs256] : [.es256]))
  }

  func introspect(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.oauthError("invalid_request", "The request body is not a valid form.")
    }
    if let error = authenticate(request) { return error }
    guard let value = request.form("token") else {
      return Self.oauthError("invalid_request", "token is required.")
    }
    guard let token = environment.tokens.lookup(value), token.provider == name,
      token.kind == .access || token.kind == .refresh, token.isLive(at: request.now),
      let user = environment.user(token.userID)
    else { return EmulatorJSON.response(["active": false]) }
    var body: [String: JSONValue] = [
      "active": true, "scope": .string(token.scopes.joined(separator: " ")),
      "client_id": .string(token.clientID), "username": .string(user.id),
      "token_type": token.kind == .access ? "Bearer" : "refresh_token",
      "iat": .number(token.issuedAt.timeIntervalSince1970.rounded(.down)),
      "sub": .string(user.subject(at: name)), "aud": .string(token.clientID),
      "iss": .string(issuer),
    ]
    if let expiry = token.expiresAt {
      body["exp"] = .number(expiry.timeIntervalSince1970.rounded(.down))
    }
    return EmulatorJSON.response(.object(body))
  }

  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.oauthError("invalid_request", "The request body is not a valid form.")
    }
    if let error = authenticate(request) { return error }
    guard let value = request.form("token") else {
      return Self.oauthError("invalid_request", "token is required.")
    }
    if let token = environment.tokens.lookup(value), token.provider == name {
      if token.kind == .refresh {
        environment.tokens.revokeGrant(token.grantID)
      } else {
        environment.tokens.update(value) { $0?.revoked = true }
      }
    }
    return HTTPResponse(status: 200)
  }
}
