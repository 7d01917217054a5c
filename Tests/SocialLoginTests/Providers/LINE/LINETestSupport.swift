import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// A LINE provider on a stub transport and a manual clock, with bodies shaped exactly as LINE
/// documents them (`reference/providers.md` §3 and §7).
struct LINEFixture {
  static let channelID = "1656000000"
  static let channelSecret: Secret = "line-channel-SECRET-0123456789abcdef"
  static let redirectURI = "http://127.0.0.1:8765/callback"
  static let accessToken = "bNl4YEFPI/hjFWhTqexp4MuEw5YPs7qhr6dJDXKwNPuLka"
  static let refreshToken = "Aa1FdeggRhTnPNNpxr8p"
  static let userID = "U1234567890abcdef1234567890abcdef"

  static let tokenPath = "/oauth2/v2.1/token"
  static let verifyPath = "/oauth2/v2.1/verify"
  static let profilePath = "/v2/profile"
  static let revokePath = "/oauth2/v2.1/revoke"
  static let certsPath = "/oauth2/v2.1/certs"

  let stub = StubTransport()
  let clock = ManualClock()
  let provider: LINEProvider

  init(
    jwks: String = ProviderTokenFixtures.lineJWKS,
    configure: (inout LINEConfiguration) throws -> Void = { _ in }
  ) throws {
    var configuration = try LINEConfiguration(
      channelID: Self.channelID, channelSecret: Self.channelSecret,
      scopes: ["profile", "openid", "email"], environment: [:])
    try configure(&configuration)
    provider = LINEProvider(configuration: configuration, transport: stub, clock: clock)
    stub.on("GET", Self.certsPath, repeating: true, reply: .json(jwks))
  }

  /// Standard LINE ID-token claims at ManualClock's time.
  static func claims(nonce: String, merging extra: [String: JSONValue] = [:]) -> JSONValue {
    var claims: [String: JSONValue] = [
      "iss": "https://access.line.me", "sub": .string(userID), "aud": .string(channelID),
      "iat": 1_700_000_000, "exp": 1_700_003_600, "auth_time": 1_699_999_990,
      "nonce": .string(nonce), "amr": ["pwd"], "name": "Taro",
      "picture": "https://profile.line-scdn.net/u1", "email": "taro@example.jp",
    ]
    claims.merge(extra) { _, new in new }
    return .object(claims)
  }

  /// A web-login ID token: HS256 keyed with the channel secret, no `kid`.
  static func hs256(
    nonce: String, merging extra: [String: JSONValue] = [:],
    secret: Secret = channelSecret, header: JSONValue = ["typ": "JWT", "alg": "HS256"]
  ) -> String {
    TestTokens.hs256(
      claims(nonce: nonce, merging: extra), header: header,
      key: Array(secret.revealed.utf8))
  }

  static func tokenBody(idToken: String?, refreshToken: String = refreshToken) -> String {
    let id = idToken.map { #""id_token":"\#($0)","# } ?? ""
    return #"""
      {"access_token":"\#(accessToken)","expires_in":2592000,\#(id)\#
      "refresh_token":"\#(refreshToken)","scope":"profile openid email","token_type":"Bearer"}
      """#
  }

  static let profileBody = #"""
    {"userId":"\#(userID)","displayName":"Brown",\#
    "pictureUrl":"https://profile.line-scdn.net/abcdefghijklmn","statusMessage":"Hello, LINE!"}
    """#

  /// Stubs LINE's answers for a valid access token of this channel: `/oauth2/v2.1/verify`
  /// (scopes `profile openid`, 2591659 s left) and the profile.
  func stubValidAccessToken() {
    stub.on(
      "GET", Self.verifyPath,
      reply: .json(#"{"scope":"profile openid","client_id":"1656000000","expires_in":2591659}"#))
    stub.on("GET", Self.profilePath, reply: .json(Self.profileBody))
  }

  /// Builds a login request and the callback LINE sends, plus `extra` callback parameters.
  func begin(extra: [URLQueryItem] = []) async throws -> (
    AuthorizationRequest, AuthorizationCallback
  ) {
    let request = try await provider.makeAuthorizationRequest(redirectURI: Self.redirectURI)
    let callback = AuthorizationCallback(
      parameters: [
        URLQueryItem(name: "code", value: "line-code-1"),
        URLQueryItem(name: "state", value: request.pending.state.revealed),
      ] + extra)
    return (request, callback)
  }

  static func query(_ url: URL?) -> [String: String] {
    guard let url else { return [:] }
    return Dictionary(OAuth2Fixture.query(of: url), uniquingKeysWith: { first, _ in first })
  }
}
