import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Google's OpenID Connect service under its production hosts: discovery and authorize at
/// `accounts.google.com`, token and revoke at `oauth2.googleapis.com`, the JWKS at
/// `www.googleapis.com/oauth2/v3/certs`, userinfo at `openidconnect.googleapis.com`.
///
/// As Google does: RS256 ID tokens with `iss` `https://accounts.google.com`, `azp`, `hd` (the
/// domain of the user's email address, for Workspace-like accounts), boolean
/// `email_verified`; a refresh token only for `access_type=offline` with `prompt=consent`
/// (the emulator treats every login as a returning user's); refresh answers without a
/// refresh token (no rotation); `invalid_grant` "Token has been expired or revoked." for a
/// dead one; revocation of the whole grant, and `400 invalid_token` for a token already
/// revoked.
struct EmulatedGoogle: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.google

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  static let issuer = "https://accounts.google.com"
  /// Email domains of consumer accounts, whose ID tokens carry no `hd`.
  static let consumerDomains: Set<String> = ["gmail.com", "googlemail.com"]

  var routes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["GET"], "accounts.google.com", "/.well-known/openid-configuration",
        endpoint: "discovery", discovery),
      EmulatorRoute(
        ["GET"], "accounts.google.com", "/.well-known/risc-configuration",
        endpoint: "risc-configuration", riscConfiguration),
      EmulatorRoute(
        ["GET"], "accounts.google.com", "/o/oauth2/v2/auth", endpoint: "authorize", authorize),
      EmulatorRoute(["POST"], "oauth2.googleapis.com", "/token", endpoint: "token", token),
      EmulatorRoute(
        ["GET", "POST"], "oauth2.googleapis.com", "/revoke", endpoint: "revoke", revoke),
      EmulatorRoute(["GET"], "www.googleapis.com", "/oauth2/v3/certs", endpoint: "keys", keys),
      EmulatorRoute(
        ["GET", "POST"], "openidconnect.googleapis.com", "/v1/userinfo", endpoint: "userinfo",
        userinfo),
    ] + deviceRoutes
  }

  var status: JSONValue {
    [
      "name": "google", "issuer": .string(Self.issuer),
      "client_id": .string(EmulatorApps.googleClientID),
    ]
  }

  func usesRS256(endpoint: String) -> Bool { endpoint == "token" || endpoint == "keys" }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    oauthFault(status: status, fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.oauthError("invalid_grant", "Token has been expired or revoked.")
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    endpoint == "userinfo"
      ? Self.bearerError("The account is disabled.")
      : Self.oauthError("invalid_grant", "Account has been disabled.")
  }

  /// Userinfo's 401, with `WWW-Authenticate: Bearer`.
  static func bearerError(_ description: String) -> HTTPResponse {
    var response = EmulatorJSON.response(
      ["error": "invalid_request", "error_description": .string(description)], status: 401)
    response.headers.add(name: "WWW-Authenticate", value: "Bearer error=\"invalid_token\"")
    return response
  }

  /// The issuer of Google's RISC events: with a trailing slash, unlike its ID tokens'.
  static let riscIssuer = issuer + "/"

  /// Google's RISC configuration: the issuer its Security Event Tokens carry (with the
  /// trailing slash, as Google's) and where their keys are — the ID-token JWKS, here on the
  /// emulator, so that a receiver pointed at the emulator finds them there.
  func riscConfiguration(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response([
      "issuer": .string(Self.riscIssuer),
      "jwks_uri": .string(environment.baseURL + "/www.googleapis.com/oauth2/v3/certs"),
      "delivery_methods_supported": [
        "https://schemas.openid.net/secevent/risc/delivery-method/push"
      ],
    ])
  }

  func discovery(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response([
      "issuer": .string(Self.issuer),
      "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
      "token_endpoint": "https://oauth2.googleapis.com/token",
      "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
      "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
      "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs",
      "response_types_supported": ["code", "token", "id_token", "code id_token"],
      "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
      "scopes_supported": ["openid", "email", "profile"],
      "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
      "claims_supported": [
        "aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss",
        "name", "picture", "sub",
      ],
      "code_challenge_methods_supported": ["plain", "S256"],
      "grant_types_supported": [
        "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
        "urn:ietf:params:oauth:grant-type:jwt-bearer",
      ],
    ])
  }

  func authorize(_ request: EmulatorRequest) -> HTTPResponse {
    guard request.query("client_id") == EmulatorApps.googleClientID else {
      return EmulatorJSON.page(
        title: "Google", "Error 401: invalid_client. The OAuth client was not found.")
    }
    let read: EmulatorCodeRequest
    switch EmulatorCodeRequest.read(
      request,
      invalidRedirect: EmulatorJSON.page(title: "Google", "Error 400: redirect_uri_mismatch"),
      unsupportedResponseType: "Only the code flow is emulated.")
    {
    case .answer(let answer): return answer
    case .request(let request): read = request
    }
    let scopes = (request.query("scope") ?? "").split(separator: " ").map(String.init)
    guard !scopes.isEmpty else {
      return read.fail("invalid_request", "Missing required parameter: scope")
    }
    if let problem = read.pkceProblem(
      allowed: ["S256", "plain"], message: "Invalid code_challenge_method.")
    {
      return problem
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "Google client")
    {
    case .page(let page): return page
    case .deny: return read.fail("access_denied", "The user denied the request.")
    case .approve(let user):
      let code = environment.issueAuthorizationCode(
        prefix: "4/0A", provider: name, clientID: EmulatorApps.googleClientID,
        userID: user.id, scopes: scopes, request: request, redirectURI: read.redirectURI,
        challenge: read.challenge, challengeMethod: read.method, nonce: request.query("nonce"))
      let prompts = (request.query("prompt") ?? "").split(separator: " ")
      let offline = request.query("access_type") == "offline" && prompts.contains("consent")
      environment.tokens.update(code) { $0?.extra["offline"] = offline ? "true" : "false" }
      let granted = scopes.map { $0 == "email" || $0 == "profile" ? googleScope($0) : $0 }
      return EmulatorJSON.redirect(
        to: read.redirectURI,
        read.tail + [
          ("code", code), ("scope", granted.joined(separator: " ")), ("authuser", "0"),
          ("prompt", "consent"),
        ])
    }
  }

  private func googleScope(_ scope: String) -> String {
    "https://www.googleapis.com/auth/userinfo." + scope
  }

  /// `client_secret_post` or `client_secret_basic`; Google answers 401 `invalid_client`.
  func authenticate(_ request: EmulatorRequest) -> HTTPResponse? {
    let basic = request.basicCredentials
    let id = basic?.id ?? request.form("client_id")
    let secret = basic?.secret ?? request.form("client_secret")
    guard id == EmulatorApps.googleClientID, let secret,
      ConstantTime.equals(Array(secret.utf8), Array(EmulatorApps.googleClientSecret.utf8))
    else { return Self.oauthError("invalid_client", "Unauthorized", status: 401) }
    return nil
  }

  func token(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "Invalid request body.")
    }
    if let error = authenticate(request) { return error }
    switch request.form("grant_type") {
    case EmulatedOIDC.deviceGrantType: return deviceToken(request)
    case "authorization_code": return exchangeCode(request)
    case "refresh_token": return refresh(request)
    case nil: return Self.oauthError("unsupported_grant_type", "Invalid grant_type: ")
    default: return Self.oauthError("unsupported_grant_type", "Invalid grant_type.")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest) -> HTTPResponse {
    switch environment.redeemCodeGrant(request, provider: name) {
    case .success(let found):
      return issueTokens(
        user: found.user, scopes: found.code.scopes, grantID: found.code.grantID,
        nonce: found.code.extra["nonce"], now: request.now,
        withRefreshToken: found.code.extra["offline"] == "true")
    case .failure(.missingCode):
      return Self.oauthError("invalid_request", "Missing required parameter: code")
    case .failure(.redirectMismatch): return Self.oauthError("redirect_uri_mismatch", "Bad Request")
    case .failure(.pkceMismatch): return Self.oauthError("invalid_grant", "Invalid code verifier.")
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure: return Self.oauthError("invalid_grant", "Bad Request")
    }
  }

  private func refresh(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return Self.oauthError("invalid_request", "Missing required parameter: refresh_token")
    }
    guard
      let token = environment.tokens.live(value, kind: .refresh, provider: name, at: request.now)
    else { return Self.oauthError("invalid_grant", "Token has been expired or revoked.") }
    guard let user = environment.user(token.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    return issueTokens(
      user: user, scopes: token.scopes, grantID: token.grantID, nonce: nil, now: request.now,
      withRefreshToken: false)
  }

  func issueTokens(
    user: EmulatedUser, scopes: [String], grantID: String, nonce: String?, now: Date,
    withRefreshToken: Bool
  ) -> HTTPResponse {
    let lifetimes = environment.lifetimes(for: name)
    let access = environment.issueToken(
      .access, prefix: "ya29.", provider: name, clientID: EmulatorApps.googleClientID,
      user: user, scopes: scopes, grantID: grantID, now: now, lifetime: lifetimes.accessToken)
    var body: [String: JSONValue] = [
      "access_token": .string(access), "token_type": "Bearer",
      "expires_in": EmulatorJSON.number(lifetimes.accessToken),
      "scope": .string(scopes.joined(separator: " ")),
    ]
    if withRefreshToken {
      body["refresh_token"] = .string(
        environment.issueToken(
          .refresh, prefix: "1//0", provider: name, clientID: EmulatorApps.googleClientID,
          user: user, scopes: scopes, grantID: grantID, now: now,
          lifetime: lifetimes.refreshToken))
    }
    if scopes.contains("openid") {
      do {
        body["id_token"] = .string(
          try idToken(
            user: user, scopes: scopes, nonce: nonce, accessToken: access, now: now,
            audience: EmulatorApps.googleClientID, authorizedParty: EmulatorApps.googleClientID))
      } catch {
        return Self.oauthError("server_error", "The emulator cannot sign ID tokens.", status: 500)
      }
    }
    return EmulatorJSON.response(.object(body))
  }

  /// The Workspace domain of `user`: the domain of the email address, unless it is a consumer
  /// domain (then none, as for a gmail.com account).
  static func hostedDomain(of user: EmulatedUser) -> String? {
    guard let email = user.email, let at = email.lastIndex(of: "@") else { return nil }
    let domain = String(email[email.index(after: at)...]).lowercased()
    return domain.isEmpty || consumerDomains.contains(domain) ? nil : domain
  }

  /// An ID token as Google issues it, RS256 with a `kid` from the JWKS.
  func idToken(
    user: EmulatedUser, scopes: [String], nonce: String?, accessToken: String?, now: Date,
    audience: String, authorizedParty: String
  ) throws -> String {
    let iat = now.timeIntervalSince1970.rounded(.down)
    var claims = user.openIDClaims(at: name, scopes: scopes)
    claims["iss"] = .string(Self.issuer)
    claims["azp"] = .string(authorizedParty)
    claims["aud"] = .string(audience)
    claims["iat"] = .number(iat)
    claims["exp"] = .number(iat + environment.lifetimes(for: name).idToken)
    if let accessToken { claims["at_hash"] = .string(emulatorAccessTokenHash(accessToken)) }
    if let nonce { claims["nonce"] = .string(nonce) }
    if let domain = Self.hostedDomain(of: user) { claims["hd"] = .string(domain) }
    return try environment.keys.jwt(claims, signing: .rs256)
  }

  func userinfo(_ request: EmulatorRequest) -> HTTPResponse {
    guard
      let token = environment.tokens.live(
        request.bearerToken, kind: .access, provider: name, at: request.now),
      let user = environment.user(token.userID)
    else { return Self.bearerError("Invalid Credentials") }
    guard !user.isDisabled else { return accountDisabled(endpoint: "userinfo", request: request) }
    var body = user.openIDClaims(at: name, scopes: token.scopes)
    if let domain = Self.hostedDomain(of: user) { body["hd"] = .string(domain) }
    return EmulatorJSON.response(.object(body))
  }

  func keys(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(environment.keys.jwks([.rs256]))
  }

  /// `token` in the query or the form; the whole grant ends. A token that is unknown, expired
  /// or already revoked answers `400 invalid_token`, as Google does.
  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.oauthError("invalid_request", "Invalid request body.")
    }
    guard let value = request.parameter("token") else {
      return Self.oauthError("invalid_request", "Bad Request")
    }
    guard let token = environment.tokens.lookup(value), token.provider == name,
      token.kind == .access || token.kind == .refresh, token.isLive(at: request.now)
    else { return Self.oauthError("invalid_token", "Token expired or revoked") }
    environment.tokens.revokeGrant(token.grantID)
    return EmulatorJSON.response([:])
  }
}
