import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A small X on 127.0.0.1, served the emulator way (`/<production host>/<path>`): it checks
/// what the real X checks (Basic auth, PKCE S256, single-use codes and refresh tokens, bearer
/// tokens, OAuth 1.0a signatures) and answers with X's documented bodies.
///
/// Its consent pages answer `200` with the redirect URL as plain text; the test's browser
/// closure follows it.
final class FakeXServer: @unchecked Sendable {
  // @unchecked: the mutable state below is only touched under `lock`.
  private let lock = NSLock()
  private var codes: [String: (challenge: String, redirectURI: String)] = [:]
  private var accessTokens: Set<String> = []
  private var requestTokens: [String: (secret: String, callback: String)] = [:]
  private var verifiers: [String: String] = [:]
  private var oauth1Tokens: [String: String] = [:]
  private var counter = 0
  private(set) var log: [String] = []
  let ledger = XTokenLedger(live: [])

  let server: LoopbackServer
  private var serving: Task<Void, Never>?

  var emulator: EmulatorHost { EmulatorHost(host: "127.0.0.1", port: server.port) }

  init() throws {
    server = try LoopbackServer(port: 0)
  }

  func start() {
    let server = self.server
    serving = Task { [self] in
      try? await server.run { request in self.handle(request) }
    }
  }

  func stop() async {
    server.close()
    await serving?.value
  }

  /// Requests seen, as `METHOD /path`.
  var requests: [String] { locked { log } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  private func next(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)-\(counter)"
  }

  // MARK: Routing

