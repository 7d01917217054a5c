import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// A Facebook provider on a stub transport and a manual clock, with bodies shaped exactly as
/// Facebook documents them (`reference/providers.md` §1 and §7).
struct FacebookFixture {
  static let appID = "1234567890"
  static let appSecret: Secret = "fb-app-SECRET"
  static let userToken = "EAAG-user-token-1"
  static let longLivedToken = "EAAG-long-lived-2"
  /// hex(HMAC-SHA256("fb-app-SECRET", token)), computed with Python's `hmac`.
  static let proofs = [
    userToken: "4e607662678674aa0936714d0db5749a32dbbd31b3c1edc46be214253c21390c",
    "1234567890|fb-app-SECRET":
      "d2d2bb2c70c9ffbd507a7ce61ceaaba882d1c957e852b690abcec29ada502ab4",
    longLivedToken: "afbb4aafc4b7b907507ddd371dc935617b2b162e32073dbad2ed6a8d4d7371ea",
  ]
  static let redirectURI = "http://127.0.0.1:8765/callback"

  static let tokenPath = "/v26.0/oauth/access_token"
  static let debugPath = "/v26.0/debug_token"
  static let mePath = "/v26.0/me"
  static let permissionsPath = "/v26.0/me/permissions"
  static let jwksPath = "/.well-known/oauth/openid/jwks"  // URL.path drops the slash

  let stub = StubTransport()
  let clock = ManualClock()
  let provider: FacebookProvider

  init(configure: (inout FacebookConfiguration) throws -> Void = { _ in }) throws {
    var configuration = try FacebookConfiguration(
      appID: Self.appID, appSecret: Self.appSecret, environment: [:])
    try configure(&configuration)
    provider = FacebookProvider(configuration: configuration, transport: stub, clock: clock)
  }

  // MARK: Documented bodies

  static func tokenBody(_ token: String = userToken, expiresIn: Int? = 5_183_944) -> String {
    let expiry = expiresIn.map { #","expires_in":\#($0)"# } ?? ""
    return #"{"access_token":"\#(token)","token_type":"bearer"\#(expiry)}"#
  }

  static func debugBody(
    appID: String = appID, userID: String = "10001", expiresAt: Int = 0,
    dataAccessExpiresAt: Int = 1_707_776_000
  ) -> String {
    #"""
    {"data":{"app_id":"\#(appID)","type":"USER","application":"SocialLogin Test",\#
    "data_access_expires_at":\#(dataAccessExpiresAt),"expires_at":\#(expiresAt),\#
    "is_valid":true,"issued_at":1700000000,"scopes":["email","public_profile"],\#
    "granular_scopes":[{"scope":"email"}],"user_id":"\#(userID)"}}
    """#
  }

  /// §7: an expired or invalid token is HTTP 200 with `is_valid: false` and `data.error`
  /// spelling the subcode `subcode`.
  static func invalidDebugBody(code: Int = 190, subcode: Int = 463) -> String {
    #"""
    {"data":{"app_id":"\#(appID)","type":"USER","application":"SocialLogin Test",\#
    "error":{"code":\#(code),"message":"Error validating access token: Session has expired.",\#
    "subcode":\#(subcode)},"expires_at":1699990000,"is_valid":false,"scopes":[],\#
    "user_id":"10001"}}
    """#
  }

  static let meBody = #"""
    {"id":"10001","name":"Ada Lovelace","email":"ada@example.com","picture":{"data":\#
    {"height":50,"is_silhouette":false,"url":"https://platform-lookaside.fbsbx.com/p/10001",\#
    "width":50}}}
    """#

  static func graphError(code: Int, subcode: Int? = nil, transient: Bool? = nil) -> String {
    let sub = subcode.map { #","error_subcode":\#($0)"# } ?? ""
    let flag = transient.map { #","is_transient":\#($0)"# } ?? ""
    return #"""
      {"error":{"message":"Error validating access token.","type":"OAuthException",\#
      "code":\#(code)\#(sub)\#(flag),"fbtrace_id":"AbCdEf123"}}
      """#
  }

  /// Scripts a successful code exchange, inspection and profile.
  func scriptLogin(expiresIn: Int? = 5_183_944, expiresAt: Int = 0) {
    stub.on("GET", Self.tokenPath, reply: .json(Self.tokenBody(expiresIn: expiresIn)))
    stub.on("GET", Self.debugPath, reply: .json(Self.debugBody(expiresAt: expiresAt)))
    stub.on("GET", Self.mePath, reply: .json(Self.meBody))
  }

  /// A pending login and the matching callback with `code`.
  func pendingAndCallback(code: String = "fb-code-1") async throws -> (
    PendingLogin, AuthorizationCallback
  ) {
    let request = try await provider.makeAuthorizationRequest(redirectURI: Self.redirectURI)
    let callback = AuthorizationCallback(parameters: [
      URLQueryItem(name: "code", value: code),
      URLQueryItem(name: "state", value: request.pending.state.revealed),
    ])
    return (request.pending, callback)
  }

  /// The query of `request`'s URL as a dictionary (first value wins).
  static func query(_ request: TransportRequest?) -> [String: String] {
    guard let url = request?.url else { return [:] }
    return Dictionary(OAuth2Fixture.query(of: url), uniquingKeysWith: { first, _ in first })
  }
}
