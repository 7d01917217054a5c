import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Facebook Login and the Graph API (providers.md §1 and §7): the versioned login dialog, code
/// exchange, `fb_exchange_token`, app tokens, `debug_token` (HTTP 200 with `is_valid: false`
/// for dead tokens), `/me` with `fields` and `appsecret_proof`, Graph error bodies with codes
/// and subcodes, no refresh token, and Limited Login's JWKS.
struct EmulatedFacebook: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.facebook
  static let issuer = "https://www.facebook.com"

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  static let apps = [
    EmulatorApps.facebookAppID: EmulatorApps.facebookAppSecret,
    EmulatorApps.facebookOtherAppID: EmulatorApps.facebookOtherAppSecret,
  ]

  var routes: [EmulatorRoute] {
    var routes: [EmulatorRoute] = []
    for prefix in ["/{version}", ""] {
      routes += [
        EmulatorRoute(
          ["GET"], "www.facebook.com", prefix + "/dialog/oauth", endpoint: "dialog", dialog),
        EmulatorRoute(
          ["GET", "POST"], "graph.facebook.com", prefix + "/oauth/access_token",
          endpoint: "access_token", accessToken),
        EmulatorRoute(
          ["GET"], "graph.facebook.com", prefix + "/debug_token", endpoint: "debug_token",
          debugToken),
        EmulatorRoute(["GET"], "graph.facebook.com", prefix + "/me", endpoint: "me", me),
        EmulatorRoute(
          ["DELETE"], "graph.facebook.com", prefix + "/me/permissions", endpoint: "permissions",
          deletePermissions),
      ]
    }
    routes += deviceRoutes
    for host in ["www.facebook.com", "limited.facebook.com"] {
      routes.append(
        EmulatorRoute(["GET"], host, "/.well-known/oauth/openid/jwks", endpoint: "jwks", jwks))
    }
    routes.append(
      EmulatorRoute(
        ["GET"], "limited.facebook.com", "/.well-known/openid-configuration",
        endpoint: "discovery", discovery))
    return routes
  }

  var status: JSONValue {
    [
      "name": "facebook",
      "hosts": ["www.facebook.com", "graph.facebook.com", "limited.facebook.com"],
      "app_id": .string(EmulatorApps.facebookAppID),
    ]
  }

  func usesRS256(endpoint: String) -> Bool { endpoint == "jwks" || endpoint == "access_token" }

  // MARK: Errors

  /// A Graph API error: `{"error":{"message","type","code","error_subcode","fbtrace_id"}}`.
  static func graphError(
    _ code: Int, _ message: String, subcode: Int? = nil, type: String = "OAuthException",
    status: Int = 400, transient: Bool = false
  ) -> HTTPResponse {
    var error: [String: JSONValue] = [
      "message": .string(message), "type": .string(type), "code": .number(Double(code)),
      "fbtrace_id": .string("Emu" + SecureRandom.urlSafeToken(byteCount: 8)),
    ]
    if let subcode { error["error_subcode"] = .number(Double(subcode)) }
    if transient { error["is_transient"] = true }
    var response = EmulatorJSON.response(["error": .object(error)], status: status)
    response.headers.add(
      name: "WWW-Authenticate", value: "OAuth \"Facebook Platform\" \"invalid_token\"")
    return response
  }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    if let device = deviceFault(status: status, fault: fault) { return device }
    let response: HTTPResponse
    switch status {
    case 429:
      response = Self.graphError(
        4, "(#4) Application request limit reached", status: 429, transient: true)
    case 500..<600:
      response = Self.graphError(
        2, "An unexpected error has occurred. Please retry your request later.", status: status,
        transient: true)
    default:
      response = Self.graphError(1, "An unknown error has occurred.", status: status)
    }
    return withRetryAfter(response, status: status, fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    reason == .expired ? Self.sessionExpired(at: request.now, now: request.now) : Self.revoked(458)
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    Self.checkpoint()
  }

  static func checkpoint() -> HTTPResponse {
    graphError(
      190,
      "Error validating access token: You cannot access the app till you log in to "
        + "www.facebook.com and follow the instructions given.", subcode: 459)
  }

  static func sessionExpired(at expiry: Date, now: Date) -> HTTPResponse {
    graphError(
      190,
      "Error validating access token: Session has expired on \(EmulatorJSON.httpDate(expiry)). "
        + "The current time is \(EmulatorJSON.httpDate(now)).", subcode: 463)
  }

  static func revoked(_ subcode: Int) -> HTTPResponse {
    switch subcode {
    case 460:
      graphError(
        190,
        "Error validating access token: The session has been invalidated because the "
          + "user changed their password or Facebook has changed the session for security reasons.",
        subcode: 460)
    case 467:
      graphError(
        190,
        "Error validating access token: The user is enrolled in a blocking, logged-in "
          + "checkpoint", subcode: 467)
    default:
      graphError(
        190, "Error validating access token: The user has not authorized application.",
        subcode: 458)
    }
  }

  static let cannotParse = "Invalid OAuth access token - Cannot parse access token"

  // MARK: Dialog

  func dialog(_ request: EmulatorRequest) -> HTTPResponse {
    guard let appID = request.query("client_id"), Self.apps[appID] != nil else {
      return EmulatorJSON.page(
        title: "Facebook", "Invalid App ID: The provided app ID does not look like a valid app ID.")
    }
    guard let redirectURI = request.query("redirect_uri"),
      EmulatorAuthorization.isRedirectable(redirectURI)
    else {
      return EmulatorJSON.page(
        title: "Facebook",
        "URL blocked: This redirect failed because the redirect URI is not valid.")
    }
    let state = request.query("state")
    var parameters: [(String, String)] = []
    if let state { parameters.append(("state", state)) }
    if let responseType = request.query("response_type"), responseType != "code" {
      return EmulatorJSON.redirect(
        to: redirectURI,
        [("error", "invalid_request"), ("error_description", "Unsupported response_type")]
          + parameters)
    }
    let challenge = request.query("code_challenge")
    let method = request.query("code_challenge_method")
    if challenge != nil, method != nil, method != "S256", method != "plain" {
      return EmulatorJSON.redirect(
        to: redirectURI,
        [("error", "invalid_request"), ("error_description", "Invalid code_challenge_method")]
          + parameters)
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "Facebook app")
    {
    case .page(let page): return page
    case .deny:
      return EmulatorJSON.redirect(
        to: redirectURI,
        [
          ("error_reason", "user_denied"), ("error", "access_denied"),
          ("error_description", "Permissions error"),
        ] + parameters)
    case .approve(let user):
      let scopes = (request.query("scope") ?? "public_profile").split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      let code = environment.issueAuthorizationCode(
        prefix: "fbcode-", byteCount: 32, provider: name, clientID: appID, userID: user.id,
        scopes: scopes, request: request, redirectURI: redirectURI, challenge: challenge,
        challengeMethod: challenge == nil ? nil : (method ?? "plain"),
        nonce: request.query("nonce"))
      return EmulatorJSON.redirect(to: redirectURI, [("code", code)] + parameters)
    }
  }

  // MARK: Access token

  func accessToken(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else {
      return Self.graphError(100, "(#100) The request body could not be parsed")
    }
    guard let appID = request.parameter("client_id") else {
      return Self.graphError(101, "Missing client_id parameter.")
    }
    guard let secret = Self.apps[appID] else {
      return Self.graphError(101, "Error validating application. Invalid application ID.")
    }
    guard let given = request.parameter("client_secret"),
      ConstantTime.equals(Array(given.utf8), Array(secret.utf8))
    else { return Self.graphError(1, "Error validating client secret.") }
    switch request.parameter("grant_type") {
    case "fb_exchange_token": return exchange(request, appID: appID)
    case "client_credentials": return appToken(request, appID: appID)
    case nil, "authorization_code": return exchangeCode(request, appID: appID)
    default: return Self.graphError(100, "Unsupported grant_type")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest, appID: String) -> HTTPResponse {
    guard let code = request.parameter("code") else {
      return Self.graphError(100, "Missing authorization code")
    }
    let issued: IssuedToken
    switch environment.tokens.redeemCode(code, provider: name, now: request.now) {
    case .unknown: return Self.graphError(100, "Invalid verification code format.", subcode: 36007)
    case .alreadyUsed:
      return Self.graphError(100, "This authorization code has been used.", subcode: 36009)
    case .expired:
      return Self.graphError(100, "This authorization code has expired.", subcode: 36007)
    case .redeemed(let token): issued = token
    }
    guard issued.clientID == appID,
      request.parameter("redirect_uri") == issued.extra["redirect_uri"]
    else {
      return Self.graphError(
        100,
        "Error validating verification code. Please make sure your redirect_uri is identical "
          + "to the one you used in the OAuth dialog request", subcode: 36008)
    }
    guard
      EmulatorAuthorization.pkceMatches(
        challenge: issued.extra["code_challenge"], method: issued.extra["code_challenge_method"],
        verifier: request.parameter("code_verifier"))
    else { return Self.graphError(100, "Invalid code verifier.", subcode: 36007) }
    guard let user = environment.user(issued.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "access_token", request: request)
    }
    let ttl = environment.lifetimes(for: name).accessToken
    let token = issueUserToken(
      user: user, appID: appID, scopes: issued.scopes, grantID: issued.grantID, ttl: ttl,
      now: request.now, longLived: false)
    var body: [String: JSONValue] = [
      "access_token": .string(token), "token_type": "bearer",
      "expires_in": EmulatorJSON.number(ttl),
    ]
    if issued.scopes.contains("openid") {
      if let idToken = try? limitedLoginToken(
        user: user, appID: appID, nonce: issued.extra["nonce"], now: request.now)
      {
        body["id_token"] = .string(idToken)
      }
    }
    return EmulatorJSON.response(.object(body))
  }

  private func exchange(_ request: EmulatorRequest, appID: String) -> HTTPResponse {
    guard let value = request.parameter("fb_exchange_token") else {
      return Self.graphError(100, "Missing fb_exchange_token parameter")
    }
    switch userToken(value, now: request.now) {
    case .failure(let error): return error.response
    case .success(let (token, user)):
      guard token.clientID == appID else {
        return Self.graphError(
          190,
          "Error validating access token: The token does not belong to "
            + "this application.")
      }
      let ttl = environment.lifetimes(for: name).longLivedAccessToken
      let long = issueUserToken(
        user: user, appID: appID, scopes: token.scopes, grantID: token.grantID, ttl: ttl,
        now: request.now, longLived: true)
      return EmulatorJSON.response([
        "access_token": .string(long), "token_type": "bearer",
        "expires_in": EmulatorJSON.number(ttl),
      ])
    }
  }

  private func appToken(_ request: EmulatorRequest, appID: String) -> HTTPResponse {
    let token = appID + "|" + SecureRandom.urlSafeToken(byteCount: 20)
    environment.tokens.insert(
      IssuedToken(
        value: token, kind: .access, provider: name, clientID: appID, userID: "", scopes: [],
        issuedAt: request.now, expiresAt: nil, grantID: "", extra: ["app": "1"]))
    return EmulatorJSON.response(["access_token": .string(token), "token_type": "bearer"])
  }

  func issueUserToken(
    user: EmulatedUser, appID: String, scopes: [String], grantID: String, ttl: TimeInterval,
    now: Date, longLived: Bool
  ) -> String {
    let token = TokenRegistry.makeValue(prefix: "EAAEmu", byteCount: 48)
    environment.tokens.insert(
      IssuedToken(
        value: token, kind: .access, provider: name, clientID: appID, userID: user.id,
        scopes: scopes, issuedAt: now, expiresAt: ttl > 0 ? now.addingTimeInterval(ttl) : nil,
        grantID: grantID, extra: longLived ? ["long_lived": "1"] : [:]))
    return token
  }

  /// A live user token and its user, or the Graph error Facebook sends for it.
  private func userToken(_ value: String, now: Date) -> Result<
    (IssuedToken, EmulatedUser), ErrorResponse
  > {
    guard let token = environment.tokens.lookup(value), token.provider == name,
      token.kind == .access, token.extra["app"] == nil, let user = environment.user(token.userID)
    else { return .failure(ErrorResponse(Self.graphError(190, Self.cannotParse))) }
    if token.revoked {
      return .failure(ErrorResponse(Self.revoked(Int(token.extra["revoked_subcode"] ?? "") ?? 458)))
    }
    if let expiry = token.expiresAt, now >= expiry {
      return .failure(ErrorResponse(Self.sessionExpired(at: expiry, now: now)))
    }
    guard !user.isDisabled else {
      return .failure(ErrorResponse(Self.checkpoint()))
    }
    return .success((token, user))
  }

  // MARK: Graph calls

  /// The token of a Graph call (`access_token` parameter or Bearer) and the `appsecret_proof`
  /// check: present proofs must be right; absent ones are refused when the app requires them.
  private func checkProof(_ request: EmulatorRequest, token: String, appID: String) -> HTTPResponse?
  {
    guard let secret = Self.apps[appID] else { return nil }
    guard let proof = request.parameter("appsecret_proof") else {
      guard environment.facebookRequiresAppSecretProof else { return nil }
      return Self.graphError(
        100, "API calls from the server require an appsecret_proof argument",
        type: "GraphMethodException")
    }
    let expected = HexEncoding.lowercase(
      HMAC<SHA256>.authenticationCode(for: Array(token.utf8), using: Array(secret.utf8)))
    guard ConstantTime.equals(Array(proof.lowercased().utf8), Array(expected.utf8)) else {
      return Self.graphError(
        100, "Invalid appsecret_proof provided in the API argument", type: "GraphMethodException")
    }
    return nil
  }

  func me(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.parameter("access_token") ?? request.bearerToken else {
      return Self.graphError(
        2500,
        "An active access token must be used to query information "
          + "about the current user.")
    }
    let token: IssuedToken
    let user: EmulatedUser
    switch userToken(value, now: request.now) {
    case .failure(let error): return error.response
    case .success(let (found, owner)):
      token = found
      user = owner
    }
    if let error = checkProof(request, token: value, appID: token.clientID) { return error }
    let requested = (request.parameter("fields") ?? "id,name").split(separator: ",").map { field in
      String(field.prefix { $0 != "." && $0 != "{" }).trimmingCharacters(in: .whitespaces)
    }
    var body: [String: JSONValue] = [:]
    for field in requested where !field.isEmpty {
      switch field {
      case "id": body["id"] = .string(user.subject(at: name))
      case "name": body["name"] = .string(user.name)
      case "first_name":
        body["first_name"] = .string(String(user.name.split(separator: " ").first ?? ""))
      case "last_name":
        body["last_name"] = .string(String(user.name.split(separator: " ").last ?? ""))
      case "email":
        if token.scopes.contains("email"), let email = user.email { body["email"] = .string(email) }
      case "picture":
        body["picture"] = [
          "data": [
            "height": 50, "is_silhouette": .bool(user.picture == nil),
            "url": .string(user.picture ?? "https://pictures.example.test/silhouette.png"),
            "width": 50,
          ]
        ]
      default:
        return Self.graphError(
          100, "(#100) Tried accessing nonexisting field (\(field)) on node type (User)")
      }
    }
    if body["id"] == nil { body["id"] = .string(user.subject(at: name)) }
    return EmulatorJSON.response(.object(body))
  }

  func debugToken(_ request: EmulatorRequest) -> HTTPResponse {
    guard let inspector = request.parameter("access_token") ?? request.bearerToken else {
      return Self.graphError(104, "An access token is required to request this resource.")
    }
    guard let appID = appOf(inspector: inspector, now: request.now) else {
      return Self.graphError(190, Self.cannotParse)
    }
    guard let input = request.parameter("input_token") else {
      return Self.graphError(100, "(#100) The parameter input_token is required")
    }
    _ = appID
    guard let token = environment.tokens.lookup(input), token.provider == name,
      token.kind == .access
    else {
      return EmulatorJSON.response([
        "data": [
          "error": ["code": 190, "message": .string(Self.cannotParse)], "is_valid": false,
          "scopes": [],
        ]
      ])
    }
    let user = environment.user(token.userID)
    var data: [String: JSONValue] = [
      "app_id": .string(token.clientID), "type": token.extra["app"] == nil ? "USER" : "APP",
      "application": token.clientID == EmulatorApps.facebookAppID
        ? "SocialLogin Emulator" : "Other App",
      "expires_at": .number(token.expiresAt.map { $0.timeIntervalSince1970.rounded(.down) } ?? 0),
      "data_access_expires_at": .number(
        token.issuedAt.addingTimeInterval(7_776_000).timeIntervalSince1970.rounded(.down)),
      "scopes": .array(token.scopes.map { .string($0) }),
      "granular_scopes": .array(token.scopes.map { ["scope": .string($0)] }),
      "is_valid": true,
    ]
    if let user, token.extra["app"] == nil { data["user_id"] = .string(user.subject(at: name)) }
    if token.extra["long_lived"] != nil {
      data["issued_at"] = .number(token.issuedAt.timeIntervalSince1970.rounded(.down))
    }
    var problem: (Int, String, Int?)?
    if token.revoked {
      problem = (
        190, "Error validating access token: The user has not authorized application.",
        Int(token.extra["revoked_subcode"] ?? "") ?? 458
      )
    } else if let expiry = token.expiresAt, request.now >= expiry {
      problem = (
        190,
        "Error validating access token: Session has expired on "
          + "\(EmulatorJSON.httpDate(expiry)).", 463
      )
    } else if user?.isDisabled == true {
      problem = (
        190,
        "Error validating access token: You cannot access the app till you log in "
          + "to www.facebook.com and follow the instructions given.", 459
      )
    }
    if let (code, message, subcode) = problem {
      data["is_valid"] = false
      var error: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
      if let subcode { error["subcode"] = .number(Double(subcode)) }
      data["error"] = .object(error)
    }
    return EmulatorJSON.response(["data": .object(data)])
  }

  /// The app an inspecting token speaks for: `APPID|SECRET`, an app token, or a live user token.
  private func appOf(inspector: String, now: Date) -> String? {
    let parts = inspector.split(separator: "|", maxSplits: 1).map(String.init)
    if parts.count == 2, let secret = Self.apps[parts[0]], parts[1] == secret { return parts[0] }
    guard let token = environment.tokens.lookup(inspector), token.provider == name,
      token.kind == .access, token.isLive(at: now)
    else { return nil }
    return token.clientID
  }

  func deletePermissions(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.parameter("access_token") ?? request.bearerToken else {
      return Self.graphError(2500, "An active access token must be used.")
    }
    switch userToken(value, now: request.now) {
    case .failure(let error): return error.response
    case .success(let (token, _)):
      if let error = checkProof(request, token: value, appID: token.clientID) { return error }
      environment.tokens.invalidate(provider: name, userID: token.userID, kinds: [.access])
      return EmulatorJSON.response(["success": true])
    }
  }

  // MARK: Limited Login

  /// A Limited Login ID token (RS256, `kid`): `iss`, `aud` (app id), `sub`, `exp`, `iat`,
  /// `jti`, `nonce`, `name`, `email`, `picture`.
  func limitedLoginToken(user: EmulatedUser, appID: String, nonce: String?, now: Date) throws
    -> String
  {
    let iat = now.timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(Self.issuer), "aud": .string(appID), "sub": .string(user.subject(at: name)),
      "iat": .number(iat), "exp": .number(iat + environment.lifetimes(for: name).idToken),
      "jti": .string(SecureRandom.urlSafeToken(byteCount: 16)), "name": .string(user.name),
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    if let email = user.email { claims["email"] = .string(email) }
    if let picture = user.picture { claims["picture"] = .string(picture) }
    return try environment.keys.jwt(claims, signing: .rs256)
  }

  func jwks(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(environment.keys.jwks([.rs256]))
  }

  func discovery(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response([
      "issuer": .string(Self.issuer),
      "authorization_endpoint": "https://www.facebook.com/dialog/oauth/",
      "jwks_uri": "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
      "response_types_supported": ["id_token", "token id_token"],
      "subject_types_supported": ["pairwise"],
      "id_token_signing_alg_values_supported": ["RS256"],
      "claims_supported": [
        "iss", "aud", "sub", "iat", "exp", "jti", "nonce", "name", "email", "picture",
      ],
    ])
  }
}
