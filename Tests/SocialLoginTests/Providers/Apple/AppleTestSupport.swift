import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// An Apple provider on a stub transport and a manual clock, with Apple's answers shaped as
/// `reference/providers.md` §8 documents them, ID tokens signed RS256 with a fixture key.
struct AppleFixture {
  static let webClientID = "com.example.web"
  static let appClientID = "com.example.app"
  static let teamID = "ABCDE12345"
  static let keyID = "XYZ9876543"
  static let subject = "001234.0123456789abcdef0123456789abcdef.1234"
  static let redirectURI = "http://127.0.0.1:8765/callback"
  static let accessToken = "a0f1e2d3c4b5.0.abcd.apple-access"
  static let refreshToken = "r9f8e7d6c5b4.0.abcd.apple-refresh"
  static let idTokenKeyID = "apple-rsa-1"

  static let tokenPath = "/auth/token"
  static let keysPath = "/auth/keys"
  static let revokePath = "/auth/revoke"

  /// A fixed P-256 key in PKCS #8 PEM: the `.p8` of the fixture.
  static let privateKey: P256PrivateKey = {
    // 32 bytes of a fixed, valid scalar.
    (try? P256PrivateKey(rawRepresentation: Array(repeating: 0x11, count: 32))) ?? P256PrivateKey()
  }()
  static var privateKeyPEM: Secret { Secret(privateKey.pkcs8PEM) }

  let stub = StubTransport()
  let clock = ManualClock()
  let provider: AppleProvider
  let configuration: AppleConfiguration

  init(
    stubKeys: Bool = true, configure: (inout AppleConfiguration) throws -> Void = { _ in }
  ) throws {
    var configuration = try AppleConfiguration(
      clientIDs: [Self.webClientID, Self.appClientID], teamID: Self.teamID, keyID: Self.keyID,
      privateKeyPEM: Self.privateKeyPEM, environment: [:])
    try configure(&configuration)
    self.configuration = configuration
    provider = AppleProvider(configuration: configuration, transport: stub, clock: clock)
    if stubKeys { stub.on("GET", Self.keysPath, repeating: true, reply: .json(try Self.jwks())) }
  }

  static func signer() throws -> JWSSigner {
    JWSSigner.rs256(try RSAKeys.rfc7515(), keyID: idTokenKeyID)
  }

  static func jwks() throws -> String {
    JWKSet(keys: [try signer().publicJWK].compactMap { $0 }).publicJSON.jsonText
  }

  /// Apple ID-token claims at ManualClock's time.
  static func claims(
    audience: String = webClientID, nonce: String? = nil,
    merging extra: [String: JSONValue] = [:]
  ) -> [String: JSONValue] {
    var claims: [String: JSONValue] = [
      "iss": "https://appleid.apple.com", "sub": .string(subject), "aud": .string(audience),
      "iat": 1_700_000_000, "exp": 1_700_000_600, "auth_time": 1_699_999_990,
      "email": "abc123@privaterelay.appleid.com", "email_verified": "true",
      "is_private_email": "true", "real_user_status": 2, "nonce_supported": true,
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    claims.merge(extra) { _, new in new }
    return claims
  }

  static func idToken(
    audience: String = webClientID, nonce: String? = nil,
    merging extra: [String: JSONValue] = [:], removing: [String] = []
  ) throws -> String {
    var claims = claims(audience: audience, nonce: nonce, merging: extra)
    for name in removing { claims[name] = nil }
    return try signer().signJWT(claims: claims)
  }

  static func tokenBody(idToken: String?, refreshToken: String? = refreshToken) -> String {
    var members: [String: JSONValue] = [
      "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600,
    ]
    if let idToken { members["id_token"] = .string(idToken) }
    if let refreshToken { members["refresh_token"] = .string(refreshToken) }
    return JSONValue.object(members).jsonText
  }

  /// A credential as a login of the web client id stores it.
  static func credential(idToken: String) -> Credential {
    Credential(
      accessToken: Secret(accessToken), refreshToken: Secret(refreshToken),
      idToken: Secret(idToken), expiresAt: Date(timeIntervalSince1970: 1_700_003_600),
      issuedAt: Date(timeIntervalSince1970: 1_700_000_000),
      extra: [AppleProvider.clientIDKey: webClientID])
  }

  /// The form fields of the `index`th request to `path`.
  func form(_ path: String, index: Int = 0) -> [String: String] {
    let requests = stub.requests.filter { $0.url.path == path }
    guard requests.indices.contains(index) else { return [:] }
    let body = String(decoding: requests[index].body ?? Data(), as: UTF8.self)
    return Dictionary(FormEncoding.decode(body), uniquingKeysWith: { first, _ in first })
  }
}
