import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// X's OAuth 1.0a three-legged flow (providers.md §2.2): every call's HMAC-SHA1 signature is
/// checked, against the URL the client sent and against the production URL.
extension EmulatedX {
  func oauth1Routes(host: String) -> [EmulatorRoute] {
    [
      EmulatorRoute(["POST"], host, "/oauth/request_token", endpoint: "request_token", requestToken),
      EmulatorRoute(["GET"], host, "/oauth/authenticate", endpoint: "authorize", oauth1Authorize),
      EmulatorRoute(["GET"], host, "/oauth/authorize", endpoint: "authorize", oauth1Authorize),
      EmulatorRoute(["POST"], host, "/oauth/access_token", endpoint: "access_token", accessToken),
      EmulatorRoute(
        ["GET"], host, "/1.1/account/verify_credentials.json", endpoint: "verify_credentials",
        verifyCredentials),
      EmulatorRoute(
        ["POST"], host, "/1.1/oauth/invalidate_token", endpoint: "invalidate_token",
        invalidateToken),
    ]
  }

  /// X API v1.1 error: `{"errors":[{"code":89,"message":"Invalid or expired token."}]}`.
  static func v1Error(_ code: Int, _ message: String, status: Int = 401) -> HTTPResponse {
    EmulatorJSON.response(
      ["errors": [["code": .number(Double(code)), "message": .string(message)]]], status: status)
  }

  static let couldNotAuthenticate = "Could not authenticate you."
  static let invalidOrExpired = "Invalid or expired token."

  /// The checked protocol parameters of a signed request.
  struct OAuth1Call {
    var parameters: [String: String]
    var token: IssuedToken?
  }

  /// Checks the consumer key, timestamp and signature; `tokenKinds` says which token the call
  /// must be signed with (none for the request-token call).
  func checkSignature(_ request: EmulatorRequest, tokenKinds: Set<IssuedToken.Kind>)
    -> Result<OAuth1Call, ErrorResponse>
  {
    guard let header = request.http.headers["Authorization"],
      let oauth = Self.parseOAuthHeader(header),
      oauth["oauth_consumer_key"] == EmulatorApps.twitterConsumerKey,
      oauth["oauth_signature_method"] == "HMAC-SHA1",
      let signature = oauth["oauth_signature"],
      oauth["oauth_nonce"]?.isEmpty == false,
      let timestamp = oauth["oauth_timestamp"].flatMap(Double.init)
    else { return .failure(ErrorResponse(Self.v1Error(32, Self.couldNotAuthenticate))) }
    guard abs(timestamp - request.now.timeIntervalSince1970) <= 300 else {
      return .failure(ErrorResponse(Self.v1Error(135, "Timestamp out of bounds.")))
    }
    var token: IssuedToken?
    var tokenSecret = ""
    if tokenKinds.isEmpty {
      guard oauth["oauth_token"] == nil else {
        return .failure(ErrorResponse(Self.v1Error(32, Self.couldNotAuthenticate)))
      }
    } else {
      guard let value = oauth["oauth_token"], let issued = environment.tokens.lookup(value),
        tokenKinds.contains(issued.kind), issued.provider == name,
        issued.isLive(at: request.now)
      else { return .failure(ErrorResponse(Self.v1Error(89, Self.invalidOrExpired))) }
      token = issued
      tokenSecret = issued.extra["secret"] ?? ""
    }
    var pairs = request.query.map { ($0.name, $0.value) } + request.form.map { ($0.name, $0.value) }
    pairs += oauth.filter { $0.key != "oauth_signature" && $0.key != "realm" }.map { ($0.key, $0.value) }
    let key = Self.percentEncode(EmulatorApps.twitterConsumerSecret) + "&"
      + Self.percentEncode(tokenSecret)
    let expected = Base64.decode(signature) ?? []
    for url in [request.emulatedURL, request.productionURL] {
      let base = Self.signatureBase(method: request.method, url: url, parameters: pairs)
      let mac = HMAC<SHA1>.authenticationCode(for: Array(base.utf8), using: Array(key.utf8))
      if ConstantTime.equals(mac, expected) {
        return .success(OAuth1Call(parameters: oauth, token: token))
      }
    }
    return .failure(ErrorResponse(Self.v1Error(32, Self.couldNotAuthenticate)))
  }

