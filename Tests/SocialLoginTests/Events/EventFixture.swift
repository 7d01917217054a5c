import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// A client with an OpenID provider (`corp`, RS256 keys on a stub), Google and Facebook, an
/// in-memory store and nonce store, and a receiver mounted at `/events`.
struct EventFixture {
  static let issuer = "https://op.example"
  static let clientID = "rp-1"
  static let keyID = "op-1"
  static let googleClientID = "google-web.apps.googleusercontent.com"
  static let facebookSecret = "test-app-secret"
  static let facebookAppID = "1234567890"
  static let kakaoAdminKey = "kakao-admin-key"
  static let kakaoClientID = "kakao-rest-key"
  static let now: TimeInterval = 1_700_000_000

  let stub = StubTransport()
  let clock: ManualClock
  let store = InMemorySessionStore()
  let seen: InMemoryNonceStore
  let log = EventLog()
  let client: LoginClient
  let receiver: ProviderEventReceiver

  init(clock: ManualClock = ManualClock()) throws {

    seen = InMemoryNonceStore(clock: clock)
    let signer = try Self.signer()
    let jwks = JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText
    stub.on("GET", "/jwks", repeating: true, reply: .json(jwks))
    stub.on("GET", "/certs", repeating: true, reply: .json(jwks))
    stub.on(
      "GET", "/.well-known/risc-configuration", repeating: true,
      reply: .json(
        #"{"issuer":"https://accounts.google.com/","jwks_uri":"https://google.test/certs"}"#))
    stub.on(
      "GET", "/.well-known/sse-configuration", repeating: true,
      reply: .json(
        #"{"issuer":"https://kauth.kakao.com","jwks_uri":"https://kakao.test/certs"}"#))
    let base = try #require(URL(string: Self.issuer))
    let oidc = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: base, clientID: Self.clientID, allowedAlgorithms: [.rs256],
        metadata: OIDCProviderMetadata(
          issuer: Self.issuer, authorizationEndpoint: base.appendingPathComponent("authorize"),
          tokenEndpoint: base.appendingPathComponent("token"),
          jwksURI: base.appendingPathComponent("jwks"))),
      transport: stub, clock: clock)
    var google = try GoogleConfiguration(clientID: Self.googleClientID, environment: [:])
    try google.setEndpoint("keys", to: try #require(URL(string: "https://google.test/certs")))
    try google.setEndpoint(
      "risc-configuration",
      to: try #require(URL(string: "https://google.test/.well-known/risc-configuration")))
    let facebook = try FacebookConfiguration(
      appID: Self.facebookAppID, appSecret: Secret(Self.facebookSecret), environment: [:])
    var kakaoConfiguration = try DescribedProviderConfiguration(
      .kakao, clientID: Self.kakaoClientID, environment: [:])
    kakaoConfiguration.audiences = ["kakao-native-key"]
    try kakaoConfiguration.setEndpoint(
      "sse-configuration",
      to: try #require(URL(string: "https://kakao.test/.well-known/sse-configuration")))
    let kakao = DescribedProvider(configuration: kakaoConfiguration, transport: stub, clock: clock)
    client = try LoginClient(
      providers: [
        oidc, kakao, GoogleProvider(configuration: google, transport: stub, clock: clock),
        FacebookProvider(configuration: facebook, transport: stub, clock: clock),
      ],
      store: store, clock: clock, policy: RefreshPolicy(proactiveMargin: nil), observer: log)
    receiver = ProviderEventReceiver(
      client: client, seen: seen,
      configuration: .init(
        prefix: "/events",
        publicURL: URL(string: "https://app.example/events"),
        kakao: .init(adminKey: Secret(Self.kakaoAdminKey))))
    self.clock = clock
  }

  /// Another replica: a client with the same providers on the same store.
  func replica() throws -> LoginClient {
    try LoginClient(
      providers: Array(client.providers.values), store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
  }

  static func signer() throws -> JWSSigner {
    JWSSigner.rs256(try RSAKeys.rfc7515(), keyID: keyID)
  }

  /// Stores a session of `provider` for `subject`, its ID token recording `sid` if given.
  @discardableResult
  func signIn(_ provider: ProviderID, _ subject: String, sid: String? = nil) async throws
    -> SessionActor
  {
    var claims: [String: JSONValue] = ["sub": .string(subject)]
    if let sid { claims["sid"] = .string(sid) }
    let idToken = TestTokens.hs256(.object(claims))
    return try await client.register(
      credential: Credential(accessToken: "access", idToken: Secret(idToken)),
      identity: Identity(provider: provider, subject: subject))
  }

  /// The claims of a logout token at the clock's time, with `changes` (nil removes).
  static func logoutClaims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string(clientID), "iat": .number(now),
      "exp": .number(now + 120), "jti": "bl-1", "sub": "alice",
      "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
    ]
    for (key, value) in changes { claims[key] = value }
    return claims
  }

  static func logoutToken(_ changes: [String: JSONValue?] = [:]) throws -> String {
    try signer().signJWT(claims: logoutClaims(changes), header: ["typ": "logout+jwt"])
  }

  /// POSTs `body` to `route` under the receiver's prefix.
  func post(
    _ route: String, _ body: [UInt8], headers: [String: String] = [:]
  ) async -> ProviderEventResponse {
    await receiver.handle(
      ProviderEventRequest(method: "POST", path: "/events" + route, headers: headers, body: body))
  }

  func postLogout(_ token: String) async -> ProviderEventResponse {
    await post(
      "/oidc/backchannel-logout",
      Array(FormEncoding.encode([("logout_token", token)]).utf8),
      headers: ["Content-Type": FormEncoding.contentType])
  }

  /// The provider events the observer saw.
  var providerEvents: [(ProviderEventKind, ProviderEventOutcome)] {
    log.all.compactMap {
      if case .providerEvent(_, let kind, let outcome) = $0 { (kind, outcome) } else { nil }
    }
  }

  /// Whether the session of `key` is still stored and live.
  func stillSignedIn(_ session: SessionActor) async throws -> Bool {
    let stored = try await store.load(session.key)
    return session.currentState.isSignedIn && stored != nil
  }
}
