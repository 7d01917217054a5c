import Foundation
import LoopbackHTTP
import SocialLogin

/// LINE Login v2.1 (providers.md §3 and §7): authorize with required `state`, token with the
/// channel secret and optional PKCE, ID tokens HS256 with the channel secret (web login) or
/// ES256 with `kid` (native), a refresh that echoes the refresh token and never extends it
/// (90 days from the first issue), access-token and ID-token verify, profile, revoke (empty
/// 200), both error shapes.
struct EmulatedLINE: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.line
  static let issuer = "https://access.line.me"

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  var routes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["GET"], "access.line.me", "/oauth2/v2.1/authorize", endpoint: "authorize", authorize),
      EmulatorRoute(
        ["GET"], "access.line.me", "/.well-known/openid-configuration", endpoint: "discovery",
        discovery),
      EmulatorRoute(["POST"], "api.line.me", "/oauth2/v2.1/token", endpoint: "token", token),
      EmulatorRoute(
        ["POST"], "api.line.me", "/oauth2/v3/token", endpoint: "channel_token", channelToken),
      EmulatorRoute(
        ["GET"], "api.line.me", "/oauth2/v2.1/verify", endpoint: "verify", verifyAccessToken),
      EmulatorRoute(
        ["POST"], "api.line.me", "/oauth2/v2.1/verify", endpoint: "verify", verifyIDToken),
      EmulatorRoute(["POST"], "api.line.me", "/oauth2/v2.1/revoke", endpoint: "revoke", revoke),
      EmulatorRoute(["GET"], "api.line.me", "/v2/profile", endpoint: "profile", profile),
      EmulatorRoute(
        ["GET"], "api.line.me", "/oauth2/v2.1/userinfo", endpoint: "userinfo", userinfo),
      EmulatorRoute(["GET"], "api.line.me", "/oauth2/v2.1/certs", endpoint: "jwks", certs),
    ]
  }

  var status: JSONValue {
    [
      "name": "line", "hosts": ["access.line.me", "api.line.me"],
      "channel_id": .string(EmulatorApps.lineChannelID),
    ]
  }

  // MARK: Errors

  static func message(_ text: String, status: Int) -> HTTPResponse {
    EmulatorJSON.response(["message": .string(text)], status: status)
  }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    guard !request.path.hasPrefix("/oauth2/") else {
      return oauthFault(status: status, fault: fault)
    }
    return withRetryAfter(
      Self.message(HTTPResponse.standardReason(for: status), status: status), status: status,
      fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.oauthError(
      "invalid_grant", reason == .expired ? "refresh token expired" : "invalid refresh token")
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    switch endpoint {
    case "token": Self.oauthError("invalid_grant", "user is not active")
    case "verify": Self.oauthError("invalid_request", "access token expired")
    default: Self.message("The user account is not active", status: 403)
    }
  }

  // MARK: Authorize

  func authorize(_ request: EmulatorRequest) -> HTTPResponse {
    guard request.query("client_id") == EmulatorApps.lineChannelID else {
      return EmulatorJSON.page(title: "LINE Login", "400 Bad Request: invalid client_id")
    }
    guard let redirectURI = request.query("redirect_uri"),
      EmulatorAuthorization.isRedirectable(redirectURI)
    else { return EmulatorJSON.page(title: "LINE Login", "400 Bad Request: invalid redirect_uri") }
    guard let state = request.query("state"), !state.isEmpty else {
      return EmulatorJSON.redirect(
        to: redirectURI,
        [("error", "INVALID_REQUEST"), ("error_description", "'state' is not specified")])
    }
    func fail(_ error: String, _ description: String) -> HTTPResponse {
      EmulatorJSON.redirect(
        to: redirectURI, [("error", error), ("error_description", description), ("state", state)])
    }
    if let repeated = request.repeatedParameter {
      return fail("INVALID_REQUEST", "'\(repeated)' is repeated")
    }
    guard request.query("response_type") == "code" else {
      return fail("UNSUPPORTED_RESPONSE_TYPE", "'response_type' must be 'code'")
    }
    let scopes = (request.query("scope") ?? "").split(separator: " ").map(String.init)
    let known: Set<String> = ["profile", "openid", "email"]
    guard !scopes.isEmpty, scopes.allSatisfy(known.contains),
      !scopes.contains("email") || scopes.contains("openid")
    else { return fail("INVALID_SCOPE", "invalid scope") }
    let challenge = request.query("code_challenge")
    if challenge != nil, request.query("code_challenge_method") != "S256" {
      return fail("INVALID_REQUEST", "'code_challenge_method' must be 'S256'")
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "LINE channel")
    {
    case .page(let page): return page
    case .deny:
      return fail("access_denied", "The resource owner denied the request.")
    case .approve(let user):
      let code = environment.issueAuthorizationCode(
        prefix: "linecode-", byteCount: 15, provider: name, clientID: EmulatorApps.lineChannelID,
        userID: user.id, scopes: scopes, request: request, redirectURI: redirectURI,
        challenge: challenge, challengeMethod: challenge == nil ? nil : "S256",
        nonce: request.query("nonce"))
      if request.query("id_token_key_type") == "JWK" {
        environment.tokens.update(code) { $0?.extra["id_token_key_type"] = "JWK" }
      }
      var parameters = [("code", code), ("state", state)]
      if request.query("bot_prompt") != nil {
        parameters.append(("friendship_status_changed", "false"))
      }
      return EmulatorJSON.redirect(to: redirectURI, parameters)
    }
  }

  func discovery(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response([
      "issuer": .string(Self.issuer),
      "authorization_endpoint": "https://access.line.me/oauth2/v2.1/authorize",
      "token_endpoint": "https://api.line.me/oauth2/v2.1/token",
      "revocation_endpoint": "https://api.line.me/oauth2/v2.1/revoke",
      "userinfo_endpoint": "https://api.line.me/oauth2/v2.1/userinfo",
      "jwks_uri": "https://api.line.me/oauth2/v2.1/certs",
      "response_types_supported": ["code"], "subject_types_supported": ["pairwise"],
      "id_token_signing_alg_values_supported": ["ES256"],
      "code_challenge_methods_supported": ["S256"],
    ])
  }

  // MARK: Token

  private func checkClient(_ request: EmulatorRequest, secretRequired: Bool) -> HTTPResponse? {
    guard request.form("client_id") == EmulatorApps.lineChannelID else {
      return Self.oauthError("invalid_client", "invalid client_id")
    }
    let secret = request.form("client_secret")
    if secret == nil && !secretRequired { return nil }
    guard secret == EmulatorApps.lineChannelSecret else {
      return Self.oauthError("invalid_client", "invalid client_secret")
    }
    return nil
  }

  func token(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "invalid request body")
    }
    switch request.form("grant_type") {
    case "authorization_code":
      if let error = checkClient(request, secretRequired: true) { return error }
      return exchangeCode(request)
    case "refresh_token":
      // §7: the secret is required for web-app channels, which the default channel is.
      if let error = checkClient(request, secretRequired: true) { return error }
      return refresh(request)
    case nil: return Self.oauthError("invalid_request", "'grant_type' is not specified")
    default: return Self.oauthError("unsupported_grant_type", "unsupported grant_type")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest) -> HTTPResponse {
    guard let code = request.form("code") else {
      return Self.oauthError("invalid_request", "'code' is not specified")
    }
    guard
      case .redeemed(let issued) = environment.tokens.redeemCode(
        code, provider: name, now: request.now)
    else { return Self.oauthError("invalid_grant", "invalid authorization code") }
    guard request.form("redirect_uri") == issued.extra["redirect_uri"] else {
      return Self.oauthError("invalid_grant", "redirect_uri does not match")
    }
    guard
      EmulatorAuthorization.pkceMatches(
        challenge: issued.extra["code_challenge"], method: issued.extra["code_challenge_method"],
        verifier: request.form("code_verifier"))
    else { return Self.oauthError("invalid_grant", "invalid code_verifier") }
    guard let user = environment.user(issued.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    let now = request.now
    // `id_token_key_type=JWK` (on the authorization or the token request) asks for ES256.
    let wantsJWK =
      request.form("id_token_key_type") == "JWK" || issued.extra["id_token_key_type"] == "JWK"
    let lifetimes = environment.lifetimes(for: name)
    let access = issueAccessToken(
      user: user, scopes: issued.scopes, grantID: issued.grantID, now: now)
    let refresh = TokenRegistry.makeValue(prefix: "linert-", byteCount: 15)
    environment.tokens.insert(
      IssuedToken(
        value: refresh, kind: .refresh, provider: name, clientID: EmulatorApps.lineChannelID,
        userID: user.id, scopes: issued.scopes, issuedAt: now,
        expiresAt: lifetimes.refreshToken.map { now.addingTimeInterval($0) },
        grantID: issued.grantID))
    var body: [String: JSONValue] = [
      "access_token": .string(access), "expires_in": EmulatorJSON.number(lifetimes.accessToken),
      "refresh_token": .string(refresh), "scope": .string(issued.scopes.joined(separator: " ")),
      "token_type": "Bearer",
    ]
    if issued.scopes.contains("openid") {
      do {
        body["id_token"] = .string(
          try makeIDToken(
            user: user, scopes: issued.scopes, nonce: issued.extra["nonce"], now: now,
            es256: wantsJWK ? true : nil))
      } catch {
        return Self.oauthError(
          "server_error", "the emulator cannot sign ID tokens: \(error)", status: 500)
      }
    }
    return EmulatorJSON.response(.object(body))
  }

  private func issueAccessToken(user: EmulatedUser, scopes: [String], grantID: String, now: Date)
    -> String
  {
    let access = TokenRegistry.makeValue(prefix: "lineat-", byteCount: 30)
    environment.tokens.insert(
      IssuedToken(
        value: access, kind: .access, provider: name, clientID: EmulatorApps.lineChannelID,
        userID: user.id, scopes: scopes, issuedAt: now,
        expiresAt: now.addingTimeInterval(environment.lifetimes(for: name).accessToken),
        grantID: grantID))
    return access
  }

  /// An ID token as LINE issues it: `iss`, `sub`, `aud`, `exp`, `iat`, `nonce`, `amr`, `name`,
  /// `picture`, and `email` with the `email` scope. Signed ES256 or HS256 (`es256`), by
  /// default as the emulator's setting says.
  func makeIDToken(
    user: EmulatedUser, scopes: [String], nonce: String?, now: Date, es256: Bool? = nil
  ) throws -> String {
    let iat = now.timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(Self.issuer), "sub": .string(user.subject(at: name)),
      "aud": .string(EmulatorApps.lineChannelID),
      "exp": .number(iat + environment.lifetimes(for: name).idToken), "iat": .number(iat),
      "auth_time": .number(iat), "amr": ["linesso"], "name": .string(user.name),
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    if let picture = user.picture { claims["picture"] = .string(picture) }
    if scopes.contains("email"), let email = user.email { claims["email"] = .string(email) }
    let signing: EmulatorSigning =
      (es256 ?? environment.lineSignsWithES256)
      ? .es256 : .hs256(secret: EmulatorApps.lineChannelSecret)
    let token = try environment.keys.jwt(claims, signing: signing)
    environment.tokens.insert(
      IssuedToken(
        value: token, kind: .idToken, provider: name, clientID: EmulatorApps.lineChannelID,
        userID: user.id, scopes: scopes, issuedAt: now,
        expiresAt: Date(timeIntervalSince1970: iat + environment.lifetimes(for: name).idToken),
        grantID: "", extra: nonce.map { ["nonce": $0] } ?? [:]))
    return token
  }

  private func refresh(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return Self.oauthError("invalid_request", "'refresh_token' is not specified")
    }
    guard let token = environment.tokens.lookup(value), token.kind == .refresh,
      token.provider == name
    else { return Self.oauthError("invalid_grant", "invalid refresh token") }
    guard token.isLive(at: request.now) else {
      return Self.oauthError(
        "invalid_grant", token.revoked ? "invalid refresh token" : "refresh token expired")
    }
    guard let user = environment.user(token.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    let lifetimes = environment.lifetimes(for: name)
    let access = issueAccessToken(
      user: user, scopes: token.scopes, grantID: token.grantID, now: request.now)
    return EmulatorJSON.response([
      "access_token": .string(access), "expires_in": EmulatorJSON.number(lifetimes.accessToken),
      "refresh_token": .string(value), "scope": .string(token.scopes.joined(separator: " ")),
      "token_type": "Bearer",
    ])
  }

  // MARK: Verify, profile, revoke

  private func liveAccessToken(_ value: String?, now: Date) -> IssuedToken? {
    guard let value, let token = environment.tokens.lookup(value), token.kind == .access,
      token.provider == name, token.isLive(at: now)
    else { return nil }
    return token
  }

  func verifyAccessToken(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.query("access_token") else {
      return Self.oauthError("invalid_request", "access_token is required")
    }
    guard let token = liveAccessToken(value, now: request.now) else {
      return Self.oauthError("invalid_request", "access token expired")
    }
    if environment.user(token.userID)?.isDisabled ?? true {
      return accountDisabled(endpoint: "verify", request: request)
    }
    let remaining = (token.expiresAt ?? request.now).timeIntervalSince(request.now)
    return EmulatorJSON.response([
      "scope": .string(token.scopes.joined(separator: " ")), "client_id": .string(token.clientID),
      "expires_in": EmulatorJSON.number(max(0, remaining)),
    ])
  }

  func verifyIDToken(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, let value = request.form("id_token"),
      let clientID = request.form("client_id")
    else { return Self.oauthError("invalid_request", "id_token and client_id are required") }
    guard let token = environment.tokens.lookup(value), token.kind == .idToken,
      token.provider == name, !token.revoked
    else { return Self.oauthError("invalid_request", "Invalid IdToken.") }
    guard token.isLive(at: request.now) else {
      return Self.oauthError("invalid_request", "IdToken expired.")
    }
    guard clientID == token.clientID else {
      return Self.oauthError("invalid_request", "Invalid IdToken Audience.")
    }
    if let nonce = request.form("nonce"), nonce != token.extra["nonce"] {
      return Self.oauthError("invalid_request", "Invalid IdToken Nonce.")
    }
    guard let user = environment.user(token.userID) else {
      return Self.oauthError("invalid_request", "Invalid IdToken.")
    }
    if let userID = request.form("user_id"), userID != user.subject(at: name) {
      return Self.oauthError("invalid_request", "Invalid IdToken Subject Identifier.")
    }
    let claims = (try? EmulatorKeys.claims(of: value)) ?? [:]
    return EmulatorJSON.response(.object(claims))
  }

  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.oauthError("invalid_request", "invalid request body")
    }
    if let error = checkClient(request, secretRequired: false) { return error }
    guard let value = request.form("access_token") else {
      return Self.oauthError("invalid_request", "access_token is required")
    }
    if let token = environment.tokens.lookup(value), token.provider == name {
      environment.tokens.revokeGrant(token.grantID)
    }
    return HTTPResponse(status: 200)
  }

  private func bearerUser(_ request: EmulatorRequest) -> Result<
    (EmulatedUser, IssuedToken), ErrorResponse
  > {
    guard let token = liveAccessToken(request.bearerToken, now: request.now),
      let user = environment.user(token.userID)
    else {
      return .failure(ErrorResponse(Self.message("The access token expired", status: 401)))
    }
    guard !user.isDisabled else {
      return .failure(ErrorResponse(accountDisabled(endpoint: "profile", request: request)))
    }
    return .success((user, token))
  }

  func profile(_ request: EmulatorRequest) -> HTTPResponse {
    switch bearerUser(request) {
    case .failure(let error): return error.response
    case .success(let (user, _)):
      var body: [String: JSONValue] = [
        "userId": .string(user.subject(at: name)), "displayName": .string(user.name),
        "statusMessage": "Hello from the emulator",
      ]
      if let picture = user.picture { body["pictureUrl"] = .string(picture) }
      return EmulatorJSON.response(.object(body))
    }
  }

  func userinfo(_ request: EmulatorRequest) -> HTTPResponse {
    switch bearerUser(request) {
    case .failure(let error): return error.response
    case .success(let (user, _)):
      var body: [String: JSONValue] = [
        "sub": .string(user.subject(at: name)), "name": .string(user.name),
      ]
      if let picture = user.picture { body["picture"] = .string(picture) }
      return EmulatorJSON.response(.object(body))
    }
  }

  func certs(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(environment.keys.jwks([.es256]))
  }
}
