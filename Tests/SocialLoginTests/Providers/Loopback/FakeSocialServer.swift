import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto
import Testing

/// A small Facebook + LINE look-alike on 127.0.0.1 for end-to-end tests: real HTTP, checks the
/// requests the way the providers do (client secret, `appsecret_proof`, PKCE S256, nonce,
/// Bearer tokens), keeps issued and revoked tokens, and injects one-shot faults per route.
///
/// Facebook lives under `/fb/…` (`dialog`, `access_token`, `debug_token`, `me`,
/// `me/permissions`), LINE under `/line/…` (`authorize`, `token`, `verify`, `profile`,
/// `revoke`). The consent pages answer 200 with the redirect URL as their body; the test's
/// browser closure follows it.
final class FakeSocialServer: Sendable {
  static let appID = "1234567890"
  static let appSecret = "fb-app-SECRET"
  static let channelID = "1656000000"
  static let channelSecret = "line-channel-SECRET-0123456789abcdef"
  static let lineUser = "U1234567890abcdef1234567890abcdef"

  struct State: Sendable {
    var counter = 0
    /// Authorization code → (redirect URI, PKCE challenge, nonce).
    var codes: [String: (redirectURI: String, challenge: String?, nonce: String?)] = [:]
    var validTokens: Set<String> = []
    var lineRefreshTokens: Set<String> = []
    /// Route (`METHOD /path`) → one-shot responses served before the normal handler.
    var faults: [String: [HTTPResponse]] = [:]
    var requests: [String] = []
    /// Set when a Graph call had a missing or wrong `appsecret_proof`.
    var badProofs = 0
    /// Graph `190` subcode answered for every user-token call, when set.
    var invalidateWithSubcode: Int?
  }

  let server: LoopbackServer
  let state = Locked(State())
  private let task: Task<Void, Never>

  init() throws {
    let server = try LoopbackServer()
    self.server = server
    let state = self.state
    task = Task { try? await server.run { request in Self.handle(request, state: state) } }
  }

  deinit { task.cancel() }

  func close() {
    task.cancel()
    server.close()
  }

  var base: String { server.baseURL }