  /// `OAuth k="v", k2="v2"` → decoded pairs; `nil` when malformed.
  static func parseOAuthHeader(_ header: String) -> [String: String]? {
    guard header.count > 6, header.prefix(6).lowercased() == "oauth " else { return nil }
    var result: [String: String] = [:]
    for part in header.dropFirst(6).split(separator: ",") {
      let trimmed = part.trimmingCharacters(in: .whitespaces)
      guard let equals = trimmed.firstIndex(of: "=") else { return nil }
      let name = String(trimmed[..<equals])
      var value = trimmed[trimmed.index(after: equals)...]
      guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return nil }
      value = value.dropFirst().dropLast()
      guard let decoded = value.removingPercentEncoding, result[name] == nil else { return nil }
      result[name] = decoded
    }
    return result
  }

  /// RFC 3986 encoding: only `A-Z a-z 0-9 - . _ ~` stay.
  static func percentEncode(_ text: String) -> String {
    var output = ""
    for byte in text.utf8 {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        output.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        output += String(format: "%%%02X", byte)
      }
    }
    return output
  }

  static func signatureBase(method: String, url: String, parameters: [(String, String)]) -> String {
    let encoded: [(name: String, value: String)] = parameters.map { pair in
      (percentEncode(pair.0), percentEncode(pair.1))
    }
    let sorted = encoded.sorted { lhs, rhs in
      lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name
    }
    let parameterString = sorted.map { pair in pair.name + "=" + pair.value }
      .joined(separator: "&")
    return method.uppercased() + "&" + percentEncode(url) + "&" + percentEncode(parameterString)
  }

  // MARK: Endpoints

  func requestToken(_ request: EmulatorRequest) -> HTTPResponse {
    let call: OAuth1Call
    switch checkSignature(request, tokenKinds: []) {
    case .failure(let error): return error.response
    case .success(let checked): call = checked
    }
    guard let callback = call.parameters["oauth_callback"],
      callback == "oob" || EmulatorAuthorization.isRedirectable(callback)
    else {
      return Self.v1Error(417, "Desktop applications only support the oauth_callback value 'oob'",
        status: 401)
    }
    let token = TokenRegistry.makeValue(prefix: "xrq-", byteCount: 16)
    let secret = SecureRandom.urlSafeToken(byteCount: 24)
    environment.tokens.insert(
      IssuedToken(
        value: token, kind: .requestToken, provider: name,
        clientID: EmulatorApps.twitterConsumerKey, userID: "", scopes: [], issuedAt: request.now,
        expiresAt: request.now.addingTimeInterval(900), grantID: TokenRegistry.makeGrantID(),
        extra: ["secret": secret, "callback": callback]))
    return EmulatorJSON.form([
      ("oauth_token", token), ("oauth_token_secret", secret), ("oauth_callback_confirmed", "true"),
    ])
  }

  func oauth1Authorize(_ request: EmulatorRequest) -> HTTPResponse {
    guard let value = request.query("oauth_token"), let token = environment.tokens.lookup(value),
      token.kind == .requestToken, token.isLive(at: request.now), token.userID.isEmpty,
      let callback = token.extra["callback"]
    else {
      return EmulatorJSON.page(
        title: "X", "This page is no longer valid. It looks like someone already used the token "
          + "information you provided.")
    }
    switch EmulatorAuthorization.decide(request, environment: environment, appName: "X app") {
    case .page(let page): return page
    case .deny:
      environment.tokens.update(value) { $0?.revoked = true }
      guard callback != "oob" else {
        return EmulatorJSON.page(title: "X", "You cancelled the sign-in.", status: 200)
      }
      return EmulatorJSON.redirect(to: callback, [("denied", value)])
    case .approve(let user):
      let verifier = SecureRandom.urlSafeToken(byteCount: 16)
      environment.tokens.update(value) { token in
        token?.userID = user.id
        token?.extra["verifier"] = verifier
      }
      guard callback != "oob" else {
        return EmulatorJSON.page(title: "X", "Your PIN: \(verifier)", status: 200)
      }
      return EmulatorJSON.redirect(to: callback, [("oauth_token", value), ("oauth_verifier", verifier)])
    }
  }

  func accessToken(_ request: EmulatorRequest) -> HTTPResponse {
    let call: OAuth1Call
    switch checkSignature(request, tokenKinds: [.requestToken]) {
    case .failure(let error): return error.response
    case .success(let checked): call = checked
    }
    guard let requestToken = call.token,
      let verifier = call.parameters["oauth_verifier"] ?? request.parameter("oauth_verifier"),
      let expected = requestToken.extra["verifier"],
      ConstantTime.equals(Array(verifier.utf8), Array(expected.utf8))
    else {
      return .text("Error processing your OAuth request: Invalid oauth_verifier parameter", status: 401)
    }
    let now = request.now
    let spent: Bool = environment.tokens.update(requestToken.value) { token in
      guard token?.spent == false else { return false }
      token?.spent = true
      return true
    }
    guard spent, let user = environment.user(requestToken.userID) else {
      return Self.v1Error(89, Self.invalidOrExpired)
    }
    guard !user.isDisabled else { return accountDisabled(endpoint: "access_token", request: request) }
    let token = TokenRegistry.makeValue(prefix: user.subject(at: name) + "-", byteCount: 18)
    let secret = SecureRandom.urlSafeToken(byteCount: 24)
    environment.tokens.insert(
      IssuedToken(
        value: token, kind: .oauth1Access, provider: name,
        clientID: EmulatorApps.twitterConsumerKey, userID: user.id, scopes: [], issuedAt: now,
        expiresAt: nil, grantID: requestToken.grantID, extra: ["secret": secret]))
    return EmulatorJSON.form([
      ("oauth_token", token), ("oauth_token_secret", secret),
      ("user_id", user.subject(at: name)), ("screen_name", user.id),
    ])
  }

  func verifyCredentials(_ request: EmulatorRequest) -> HTTPResponse {
    let call: OAuth1Call
    switch checkSignature(request, tokenKinds: [.oauth1Access]) {
    case .failure(let error): return error.response
    case .success(let checked): call = checked
    }
    guard let token = call.token, let user = environment.user(token.userID) else {
      return Self.v1Error(89, Self.invalidOrExpired)
    }
    guard !user.isDisabled else {
      return accountDisabled(endpoint: "verify_credentials", request: request)
    }
    let id = user.subject(at: name)
    var body: [String: JSONValue] = [
      "id": .number(Double(id) ?? 0), "id_str": .string(id), "name": .string(user.name),
      "screen_name": .string(user.id),
    ]
    if let picture = user.picture { body["profile_image_url_https"] = .string(picture) }
    if request.query("include_email") == "true", let email = user.email {
      body["email"] = .string(email)
    }
    return EmulatorJSON.response(.object(body))
  }

  func invalidateToken(_ request: EmulatorRequest) -> HTTPResponse {
    let call: OAuth1Call
    switch checkSignature(request, tokenKinds: [.oauth1Access]) {
    case .failure(let error): return error.response
    case .success(let checked): call = checked
    }
    guard let token = call.token else { return Self.v1Error(89, Self.invalidOrExpired) }
    environment.tokens.update(token.value) { $0?.revoked = true }
    return EmulatorJSON.response(["access_token": .string(token.value)])
  }
}
