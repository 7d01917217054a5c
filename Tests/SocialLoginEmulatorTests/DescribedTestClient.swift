import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator

/// A raw-HTTP client of one described provider on the emulator, with the emulator's default
/// app: what a test needs to drive a login without the SDK's engine (built elsewhere).
struct DescribedTestClient {
  let emulator: ProviderEmulator
  let description: ProviderDescription
  let app: EmulatorApps.DescribedApp
  /// The `{tenant}` (Microsoft), else the app's.
  var tenant: String?
  /// Whether token requests send `Accept: application/json`.
  var acceptsJSON = true
  let redirectURI = "http://127.0.0.1/callback"
  /// A PKCE verifier of 43+ characters, and its S256 challenge.
  let verifier = "verifier-" + String(repeating: "v", count: 40)
  var challenge: String { Base64URL.encode(SHA256.hash(Array(verifier.utf8))) }

  init(_ emulator: ProviderEmulator, _ id: ProviderID, tenant: String? = nil) throws {
    guard let description = ProviderDescription.builtIn(id),
      let app = EmulatorApps.describedApp(for: id)
    else { throw AuthError(.configuration, "no described provider \(id)") }
    self.emulator = emulator
    self.description = description
    self.app = app
    self.tenant = tenant ?? app.parameters["tenant"]
  }

  /// The emulator URL of the endpoint `name`, with `query`.
  func url(_ name: String, query: [(String, String)] = []) throws -> URL {
    guard var text = description.endpoint(name)?.production else {
      throw AuthError(.configuration, "no endpoint \(name)")
    }
    text = text.replacingOccurrences(of: "{client_id}", with: app.clientID)
    if let tenant { text = text.replacingOccurrences(of: "{tenant}", with: tenant) }
    guard let production = URL(string: text),
      var components = URLComponents(
        url: emulator.url(for: production), resolvingAgainstBaseURL: false)
    else { throw AuthError(.configuration, "bad URL \(text)") }
    if !query.isEmpty {
      components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
      components.percentEncodedQuery = components.percentEncodedQuery?
        .replacingOccurrences(of: "+", with: "%2B")
    }
    guard let url = components.url else { throw AuthError(.configuration, "bad query") }
    return url
  }

  /// The authorization request's query, PKCE S256, `state` and `nonce`, changed by `change`.
  func authorizeQuery(
    scopes: [String]? = nil, _ change: (inout [(String, String)]) -> Void = { _ in }
  )
    -> [(String, String)]
  {
    var query: [(String, String)] = [
      ("response_type", "code"), ("client_id", app.clientID), ("redirect_uri", redirectURI),
      ("state", "state-1"), ("nonce", "nonce-1"), ("code_challenge", challenge),
      ("code_challenge_method", "S256"),
    ]
    let scopes = scopes ?? description.authorization.defaultScopes
    if !scopes.isEmpty {
      query.append(("scope", scopes.joined(separator: description.authorization.scopeSeparator)))
    }
    change(&query)
    return query
  }

  /// Where the authorize endpoint sends the browser, as query items of the redirect.
  func authorize(_ query: [(String, String)]) async throws -> [String: String] {
    let answer = try await RawHTTP.send("GET", try url("authorize", query: query))
    guard answer.status == 302, let location = answer.headers["location"],
      let items = URLComponents(string: location)?.queryItems
    else {
      throw AuthError(.invalidResponse, "authorize answered \(answer.status): \(answer.text)")
    }
    var result: [String: String] = [:]
    for item in items { result[item.name] = item.value ?? "" }
    return result
  }

  /// A code from a login with the default query.
  func code(scopes: [String]? = nil) async throws -> String {
    let redirect = try await authorize(authorizeQuery(scopes: scopes))
    guard let code = redirect["code"] else {
      throw AuthError(.invalidResponse, "no code: \(redirect)")
    }
    return code
  }

  /// A token request with the client authentication the description's rules name
  /// (`basic`: force HTTP Basic or the form).
  func token(_ pairs: [(String, String)], basic: Bool? = nil, secret: String? = nil)
    async throws -> RawHTTP.Answer
  {
    let secret = secret ?? app.clientSecret
    let useBasic = basic ?? (description.client.authentication == .clientSecretBasic)
    var form = pairs
    var headers: [String: String] = [:]
    if useBasic {
      headers["Authorization"] =
        "Basic " + Data((app.clientID + ":" + secret).utf8).base64EncodedString()
    } else {
      form += [("client_id", app.clientID), ("client_secret", secret)]
    }
    if acceptsJSON { headers["Accept"] = "application/json" }
    return try await RawHTTP.form(try url("token"), form, headers: headers)
  }

  /// The code grant with the right verifier and redirect URI.
  func exchange(_ code: String, verifier: String? = nil) async throws -> RawHTTP.Answer {
    try await token([
      ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
      ("code_verifier", verifier ?? self.verifier),
    ])
  }

  func refresh(_ refreshToken: String) async throws -> RawHTTP.Answer {
    try await token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
  }

  /// `GET` (or `method`) the endpoint `name` with a bearer token.
  func call(_ name: String, bearer: String, method: String = "GET") async throws -> RawHTTP.Answer {
    try await RawHTTP.send(method, try url(name), headers: ["Authorization": "Bearer " + bearer])
  }
}

extension RawHTTP.Answer {
  /// The string at `key` of a JSON object answer.
  func string(_ key: String) -> String? { json?[key]?.stringValue }
}

/// The claims of a compact JWS, unchecked.
func unverifiedClaims(_ token: String) throws -> [String: JSONValue] {
  let parts = token.split(separator: ".", omittingEmptySubsequences: false)
  guard parts.count == 3,
    let data = try? Base64URL.decode(parts[1]),
    case .object(let claims) = try JSONDecoder().decode(JSONValue.self, from: Data(data))
  else { throw AuthError(.invalidToken, "not a JWS") }
  return claims
}