  func url(_ path: String) throws -> URL { try #require(URL(string: base + path)) }

  /// Queues `response` for the next request to `route` (`"POST /line/token"`).
  func fail(_ route: String, with response: HTTPResponse) {
    state.withLock { $0.faults[route, default: []].append(response) }
  }

  func count(_ route: String) -> Int { state.withLock { $0.requests.filter { $0 == route }.count } }

  // MARK: Handling

  private static func handle(_ request: HTTPRequest, state: Locked<State>) -> HTTPResponse {
    let route = "\(request.method) \(request.path)"
    let fault = state.withLock { state -> HTTPResponse? in
      state.requests.append(route)
      guard var queued = state.faults[route], !queued.isEmpty else { return nil }
      let first = queued.removeFirst()
      state.faults[route] = queued
      return first
    }
    if let fault { return fault }
    let query = Dictionary(
      request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    let form = Dictionary(
      (request.formItems ?? []).map { ($0.name, $0.value) },
      uniquingKeysWith: { first, _ in first })
    return state.withLock { state in
      switch route {
      case "GET /fb/dialog": return facebookDialog(query, &state)
      case "GET /fb/access_token": return facebookToken(query, &state)
      case "GET /fb/debug_token": return facebookDebug(query, &state)
      case "GET /fb/me": return facebookMe(query, &state)
      case "DELETE /fb/me/permissions": return facebookRevoke(query, &state)
      case "GET /line/authorize": return lineAuthorize(query, &state)
      case "POST /line/token": return lineToken(form, &state)
      case "GET /line/verify": return lineVerify(query, &state)
      case "GET /line/profile": return lineProfile(request, &state)
      case "POST /line/revoke": return lineRevoke(form, &state)
      default: return .json(#"{"message":"not found"}"#, status: 404)
      }
    }
  }

  private static func redirect(_ redirectURI: String?, _ items: [(String, String)]) -> HTTPResponse
  {
    guard let redirectURI, var components = URLComponents(string: redirectURI) else {
      return .text("no redirect_uri", status: 400)
    }
    components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
    return .text(components.url?.absoluteString ?? "", status: 200)
  }

  private static func graphError(_ code: Int, subcode: Int? = nil) -> HTTPResponse {
    let sub = subcode.map { #","error_subcode":\#($0)"# } ?? ""
    return .json(
      #"{"error":{"message":"Invalid OAuth access token.","type":"OAuthException","code":\#(code)\#(sub),"fbtrace_id":"F1"}}"#,
      status: 400)
  }

  private static func proofIsValid(_ query: [String: String], _ state: inout State) -> Bool {
    guard let token = query["access_token"], let proof = query["appsecret_proof"] else {
      state.badProofs += 1
      return false
    }
    let expected = HMAC<SHA256>.authenticationCode(
      for: Array(token.utf8), using: Array(appSecret.utf8)
    ).map { String(format: "%02x", $0) }.joined()
    if proof != expected { state.badProofs += 1 }
    return proof == expected
  }

  private static func facebookDialog(_ query: [String: String], _ state: inout State)
    -> HTTPResponse
  {
    guard query["client_id"] == appID, query["response_type"] == "code",
      query["scope"] == "public_profile,email", let stateValue = query["state"]
    else { return .text("bad dialog request", status: 400) }
    state.counter += 1
    let code = "fb-code-\(state.counter)"
    state.codes[code] = (query["redirect_uri"] ?? "", nil, nil)
    return redirect(query["redirect_uri"], [("code", code), ("state", stateValue)])
  }

  private static func facebookToken(_ query: [String: String], _ state: inout State) -> HTTPResponse
  {
    guard query["client_id"] == appID, query["client_secret"] == appSecret else {
      return graphError(101)
    }
    if query["grant_type"] == "fb_exchange_token" {
      guard let old = query["fb_exchange_token"], state.validTokens.contains(old) else {
        return graphError(190, subcode: 463)
      }
      if let subcode = state.invalidateWithSubcode { return graphError(190, subcode: subcode) }
    } else {
      guard let code = query["code"], let issued = state.codes.removeValue(forKey: code),
        issued.redirectURI == query["redirect_uri"]
      else { return graphError(100) }
    }
    state.counter += 1
    let token = "fb-token-\(state.counter)"
    state.validTokens.insert(token)
    return .json(#"{"access_token":"\#(token)","token_type":"bearer","expires_in":5183944}"#)
  }

  private static func facebookDebug(_ query: [String: String], _ state: inout State) -> HTTPResponse
  {
    guard query["access_token"] == "\(appID)|\(appSecret)", proofIsValid(query, &state) else {
      return graphError(190)
    }
    let input = query["input_token"] ?? ""
    let appID = input.hasPrefix("foreign-") ? "5550001" : Self.appID
    guard state.validTokens.contains(input) || input.hasPrefix("foreign-") else {
      return .json(
        #"{"data":{"app_id":"\#(appID)","type":"USER","application":"Fake","error":{"code":190,"message":"Session has expired","subcode":463},"expires_at":1699990000,"is_valid":false,"scopes":[],"user_id":"10001"}}"#
      )
    }
    return .json(
      #"{"data":{"app_id":"\#(appID)","type":"USER","application":"Fake","data_access_expires_at":1707776000,"expires_at":0,"is_valid":true,"scopes":["email","public_profile"],"user_id":"10001"}}"#
    )
  }

  private static func facebookMe(_ query: [String: String], _ state: inout State) -> HTTPResponse {
    guard proofIsValid(query, &state) else { return graphError(100) }
    if let subcode = state.invalidateWithSubcode { return graphError(190, subcode: subcode) }
    guard let token = query["access_token"], state.validTokens.contains(token) else {
      return graphError(190, subcode: 460)
    }
    guard query["fields"] == "id,name,email,picture" else { return graphError(100) }
    return .json(
      #"{"id":"10001","name":"Ada Lovelace","email":"ada@example.com","picture":{"data":{"url":"https://platform-lookaside.fbsbx.com/p/10001"}}}"#
    )
  }

  private static func facebookRevoke(_ query: [String: String], _ state: inout State)
    -> HTTPResponse
  {
    guard proofIsValid(query, &state), let token = query["access_token"],
      state.validTokens.contains(token)
    else { return graphError(190) }
    state.validTokens.removeAll()
    return .json(#"{"success":true}"#)
  }

  private static func lineAuthorize(_ query: [String: String], _ state: inout State) -> HTTPResponse
  {
    guard let stateValue = query["state"] else {
      return redirect(
        query["redirect_uri"],
        [("error", "INVALID_REQUEST"), ("error_description", "'state' is not specified")])
    }
    guard query["client_id"] == channelID, query["code_challenge_method"] == "S256",
      query["bot_prompt"] == "normal"
    else { return .text("bad authorize request", status: 400) }
    state.counter += 1
    let code = "line-code-\(state.counter)"
    state.codes[code] = (query["redirect_uri"] ?? "", query["code_challenge"], query["nonce"])
    return redirect(
      query["redirect_uri"],
      [("code", code), ("state", stateValue), ("friendship_status_changed", "true")])
  }

  private static func lineError(_ error: String, _ description: String, status: Int = 400)
    -> HTTPResponse
  {
    .json(#"{"error":"\#(error)","error_description":"\#(description)"}"#, status: status)
  }

  private static func lineToken(_ form: [String: String], _ state: inout State) -> HTTPResponse {
    guard form["client_id"] == channelID, form["client_secret"] == channelSecret else {
      return lineError("invalid_client", "invalid client")
    }
    state.counter += 1
    let access = "line-access-\(state.counter)"
    switch form["grant_type"] {
    case "authorization_code":
      guard let code = form["code"], let issued = state.codes.removeValue(forKey: code),
        issued.redirectURI == form["redirect_uri"]
      else { return lineError("invalid_grant", "invalid authorization code") }
      let verifier = form["code_verifier"] ?? ""
      guard issued.challenge == PKCE.s256Challenge(for: verifier) else {
        return lineError("invalid_grant", "code_verifier does not match")
      }
      let refresh = "line-refresh-\(state.counter)"
      state.validTokens.insert(access)
      state.lineRefreshTokens.insert(refresh)
      let claims: JSONValue = [
        "iss": "https://access.line.me", "sub": .string(lineUser), "aud": .string(channelID),
        "iat": 1_700_000_000, "exp": 1_700_003_600, "nonce": .string(issued.nonce ?? ""),
        "amr": ["pwd"], "name": "Taro", "email": "taro@example.jp",
      ]
      let idToken = TestTokens.hs256(
        claims, header: ["typ": "JWT", "alg": "HS256"], key: Array(channelSecret.utf8))
      return .json(
        #"{"access_token":"\#(access)","expires_in":2592000,"id_token":"\#(idToken)","refresh_token":"\#(refresh)","scope":"profile openid email","token_type":"Bearer"}"#
      )
    case "refresh_token":
      guard let refresh = form["refresh_token"], state.lineRefreshTokens.contains(refresh) else {
        return lineError("invalid_grant", "invalid refresh token")
      }
      state.validTokens.insert(access)
      return .json(
        #"{"token_type":"Bearer","scope":"profile openid email","access_token":"\#(access)","expires_in":2592000,"refresh_token":"\#(refresh)"}"#
      )
    default:
      return lineError("unsupported_grant_type", "unsupported grant type")
    }
  }

  private static func lineVerify(_ query: [String: String], _ state: inout State) -> HTTPResponse {
    guard let token = query["access_token"], state.validTokens.contains(token) else {
      return lineError("invalid_request", "access token expired")
    }
    return .json(
      #"{"scope":"profile openid email","client_id":"\#(channelID)","expires_in":2591000}"#)
  }

  private static func lineProfile(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
    let header = request.headers.first { $0.name.lowercased() == "authorization" }?.value ?? ""
    guard header.hasPrefix("Bearer "), state.validTokens.contains(String(header.dropFirst(7)))
    else {
      return .json(
        #"{"message":"Authentication failed. Confirm that the access token in the authorization header is valid."}"#,
        status: 401)
    }
    return .json(
      #"{"userId":"\#(lineUser)","displayName":"Brown","pictureUrl":"https://profile.line-scdn.net/abc","statusMessage":"Hello, LINE!"}"#
    )
  }

  private static func lineRevoke(_ form: [String: String], _ state: inout State) -> HTTPResponse {
    guard form["client_id"] == channelID, form["client_secret"] == channelSecret else {
      return lineError("invalid_client", "invalid client")
    }
    if let token = form["access_token"] { state.validTokens.remove(token) }
    state.lineRefreshTokens.removeAll()
    return HTTPResponse(status: 200)
  }
}
