import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// A `LoginClient` with a Firebase provider and a scripted Facebook provider on a stub
/// transport and a manual clock.
struct FirebaseFixture {
  let clock = ManualClock()
  let stub = StubTransport()
  let store = InMemorySessionStore()
  let facebook: ScriptedProvider
  let provider: FirebaseProvider
  let client: LoginClient
  let firebase: FirebaseAuth

  init(
    emulatorHost: EmulatorHost? = nil, tenantID: String? = nil,
    policy: RefreshPolicy = RefreshPolicy(proactiveMargin: nil)
  ) throws {
    facebook = ScriptedProvider(id: .facebook, clock: clock)
    provider = FirebaseProvider(
      configuration: .init(
        apiKey: "test-api-key", projectID: "demo-project", tenantID: tenantID,
        emulatorHost: emulatorHost, environment: [:]),
      transport: stub, clock: clock)
    client = try LoginClient(
      providers: [facebook, provider], store: store, clock: clock, policy: policy)
    firebase = try FirebaseAuth(client: client)
  }

  /// A Facebook session holding access token `token`.
  func facebookSession(token: String = "fb-user-token") async throws -> SessionActor {
    try await client.register(
      credential: Credential(
        accessToken: Secret(token), expiresAt: clock.wallTime.addingTimeInterval(3600)),
      identity: Identity(provider: .facebook, subject: "fb-1"))
  }

  /// The JSON body of request `index` as an object.
  func jsonBody(_ index: Int) throws -> [String: JSONValue] {
    let request = try #require(stub.requests.dropFirst(index).first)
    let body = try #require(request.body)
    return try #require(try JSONValue(parsing: Array(body)).objectValue)
  }

  /// The form fields of request `index`.
  func formBody(_ index: Int) throws -> [String: String] {
    let request = try #require(stub.requests.dropFirst(index).first)
    let text = String(decoding: try #require(request.body), as: UTF8.self)
    return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
  }

  func queryKey(_ index: Int) throws -> String? {
    let request = try #require(stub.requests.dropFirst(index).first)
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    return components?.queryItems?.first { $0.name == "key" }?.value
  }
}

enum FirebaseWire {
  static let signInPath = "/v1/accounts:signInWithIdp"
  static let lookupPath = "/v1/accounts:lookup"
  static let updatePath = "/v1/accounts:update"
  static let tokenPath = "/v1/token"

  /// An unsigned ID token naming `userID`, distinguishable by `number`.
  static func idToken(userID: String = "uid-123", number: Int = 1) -> String {
    let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(
      Array(#"{"sub":"\#(userID)","user_id":"\#(userID)","n":\#(number)}"#.utf8))
    return "\(header).\(payload)."
  }

  /// A successful `signInWithIdp` answer for a new Facebook user.
  static func signInResponse(
    localID: String = "uid-123", number: Int = 1, rawUserInfo: String = #"{"id":"fb-1"}"#,
    isNewUser: Bool = true
  ) -> String {
    let raw = String(
      decoding: (try? JSONEncoder().encode(rawUserInfo)) ?? Data("\"\"".utf8), as: UTF8.self)
    return """
      {"kind":"identitytoolkit#VerifyAssertionResponse","federatedId":"http://facebook.com/fb-1",
      "providerId":"facebook.com","localId":"\(localID)","email":"ada@example.com",
      "emailVerified":false,"firstName":"Ada","lastName":"Lovelace","fullName":"Ada Lovelace",
      "displayName":"Ada Lovelace","photoUrl":"https://graph.facebook.com/fb-1/picture",
      "idToken":"\(idToken(userID: localID, number: number))","refreshToken":"rt-\(number)",
      "expiresIn":"3600","oauthAccessToken":"fb-user-token","oauthExpireIn":5183999,
      "rawUserInfo":\(raw),"isNewUser":\(isNewUser)}
      """
  }

  /// A successful `accounts:lookup` answer.
  static func lookupResponse(localID: String = "uid-123", providers: [String] = ["facebook.com"])
    -> String
  {
    let infos = providers.map {
      #"{"providerId":"\#($0)","rawId":"raw-\#($0)","federatedId":"fed-\#($0)"}"#
    }
    return """
      {"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"\(localID)",
      "email":"ada@example.com","emailVerified":true,"displayName":"Ada Lovelace",
      "providerUserInfo":[\(infos.joined(separator: ","))],"lastLoginAt":"1700000000000"}]}
      """
  }

  /// A successful Secure Token answer (snake_case, `expires_in` as a string).
  static func refreshResponse(userID: String = "uid-123", number: Int) -> String {
    let token = idToken(userID: userID, number: number)
    return """
      {"access_token":"\(token)","expires_in":"3600","token_type":"Bearer",
      "refresh_token":"rt-\(number)","id_token":"\(token)","user_id":"\(userID)",
      "project_id":"123456789"}
      """
  }

  /// An Identity Toolkit error body.
  static func error(_ message: String, code: Int = 400) -> String {
    #"{"error":{"code":\#(code),"message":"\#(message)","errors":[{"message":"\#(message)","domain":"global","reason":"invalid"}]}}"#
  }

  /// A Secure Token error body.
  static func tokenError(_ message: String, code: Int = 400) -> String {
    #"{"error":{"code":\#(code),"message":"\#(message)","status":"INVALID_ARGUMENT"}}"#
  }
}
