import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// An `OIDCProvider` on a stub transport: discovery, JWKS (one HS256 key, so tests can sign
/// tokens), token, userinfo and, optionally, introspection and revocation endpoints.
struct OIDCStubProvider {
  static let issuer = "https://id.example"
  static let clientID = "client-1"
  static let keyID = "k1"

  let stub = StubTransport()
  let clock = ManualClock()
  let provider: OIDCProvider

  init(
    introspection: Bool = false, revocation: Bool = false, userinfo: Bool = true,
    clientSecret: Secret? = "client-secret", issuer: String = Self.issuer,
    documentOverrides: [String: JSONValue] = [:],
    refreshTokenRejections: [RefreshTokenRejection] = []
  ) throws {
    var document: [String: JSONValue] = [
      "issuer": .string(issuer),
      "authorization_endpoint": .string(issuer + "/authorize"),
      "token_endpoint": .string(issuer + "/token"),
      "jwks_uri": .string(issuer + "/jwks"),
      "code_challenge_methods_supported": ["S256"],
    ]
    if userinfo { document["userinfo_endpoint"] = .string(issuer + "/userinfo") }
    if introspection { document["introspection_endpoint"] = .string(issuer + "/introspect") }
    if revocation { document["revocation_endpoint"] = .string(issuer + "/revoke") }
    for (key, value) in documentOverrides { document[key] = value }
    stub.on(
      "GET", "/.well-known/openid-configuration", repeating: true,
      reply: .json(JSONValue.object(document).jsonText))
    let key = Base64URL.encode(TestTokens.secret)
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(
        #"{"keys":[{"kty":"oct","kid":"\#(Self.keyID)","alg":"HS256","k":"\#(key)"}]}"#))
    provider = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: try #require(URL(string: issuer)), clientID: Self.clientID,
        clientSecret: clientSecret, allowedAlgorithms: [.hs256],
        refreshTokenRejections: refreshTokenRejections),
      transport: stub, clock: clock)
  }

  /// An HS256 JWT signed with the JWKS key, with `typ` and claims (defaults at the clock's
  /// time: issuer, subject `user-1`, audience the client, one hour of validity).
  static func jwt(typ: String = "at+jwt", _ claims: [String: JSONValue?] = [:]) -> String {
    var members: [String: JSONValue] = [
      "iss": .string(issuer), "sub": "user-1", "aud": .string(clientID),
      "iat": 1_700_000_000, "exp": 1_700_003_600, "client_id": .string(clientID),
      "jti": "j-1",
    ]
    for (key, value) in claims { members[key] = value }  // nil removes the claim
    return TestTokens.hs256(
      .object(members), header: ["alg": "HS256", "typ": .string(typ), "kid": .string(keyID)])
  }

  /// Userinfo answers `sub`.
  func userinfo(subject: String = "user-1") {
    stub.on(
      "GET", "/userinfo", repeating: true,
      reply: .json(#"{"sub":"\#(subject)","name":"Alice","email":"alice@example.test"}"#))
  }
}
