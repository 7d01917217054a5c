import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Sign in with Apple (providers.md §8) under `appleid.apple.com`: authorize with
/// `response_mode=form_post` (a page whose form POSTs `code`, `state`, `id_token` and, on the
/// first authorization only, `user`), token (codes and refresh, client secret checked against
/// ``EmulatorApps/applePrivateKeyPEM``'s public key; refresh answers without a refresh token),
/// RS256 keys, revoke (empty 200, even for unknown tokens).
struct EmulatedApple: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.apple
  static let issuer = "https://appleid.apple.com"
  static let host = "appleid.apple.com"
  static let clientIDs = [EmulatorApps.appleServicesID, EmulatorApps.appleBundleID]

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  var routes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["GET", "POST"], Self.host, "/auth/authorize", endpoint: "authorize", authorize),
      EmulatorRoute(["POST"], Self.host, "/auth/token", endpoint: "token", token),
      EmulatorRoute(["GET"], Self.host, "/auth/keys", endpoint: "keys", keys),
      EmulatorRoute(["POST"], Self.host, "/auth/revoke", endpoint: "revoke", revoke),
    ]
  }

  var status: JSONValue {
    [
      "name": "apple", "hosts": [.string(Self.host)],
      "client_ids": .array(Self.clientIDs.map(JSONValue.string)),
      "team_id": .string(EmulatorApps.appleTeamID), "key_id": .string(EmulatorApps.appleKeyID),
    ]
  }

  func usesRS256(endpoint: String) -> Bool { endpoint == "token" || endpoint == "authorize" }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    oauthFault(status: status, fault: fault)
  }

  /// Apple's errors carry only `error` (no description).
  static func appleError(_ error: String, status: Int = 400) -> HTTPResponse {
    EmulatorJSON.response(["error": .string(error)], status: status)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.appleError("invalid_grant")
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    Self.appleError("invalid_grant")
  }

  // MARK: Authorize

  func authorize(_ request: EmulatorRequest) -> HTTPResponse {
    func parameter(_ name: String) -> String? { request.query(name) ?? request.form(name) }
    guard let clientID = parameter("client_id"), clientID == EmulatorApps.appleServicesID else {
      return EmulatorJSON.page(title: "Sign in with Apple", "invalid_client")
    }
    guard let redirectURI = parameter("redirect_uri"),
      EmulatorAuthorization.isRedirectable(redirectURI)
    else { return EmulatorJSON.page(title: "Sign in with Apple", "invalid_request: redirect_uri") }
    let state = parameter("state")
    let scopes = (parameter("scope") ?? "").split(separator: " ").map(String.init)
    let formPost = parameter("response_mode") == "form_post"
    guard scopes.allSatisfy(["name", "email", "openid"].contains) else {
      return EmulatorJSON.page(title: "Sign in with Apple", "invalid_scope")
    }
    guard formPost || !(scopes.contains("name") || scopes.contains("email")) else {
      // Apple: response_mode must be form_post when name or email is requested.
      return EmulatorJSON.page(
        title: "Sign in with Apple", "invalid_request: response_mode must be form_post")
    }
    guard (parameter("response_type") ?? "").split(separator: " ").contains("code") else {
      return EmulatorJSON.page(title: "Sign in with Apple", "unsupported_response_type")
    }
    func answer(_ fields: [(String, String)]) -> HTTPResponse {
      let all = fields + (state.map { [("state", $0)] } ?? [])
      return formPost
        ? Self.formPost(to: redirectURI, all) : EmulatorJSON.redirect(to: redirectURI, all)
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "Apple")
    {
    case .page(let page): return page
    case .deny: return answer([("error", "user_cancelled_authorize")])
    case .approve(let user):
      let nonce = parameter("nonce")
      let code = environment.issueAuthorizationCode(
        prefix: "c", byteCount: 24, provider: name, clientID: clientID, userID: user.id,
        scopes: scopes, request: request, redirectURI: redirectURI,
        challenge: parameter("code_challenge"),
        challengeMethod: parameter("code_challenge").map { _ in
          parameter("code_challenge_method") ?? "plain"
        }, nonce: nonce)
      var fields = [("code", code)]
      if let idToken = try? makeIDToken(
        user: user, clientID: clientID, scopes: scopes, nonce: nonce, now: request.now)
      {
        fields.append(("id_token", idToken))
      }
      if formPost, environment.firstAppleAuthorization(userID: user.id, clientID: clientID) {
        fields.append(("user", Self.userJSON(user, scopes: scopes)))
      }
      return answer(fields)
    }
  }

  /// The `user` JSON Apple posts on the first authorization.
  static func userJSON(_ user: EmulatedUser, scopes: [String]) -> String {
    var members: [String: JSONValue] = [:]
    if scopes.contains("name") {
      let parts = user.name.split(separator: " ", maxSplits: 1).map(String.init)
      var name: [String: JSONValue] = ["firstName": .string(parts.first ?? user.name)]
      if parts.count > 1 { name["lastName"] = .string(parts[1]) }
      members["name"] = .object(name)
    }
    if scopes.contains("email"), let email = user.email { members["email"] = .string(email) }
    return JSONValue.object(members).jsonText
  }

  /// The page Apple answers a `form_post` authorization with: a form that POSTs the fields to
  /// the redirect URI as soon as it loads.
  static func formPost(to redirectURI: String, _ fields: [(String, String)]) -> HTTPResponse {
    let inputs = fields.map {
      "<input type=\"hidden\" name=\"\(EmulatorJSON.escape($0.0))\" value=\""
        + "\(EmulatorJSON.escape($0.1))\">"
    }.joined()
    return .html(
      "<!doctype html><html><head><title>Sign in with Apple</title></head>"
        + "<body onload=\"document.forms[0].submit()\"><form id=\"form_post\" method=\"POST\" "
        + "action=\"\(EmulatorJSON.escape(redirectURI))\">\(inputs)"
        + "<noscript><button type=\"submit\">Continue</button></noscript></form></body></html>\n")
  }

  // MARK: Client secret

  /// Checks `client_id` and the `client_secret` JWT: ES256 with the emulated `.p8`'s public
  /// key, `kid`, `iss` the team, `sub` the client id, `aud` Apple, unexpired, at most six
  /// months long. Any failure is `invalid_client`, as Apple answers.
  func checkClient(_ request: EmulatorRequest) -> HTTPResponse? {
    guard let clientID = request.form("client_id"), Self.clientIDs.contains(clientID),
      let secret = request.form("client_secret"),
      Self.clientSecretIsValid(
        secret, clientID: clientID, now: request.now,
        signatureIsValid: { input, signature in
          environment.appleSecretSignatureIsValid(secret) {
            EmulatorApps.appleKey.publicKey.isValidSignature(
              rawRS: signature, digest: SHA256.hash(input))
          }
        })
    else { return Self.appleError("invalid_client") }
    return nil
  }

  static func clientSecretIsValid(
    _ secret: String, clientID: String, now: Date,
    signatureIsValid: ([UInt8], [UInt8]) -> Bool
  ) -> Bool {
    let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = try? Base64URL.decode(parts[0]),
      case .object(let header)? = EmulatorJSON.decode(headerBytes),
      header["alg"]?.stringValue == "ES256",
      header["kid"]?.stringValue == EmulatorApps.appleKeyID,
      let signature = try? Base64URL.decode(parts[2]),
      signatureIsValid(Array((parts[0] + "." + parts[1]).utf8), signature),
      let claims = try? EmulatorKeys.claims(of: secret),
      claims["iss"]?.stringValue == EmulatorApps.appleTeamID,
      claims["sub"]?.stringValue == clientID,
      claims["aud"]?.stringValue == issuer,
      let iat = claims["iat"]?.doubleValue, let exp = claims["exp"]?.doubleValue
    else { return false }
    let time = now.timeIntervalSince1970
    return exp > time && exp - iat <= 15_777_000 && iat <= time + 60
  }

  // MARK: Token

  func token(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.appleError("invalid_request")
    }
    if let error = checkClient(request) { return error }
    switch request.form("grant_type") {
    case "authorization_code": return exchangeCode(request)
    case "refresh_token": return refresh(request)
    case nil: return Self.appleError("invalid_request")
    default: return Self.appleError("unsupported_grant_type")
    }
  }

  private func exchangeCode(_ request: EmulatorRequest) -> HTTPResponse {
    guard let code = request.form("code") else { return Self.appleError("invalid_request") }
    guard
      case .redeemed(let issued) = environment.tokens.redeemCode(
        code, provider: name, now: request.now),
      issued.clientID == request.form("client_id")
    else { return Self.appleError("invalid_grant") }
    // Native codes (issued without a redirect URI) take none; web codes need theirs.
    guard request.form("redirect_uri") == issued.extra["redirect_uri"],
      EmulatorAuthorization.pkceMatches(
        challenge: issued.extra["code_challenge"], method: issued.extra["code_challenge_method"],
        verifier: request.form("code_verifier"))
    else { return Self.appleError("invalid_grant") }
    guard let user = environment.user(issued.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    let now = request.now
    let access = issueAccessToken(user: user, issued: issued, now: now)
    let refresh = TokenRegistry.makeValue(prefix: "r", byteCount: 24)
    environment.tokens.insert(
      IssuedToken(
        value: refresh, kind: .refresh, provider: name, clientID: issued.clientID,
        userID: user.id, scopes: issued.scopes, issuedAt: now, expiresAt: nil,
        grantID: issued.grantID))
    do {
      let idToken = try makeIDToken(
        user: user, clientID: issued.clientID, scopes: issued.scopes,
        nonce: issued.extra["nonce"], now: now)
      return EmulatorJSON.response([
        "access_token": .string(access), "token_type": "Bearer",
        "expires_in": EmulatorJSON.number(environment.lifetimes(for: name).accessToken),
        "refresh_token": .string(refresh), "id_token": .string(idToken),
      ])
    } catch {
      return Self.appleError("server_error", status: 500)
    }
  }

  private func refresh(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.form("refresh_token") else {
      return Self.appleError("invalid_request")
    }
    guard
      let token = environment.tokens.live(value, kind: .refresh, provider: name, at: request.now),
      token.clientID == request.form("client_id")
    else { return Self.appleError("invalid_grant") }
    guard let user = environment.user(token.userID), !user.isDisabled else {
      return accountDisabled(endpoint: "token", request: request)
    }
    let access = issueAccessToken(user: user, issued: token, now: request.now)
    do {
      let idToken = try makeIDToken(
        user: user, clientID: token.clientID, scopes: token.scopes, nonce: nil,
        now: request.now)
      // No refresh_token: Apple does not rotate them.
      return EmulatorJSON.response([
        "access_token": .string(access), "token_type": "Bearer",
        "expires_in": EmulatorJSON.number(environment.lifetimes(for: name).accessToken),
        "id_token": .string(idToken),
      ])
    } catch {
      return Self.appleError("server_error", status: 500)
    }
  }

  private func issueAccessToken(user: EmulatedUser, issued: IssuedToken, now: Date) -> String {
    let access = TokenRegistry.makeValue(prefix: "a", byteCount: 24)
    environment.tokens.insert(
      IssuedToken(
        value: access, kind: .access, provider: name, clientID: issued.clientID,
        userID: user.id, scopes: issued.scopes, issuedAt: now,
        expiresAt: now.addingTimeInterval(environment.lifetimes(for: name).accessToken),
        grantID: issued.grantID))
    return access
  }

  /// An ID token as Apple issues it: RS256, `email_verified` and `is_private_email` as
  /// strings, `real_user_status`, `nonce_supported`, `nonce` when one was sent.
  func makeIDToken(
    user: EmulatedUser, clientID: String, scopes: [String], nonce: String?, now: Date
  ) throws -> String {
    let iat = now.timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(Self.issuer), "aud": .string(clientID),
      "sub": .string(user.subject(at: name)), "iat": .number(iat),
      "exp": .number(iat + environment.lifetimes(for: name).idToken), "auth_time": .number(iat),
      "nonce_supported": true, "real_user_status": 2,
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    if let email = user.email {
      claims["email"] = .string(email)
      claims["email_verified"] = "true"
      claims["is_private_email"] = .string(
        email.hasSuffix("privaterelay.appleid.com") ? "true" : "false")
    }
    return try environment.keys.jwt(claims, signing: .rs256)
  }

  // MARK: Keys, revoke

  func keys(_ request: EmulatorRequest) -> HTTPResponse {
    EmulatorJSON.response(environment.keys.jwks([.rs256]))
  }

  func revoke(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm else { return Self.appleError("invalid_request") }
    if let error = checkClient(request) { return error }
    guard let value = request.form("token") else { return Self.appleError("invalid_request") }
    if let token = environment.tokens.lookup(value), token.provider == name {
      environment.tokens.revokeGrant(token.grantID)
    }
    return HTTPResponse(status: 200)
  }

  /// What an iOS app receives from `ASAuthorizationAppleIDProvider` for `user`: an
  /// authorization code issued to `clientID` without a redirect URI (exchange it within five
  /// minutes) and the identity token, with `nonce` when one was given.
  func nativeAuthorization(user: EmulatedUser, clientID: String, nonce: String?, now: Date)
    throws -> (code: String, identityToken: String)
  {
    let code = TokenRegistry.makeValue(prefix: "c", byteCount: 24)
    var extra: [String: String] = [:]
    extra["nonce"] = nonce
    environment.tokens.insert(
      IssuedToken(
        value: code, kind: .code, provider: name, clientID: clientID, userID: user.id,
        scopes: ["name", "email"], issuedAt: now,
        expiresAt: now.addingTimeInterval(environment.lifetimes(for: name).authorizationCode),
        grantID: TokenRegistry.makeGrantID(), extra: extra))
    let token = try makeIDToken(
      user: user, clientID: clientID, scopes: ["name", "email"], nonce: nonce, now: now)
    return (code, token)
  }

  /// The body Apple posts to an app's notification endpoint for `type` about `user`:
  /// `{"payload": JWT}`, the JWT RS256 from the keys above with an `events` JSON string.
  /// `consent-revoked` and `account-delete` also revoke the user's grants here.
  func notification(type: String, user: EmulatedUser, clientID: String, now: Date) throws
    -> JSONValue
  {
    let ms = (now.timeIntervalSince1970 * 1000).rounded(.down)
    var event: [String: JSONValue] = [
      "type": .string(type), "sub": .string(user.subject(at: name)), "event_time": .number(ms),
    ]
    if type.hasPrefix("email-"), let email = user.email {
      event["email"] = .string(email)
      event["is_private_email"] = "true"
    }
    let payload = try environment.keys.jwt(
      [
        "iss": .string(Self.issuer), "aud": .string(clientID),
        "iat": .number(now.timeIntervalSince1970.rounded(.down)),
        "exp": .number(now.timeIntervalSince1970.rounded(.down) + 86_400),  // Apple: a day
        "jti": .string(TokenRegistry.makeValue(prefix: "", byteCount: 12)),
        "events": .string(JSONValue.object(event).jsonText),
      ], signing: .rs256)
    if type == "consent-revoked" || type == "account-delete" {
      environment.tokens.invalidate(provider: name, userID: user.id, kinds: [.access, .refresh])
      environment.forgetAppleAuthorizations(userID: user.id)
    }
    return ["payload": .string(payload)]
  }
}