  private func handle(_ request: HTTPRequest) -> HTTPResponse {
    locked { log.append("\(request.method) \(request.path)") }
    switch (request.method, request.path) {
    case ("GET", "/x.com/i/oauth2/authorize"): return authorize(request)
    case ("POST", "/api.x.com/2/oauth2/token"): return token(request)
    case ("GET", "/api.x.com/2/users/me"): return usersMe(request)
    case ("POST", "/api.x.com/2/oauth2/revoke"): return revoke(request)
    case ("POST", "/api.x.com/oauth/request_token"): return requestToken(request)
    case ("GET", "/api.x.com/oauth/authenticate"): return authenticate(request)
    case ("POST", "/api.x.com/oauth/access_token"): return accessToken(request)
    case ("GET", "/api.x.com/1.1/account/verify_credentials.json"):
      return verifyCredentials(request)
    case ("POST", "/api.x.com/1.1/oauth/invalidate_token"): return invalidate(request)
    default: return .json(#"{"title":"Not Found","type":"about:blank","status":404}"#, status: 404)
    }
  }

  private func form(_ request: HTTPRequest) -> [String: String] {
    Dictionary(
      (request.formItems ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }
    )
  }

  private var basicOK: (HTTPRequest) -> Bool {
    { $0.headers["Authorization"] == XFixture.basic }
  }

  private static let unauthorizedClient = HTTPResponse.json(
    XFixture.missingAuthorization, status: 401)

  // MARK: OAuth 2.0

  private func authorize(_ request: HTTPRequest) -> HTTPResponse {
    guard request.uniqueQueryValue("client_id") == XFixture.clientID,
      request.uniqueQueryValue("response_type") == "code",
      request.uniqueQueryValue("code_challenge_method") == "S256",
      request.uniqueQueryValue("scope") == "users.read tweet.read offline.access",
      let challenge = request.uniqueQueryValue("code_challenge"),
      let state = request.uniqueQueryValue("state"),
      let redirectURI = request.uniqueQueryValue("redirect_uri")
    else { return .text("bad authorization request", status: 400) }
    let code = locked { () -> String in
      let code = next("code")
      codes[code] = (challenge, redirectURI)
      return code
    }
    var components = URLComponents(string: redirectURI)
    components?.queryItems = [
      URLQueryItem(name: "state", value: state), URLQueryItem(name: "code", value: code),
    ]
    return .text(components?.string ?? "")
  }

  private func token(_ request: HTTPRequest) -> HTTPResponse {
    guard basicOK(request) else { return Self.unauthorizedClient }
    let form = form(request)
    switch form["grant_type"] {
    case "authorization_code":
      let pair = locked { () -> (String, String)? in
        guard let code = form["code"], let grant = codes.removeValue(forKey: code),
          grant.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
          XFixture.challenge(for: verifier) == grant.challenge
        else { return nil }
        let pair = (next("at"), next("rt"))
        accessTokens.insert(pair.0)
        return pair
      }
      guard let pair else { return .json(XFixture.invalidCode, status: 400) }
      ledger.issue(pair.1)
      return .json(XFixture.token(pair.0, refresh: pair.1))
    case "refresh_token":
      guard let token = form["refresh_token"], let next = ledger.rotate(token) else {
        return .json(XFixture.spentRefreshToken, status: 400)
      }
      locked { _ = accessTokens.insert(next.access) }
      return .json(XFixture.token(next.access, refresh: next.refresh))
    default:
      return .json(#"{"error":"unsupported_grant_type"}"#, status: 400)
    }
  }

  private func usersMe(_ request: HTTPRequest) -> HTTPResponse {
    let bearer = request.headers["Authorization"].flatMap { header in
      header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil
    }
    guard request.uniqueQueryValue("user.fields") == "profile_image_url",
      let bearer, locked({ accessTokens.contains(bearer) })
    else { return .json(XFixture.unauthorizedProblem, status: 401) }
    return .json(XFixture.usersMe)
  }

  private func revoke(_ request: HTTPRequest) -> HTTPResponse {
    guard basicOK(request) else { return Self.unauthorizedClient }
    let form = form(request)
    guard let token = form["token"], form["token_type_hint"] != nil else {
      return .json(#"{"error":"invalid_request"}"#, status: 400)
    }
    if form["token_type_hint"] == "refresh_token" { ledger.revokeAll() }
    locked { _ = accessTokens.remove(token) }
    return .json(XFixture.revoked)
  }

  // MARK: OAuth 1.0a

  /// The signed request as the client sent it, for re-verifying the signature.
  private func transportRequest(_ request: HTTPRequest) -> TransportRequest? {
    guard let url = URL(string: server.baseURL + request.target) else { return nil }
    var headers: HTTPHeaderFields = [:]
    for field in request.headers { headers.append(name: field.name, value: field.value) }
    return TransportRequest(
      method: request.method, url: url, headers: headers,
      body: request.body.isEmpty ? nil : Data(request.body))
  }

  /// The `oauth_token` of a request whose signature verifies with `tokenSecret(token)`.
  private func verifiedToken(
    _ request: HTTPRequest, extra: [String] = [], tokenSecret: (String?) -> String??
  ) -> (token: String?, parameters: [String: String])? {
    guard let sent = transportRequest(request),
      let parameters = try? XFixture.oauthParameters(sent),
      let secret = tokenSecret(parameters["oauth_token"]),
      let nonce = parameters["oauth_nonce"], let timestamp = parameters["oauth_timestamp"]
    else { return nil }
    var unsigned = sent
    unsigned.headers["Authorization"] = nil
    let signer = OAuth1Signer(
      consumerKey: XFixture.consumerKey, consumerSecret: XFixture.consumerSecret)
    guard
      let expected = try? signer.signature(
        for: unsigned, token: parameters["oauth_token"], tokenSecret: secret.map { Secret($0) },
        oauthParameters: extra.compactMap { name in parameters[name].map { (name, $0) } },
        nonce: nonce, timestamp: timestamp),
      expected.signature == parameters["oauth_signature"]
    else { return nil }
    return (parameters["oauth_token"], parameters)
  }

  private static let badSignature = HTTPResponse.json(XFixture.error32, status: 401)

  private func requestToken(_ request: HTTPRequest) -> HTTPResponse {
    guard
      let (_, parameters) = verifiedToken(
        request, extra: ["oauth_callback"], tokenSecret: { _ in .some(nil) }),
      let callback = parameters["oauth_callback"]
    else { return Self.badSignature }
    let (token, secret) = locked { () -> (String, String) in
      let pair = (next("req"), next("req-SECRET"))
      requestTokens[pair.0] = (pair.1, callback)
      return pair
    }
    return HTTPResponse(
      headers: ["Content-Type": "text/html; charset=utf-8"],
      body: Array(
        "oauth_token=\(token)&oauth_token_secret=\(secret)&oauth_callback_confirmed=true".utf8))
  }

  private func authenticate(_ request: HTTPRequest) -> HTTPResponse {
    guard let token = request.uniqueQueryValue("oauth_token"),
      let callback = locked({ requestTokens[token]?.callback }),
      var components = URLComponents(string: callback)
    else { return .text("unknown request token", status: 400) }
    let verifier = locked { () -> String in
      let verifier = next("verifier")
      verifiers[token] = verifier
      return verifier
    }
    components.queryItems =
      (components.queryItems ?? []) + [
        URLQueryItem(name: "oauth_token", value: token),
        URLQueryItem(name: "oauth_verifier", value: verifier),
      ]
    return .text(components.string ?? "")
  }

  private func accessToken(_ request: HTTPRequest) -> HTTPResponse {
    guard
      let (token, parameters) = verifiedToken(
        request, extra: ["oauth_verifier"],
        tokenSecret: { token in self.locked { token.flatMap { self.requestTokens[$0]?.secret } } }),
      let token
    else { return Self.badSignature }
    let pair = locked { () -> (String, String)? in
      guard verifiers.removeValue(forKey: token) == parameters["oauth_verifier"] else { return nil }
      requestTokens[token] = nil
      let pair = (next("acc"), next("acc-SECRET"))
      oauth1Tokens[pair.0] = pair.1
      return pair
    }
    guard let pair else { return .json(XFixture.error89, status: 401) }
    return HTTPResponse(
      headers: ["Content-Type": "text/html; charset=utf-8"],
      body: Array(
        ("oauth_token=\(pair.0)&oauth_token_secret=\(pair.1)&user_id=\(XFixture.userID)"
          + "&screen_name=XDevelopers").utf8))
  }

  private func userContext(_ request: HTTPRequest) -> String?? {
    // .none: bad signature; .some(nil): signature fine but the token is dead.
    var known = true
    guard
      let (token, _) = verifiedToken(
        request,
        tokenSecret: { token in
          self.locked {
            guard let token, let secret = self.oauth1Tokens[token] else {
              known = false
              return .some(nil)
            }
            return .some(secret)
          }
        })
    else { return known ? .none : .some(nil) }
    return known ? .some(token) : .some(nil)
  }

  private func verifyCredentials(_ request: HTTPRequest) -> HTTPResponse {
    guard request.uniqueQueryValue("skip_status") == "true" else {
      return .text("missing skip_status", status: 400)
    }
    switch userContext(request) {
    case .none: return Self.badSignature
    case .some(nil): return .json(XFixture.error89, status: 401)
    case .some: return .json(XFixture.verifyCredentials)
    }
  }

  private func invalidate(_ request: HTTPRequest) -> HTTPResponse {
    switch userContext(request) {
    case .none: return Self.badSignature
    case .some(nil): return .json(XFixture.error89, status: 401)
    case .some(let token?):
      locked { _ = oauth1Tokens.removeValue(forKey: token) }
      return .json(#"{"access_token":"\#(token)"}"#)
    }
  }

  // MARK: The test's browser

  /// Plays the user approving the app: GETs the consent page and returns the redirect URL.
  @Sendable static func approve(_ url: URL) async throws -> URL {
    var request = URLRequest(url: url)
    request.timeoutInterval = 60
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode
    try #require(status == 200, "consent page answered \(status ?? 0)")
    return try #require(URL(string: String(decoding: data, as: UTF8.self)))
  }
}
