import Foundation
import LoopbackHTTP
import SocialLogin

/// X (Twitter) OAuth 2.0 with PKCE, `/2/users/me` and revocation, as providers.md §2.1 and §7
/// describe them; OAuth 1.0a is in `EmulatedX+OAuth1.swift`.
///
/// - Codes live 30 s and are single use; the verifier must match the challenge.
/// - The default client is confidential (Basic on token, refresh, revoke); the public client
///   sends `client_id` in the body.
/// - Refresh tokens (only with `offline.access`) rotate on every refresh; a spent one is
///   answered `400 invalid_request "Value passed for the token was invalid."` (§7).
struct EmulatedX: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.twitter

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  var routes: [EmulatorRoute] {
    var routes: [EmulatorRoute] = []
    for host in ["x.com", "twitter.com"] {
      routes.append(
        EmulatorRoute(["GET"], host, "/i/oauth2/authorize", endpoint: "authorize", authorize))
    }
    for host in ["api.x.com", "api.twitter.com"] {
      routes += [
        EmulatorRoute(["POST"], host, "/2/oauth2/token", endpoint: "token", token),
        EmulatorRoute(["POST"], host, "/2/oauth2/revoke", endpoint: "revoke", revoke),
        EmulatorRoute(["GET"], host, "/2/users/me", endpoint: "users_me", usersMe),
      ]
      routes += oauth1Routes(host: host)
    }
    return routes
  }

  var status: JSONValue {
    [
      "name": "twitter", "hosts": ["x.com", "api.x.com"],
      "client_id": .string(EmulatorApps.twitterClientID),
      "public_client_id": .string(EmulatorApps.twitterPublicClientID),
      "consumer_key": .string(EmulatorApps.twitterConsumerKey),
    ]
  }

  // MARK: Errors

  /// X API v2 problem JSON (`{"title","detail","type","status"}`).
  static func problem(_ title: String, _ detail: String, status: Int, type: String = "about:blank")
    -> HTTPResponse
  {
    EmulatorJSON.response(
      [
        "title": .string(title), "detail": .string(detail), "type": .string(type),
        "status": .number(Double(status)),
      ], status: status)
  }

  /// X's bodies for the problems a fault names: `usage-capped` (the project's monthly cap,
  /// since pay-per-use billing in 2026), `client-not-enrolled` (a `client-forbidden` problem
  /// with that `reason`, as X sends it for an app outside a project or plan), or any other
  /// kind as `https://api.x.com/2/problems/<kind>`.
  static func namedProblem(_ kind: String, status: Int) -> HTTPResponse {
    let body: JSONValue
    switch kind {
    case "usage-capped":
      body = [
        "title": "UsageCapExceeded", "detail": "Usage cap exceeded: Monthly product cap",
        "type": "https://api.x.com/2/problems/usage-capped", "period": "Monthly",
        "scope": "Product",
      ]
    case "client-not-enrolled":
      body = [
        "client_id": .string(EmulatorApps.twitterClientID),
        "detail": .string(
          "When authenticating requests to the Twitter API v2 endpoints, you must use keys and "
            + "tokens from a Twitter developer App that is attached to a Project."),
        "registration_url": "https://developer.x.com/en/docs/projects/overview",
        "title": "Client Forbidden", "required_enrollment": "Appropriate Level of API Access",
        "reason": "client-not-enrolled", "type": "https://api.x.com/2/problems/client-forbidden",
      ]
    default:
      return problem(kind, kind, status: status, type: "https://api.x.com/2/problems/" + kind)
    }
    return EmulatorJSON.response(body, status: status)
  }

  static let invalidToken = "Value passed for the token was invalid."
  static let invalidCode = "Value passed for the authorization code was invalid."

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    let title = HTTPResponse.standardReason(for: status)
    var response =
      fault.problem.map { Self.namedProblem($0, status: status) }
      ?? Self.problem(title, title, status: status)
    if status == 429 {
      let reset = environment.now.timeIntervalSince1970 + Double(fault.rateLimitResetSeconds ?? 60)
      response.headers.add(name: "x-rate-limit-limit", value: "75")
      response.headers.add(name: "x-rate-limit-remaining", value: "0")
      response.headers.add(name: "x-rate-limit-reset", value: String(Int(reset.rounded(.up))))
      if let seconds = fault.retryAfterSeconds {
        response.headers.add(name: "Retry-After", value: String(seconds))
      }
      return response
    }
    return withRetryAfter(response, status: status, fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.oauthError("invalid_request", Self.invalidToken)
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    switch endpoint {
    case "token": Self.oauthError("invalid_request", Self.invalidToken)
    case "verify_credentials", "request_token", "access_token", "invalidate_token":
      EmulatedX.v1Error(
        64, "Your account is suspended and is not permitted to access this feature.",
        status: 403)
    default: Self.problem("Forbidden", "Forbidden", status: 403)
    }
  }

  // MARK: Authorize

  func authorize(_ request: EmulatorRequest) -> HTTPResponse {
    let clientID = request.query("client_id")
    guard clientID == EmulatorApps.twitterClientID || clientID == EmulatorApps.twitterPublicClientID
    else {
      return EmulatorJSON.page(
        title: "X", "Something went wrong. You weren't able to give access to the App.")
    }
    guard let redirectURI = request.query("redirect_uri"),
      EmulatorAuthorization.isRedirectable(redirectURI)
    else {
      return EmulatorJSON.page(title: "X", "Something went wrong: invalid redirect_uri.")
    }
    guard let state = request.query("state"), !state.isEmpty, state.utf8.count <= 500 else {
      return EmulatorJSON.page(title: "X", "Something went wrong: state is required.")
    }
    if let repeated = request.repeatedParameter {
      return EmulatorJSON.redirect(
        to: redirectURI,
        [
          ("error", "invalid_request"), ("error_description", "Repeated parameter \(repeated)."),
          ("state", state),
        ])
    }
    guard request.query("response_type") == "code" else {
      return EmulatorJSON.redirect(
        to: redirectURI, [("error", "unsupported_response_type"), ("state", state)])
    }
    guard let challenge = request.query("code_challenge"), !challenge.isEmpty,
      let method = request.query("code_challenge_method"), method == "S256" || method == "plain"
    else {
      return EmulatorJSON.redirect(
        to: redirectURI,
        [
          ("error", "invalid_request"),
          ("error_description", "Missing or invalid code_challenge."), ("state", state),
        ])
    }
    let scopes = (request.query("scope") ?? "").split(separator: " ").map(String.init)
    guard !scopes.isEmpty else {
      return EmulatorJSON.redirect(to: redirectURI, [("error", "invalid_scope"), ("state", state)])
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "X app") {
    case .page(let page): return page
    case .deny:
      return EmulatorJSON.redirect(to: redirectURI, [("error", "access_denied"), ("state", state)])
    case .approve(let user):
      // X keeps no nonce (it has no ID tokens).
      let code = environment.issueAuthorizationCode(
        prefix: "xcode-", provider: name, clientID: clientID ?? "", userID: user.id,
        scopes: scopes, request: request, redirectURI: redirectURI, challenge: challenge,
        challengeMethod: method, nonce: nil)
      return EmulatorJSON.redirect(to: redirectURI, [("state", state), ("code", code)])
    }
  }

  // MARK: Token

  /// The authenticated client id, or the error response (§6: confidential clients need Basic).
  func authenticateClient(_ request: EmulatorRequest) -> Result<String, ErrorResponse> {
    if let basic = request.basicCredentials {
      guard basic.id == EmulatorApps.twitterClientID,
        basic.secret == EmulatorApps.twitterClientSecret
      else {
        return .failure(
          ErrorResponse(
            Self.oauthError(
              "unauthorized_client", "Missing valid authorization header", status: 401)))
      }
      if let bodyID = request.form("client_id"), bodyID != basic.id {
        return .failure(
          ErrorResponse(
            Self.oauthError(
              "invalid_request", "Value passed for the client_id was invalid.")))
      }
      return .success(basic.id)
    }
    if request.hasAuthorization {
      return .failure(
        ErrorResponse(
          Self.oauthError(
            "unauthorized_client", "Missing valid authorization header", status: 401)))
    }
    switch request.form("client_id") {
    case EmulatorApps.twitterPublicClientID?:
      return .success(EmulatorApps.twitterPublicClientID)
    case EmulatorApps.twitterClientID?:
      return .failure(
        ErrorResponse(
          Self.oauthError(
            "unauthorized_client", "Missing valid authorization header", status: 401)))
    default:
      return .failure(
        ErrorResponse(
          Self.oauthError(
            "invalid_request", "Value passed for the client_id was invalid.")))
    }
  }

  func token(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "The request body could not be parsed.")
    }
    let clientID: String
    switch authenticateClient(request) {
    case .failure(let error): return error.response
    case .success(let id): clientID = id
    }
    switch request.form("grant_type") {
    case "authorization_code": return exchangeCode(request, clientID: clientID)
    case "refresh_token": return refresh(request, clientID: clientID)
    case "client_credentials": return clientCredentials(request, clientID: clientID)
    case nil: return Self.oauthError("invalid_request", "Missing required parameter [grant_type].")
    default: return Self.oauthError("unsupported_grant_type", "Grant type is not supported.")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest, clientID: String) -> HTTPResponse {
    guard let code = request.form("code") else {
      return Self.oauthError("invalid_request", "Missing required parameter [code].")
    }
    guard let verifier = request.form("code_verifier") else {
      return Self.oauthError("invalid_request", "Missing required parameter [code_verifier].")
    }
    guard
      case .redeemed(let issued) = environment.tokens.redeemCode(
        code, provider: name, now: request.now), issued.clientID == clientID
    else { return Self.oauthError("invalid_request", Self.invalidCode) }
    guard request.form("redirect_uri") == issued.extra["redirect_uri"] else {
      return Self.oauthError(
        "invalid_request",
        "Value passed for the redirect uri did not match the uri of the "
          + "authorization code.")
    }
    guard
      EmulatorAuthorization.pkceMatches(
        challenge: issued.extra["code_challenge"], method: issued.extra["code_challenge_method"],
        verifier: verifier)
    else { return Self.oauthError("invalid_request", Self.invalidCode) }
    guard let user = environment.user(issued.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    return issueTokens(
      user: user, clientID: clientID, scopes: issued.scopes, grantID: issued.grantID,
      now: request.now)
  }

  private func refresh(_ request: EmulatorRequest, clientID: String) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return Self.oauthError("invalid_request", "Missing required parameter [refresh_token].")
    }
    let now = request.now
    let spent: IssuedToken? = environment.tokens.update(value) { token in
      guard let current = token, current.kind == .refresh, current.provider == name,
        current.clientID == clientID, current.isLive(at: now)
      else { return nil }
      token?.spent = true
      return current
    }
    guard let spent else { return Self.oauthError("invalid_request", Self.invalidToken) }
    guard let user = environment.user(spent.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    return issueTokens(
      user: user, clientID: clientID, scopes: spent.scopes, grantID: spent.grantID, now: now)
  }

  private func issueTokens(
    user: EmulatedUser, clientID: String, scopes: [String], grantID: String, now: Date
  ) -> HTTPResponse {
    let lifetimes = environment.lifetimes(for: name)
    let access = TokenRegistry.makeValue(prefix: "xat-")
    environment.tokens.insert(
      IssuedToken(
        value: access, kind: .access, provider: name, clientID: clientID, userID: user.id,
        scopes: scopes, issuedAt: now, expiresAt: now.addingTimeInterval(lifetimes.accessToken),
        grantID: grantID))
    var body: [String: JSONValue] = [
      "token_type": "bearer", "expires_in": EmulatorJSON.number(lifetimes.accessToken),
      "access_token": .string(access), "scope": .string(scopes.joined(separator: " ")),
    ]
    if scopes.contains("offline.access") {
      let refresh = TokenRegistry.makeValue(prefix: "xrt-")
      environment.tokens.insert(
        IssuedToken(
          value: refresh, kind: .refresh, provider: name, clientID: clientID, userID: user.id,
          scopes: scopes, issuedAt: now,
          expiresAt: lifetimes.refreshToken.map { now.addingTimeInterval($0) }, grantID: grantID))
      body["refresh_token"] = .string(refresh)
    }
    return EmulatorJSON.response(.object(body))
  }

  // MARK: Revoke

  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.oauthError("invalid_request", "The request body could not be parsed.")
    }
    let clientID: String
    switch authenticateClient(request) {
    case .failure(let error): return error.response
    case .success(let id): clientID = id
    }
    guard let value = request.form("token") else {
      return Self.oauthError("invalid_request", "Missing required parameter [token].")
    }
    if let token = environment.tokens.lookup(value), token.provider == name,
      token.clientID == clientID
    {
      if token.kind == .refresh {
        environment.tokens.revokeGrant(token.grantID)
      } else {
        environment.tokens.update(value) { $0?.revoked = true }
      }
    }
    return EmulatorJSON.response(["revoked": true])
  }

  // MARK: Users

  func usersMe(_ request: EmulatorRequest) -> HTTPResponse {
    guard
      let token = environment.tokens.live(
        request.bearerToken, kind: .access, provider: name, at: request.now),
      let user = environment.user(token.userID)
    else {
      return Self.problem("Unauthorized", "Unauthorized", status: 401)
    }
    guard !user.isDisabled else { return accountDisabled(endpoint: "users_me", request: request) }
    let fields = Set((request.query("user.fields") ?? "").split(separator: ",").map(String.init))
    var data: [String: JSONValue] = [
      "id": .string(user.subject(at: name)), "name": .string(user.name),
      "username": .string(user.id),
    ]
    if fields.contains("profile_image_url"), let picture = user.picture {
      data["profile_image_url"] = .string(picture)
    }
    if fields.contains("confirmed_email"), let email = user.email,
      token.scopes.contains("users.email")
    {
      data["confirmed_email"] = .string(email)
    }
    if fields.contains("created_at") { data["created_at"] = "2020-01-01T00:00:00.000Z" }
    var response = EmulatorJSON.response(["data": .object(data)])
    let reset = Int(request.now.timeIntervalSince1970) + 900
    response.headers.add(name: "x-rate-limit-limit", value: "75")
    response.headers.add(name: "x-rate-limit-remaining", value: "74")
    response.headers.add(name: "x-rate-limit-reset", value: String(reset))
    return response
  }
}

/// An error response carried through `Result`.
struct ErrorResponse: Error {
  let response: HTTPResponse
  init(_ response: HTTPResponse) { self.response = response }
}
