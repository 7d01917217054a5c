import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// The engine features ``ProviderDescription/line`` needs, run on the engine directly (not
/// through ``LINEProvider``), with hostile answers and tokens.
@Suite("Described provider: LINE's rules", .timeLimit(.minutes(2)))
struct DescribedLINERulesTests {
  static let channelID = "1656000000"
  static let secret = "line-channel-SECRET-0123456789abcdef"
  static let userID = "U1234567890abcdef1234567890abcdef"

  struct Fixture {
    let stub = StubTransport()
    let clock = ManualClock()
    let provider: DescribedProvider

    init(
      secret: Secret? = Secret(DescribedLINERulesTests.secret),
      edit: (inout DescribedProviderConfiguration) -> Void = { _ in }
    ) throws {
      var configuration = try DescribedProviderConfiguration(
        .line, clientID: DescribedLINERulesTests.channelID, clientSecret: secret,
        emulatorHost: nil, environment: [:])
      edit(&configuration)
      provider = DescribedProvider(configuration: configuration, transport: stub, clock: clock)
      stub.on(
        "GET", "/oauth2/v2.1/certs", repeating: true, reply: .json(ProviderTokenFixtures.lineJWKS))
    }
  }

  static func claims(_ extra: [String: JSONValue] = [:]) -> JSONValue {
    var members: [String: JSONValue] = [
      "iss": "https://access.line.me", "sub": .string(userID), "aud": .string(channelID),
      "iat": 1_700_000_000, "exp": 1_700_003_600, "nonce": "n-1", "email": "taro@example.jp",
      "name": "Taro",
    ]
    members.merge(extra) { _, new in new }
    return .object(members)
  }

  static func hs256(
    key: String = secret, header: JSONValue = ["alg": "HS256", "typ": "JWT"],
    _ extra: [String: JSONValue] = [:]
  ) -> String {
    TestTokens.hs256(claims(extra), header: header, key: Array(key.utf8))
  }

  static let profile = #"""
    {"userId":"\#(userID)","displayName":"Brown","pictureUrl":"https://profile.line-scdn.net/p"}
    """#

  // MARK: ID tokens chosen by kid

  @Test("HS256 without kid verifies with the client secret; ES256 with kid from the JWKS")
  func keyIDSelects() async throws {
    let fixture = try Fixture()
    let hs = try await fixture.provider.verify(.idToken(Secret(Self.hs256()), nonce: "n-1"))
    #expect(hs.identity.subject == Self.userID)
    #expect(fixture.stub.requests.isEmpty)
    let es = try await fixture.provider.verify(
      .idToken(Secret(ProviderTokenFixtures.lineValid), nonce: "line-nonce"))
    #expect(es.identity.subject == Self.userID)
    #expect(fixture.stub.requestCount(path: "/oauth2/v2.1/certs") == 1)
  }

  @Test(
    "hostile ID tokens are refused",
    arguments: [
      ("HS256 with a wrong secret", hs256(key: "another-secret-with-at-least-32-bytes")),
      ("HS256 with a kid (goes to the EC JWKS)", hs256(header: ["alg": "HS256", "kid": "k"])),
      (
        "ES256 without a kid (goes to the secret)",
        TestTokens.replacingHeader(of: ProviderTokenFixtures.lineValid, with: #"{"alg":"ES256"}"#)
      ),
      (
        "alg none", TestTokens.replacingHeader(of: hs256(), with: #"{"alg":"none","typ":"JWT"}"#)
      ),
      ("HS512", hs256(header: ["alg": "HS512"])),
    ])
  func hostileIDTokens(name: String, token: String) async throws {
    let fixture = try Fixture()
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(token), nonce: "n-1"))
    }
    #expect(error?.code == .invalidToken, "\(name): \(String(describing: error))")
  }

  @Test("without a secret HS256 is a configuration error naming it; JWKS tokens still verify")
  func noSecret() async throws {
    let fixture = try Fixture(secret: nil)
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(Self.hs256()), nonce: "n-1"))
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("channel secret") == true)
    let es = try await fixture.provider.verify(
      .idToken(Secret(ProviderTokenFixtures.lineValid), nonce: "line-nonce"))
    #expect(es.identity.subject == Self.userID)
  }

  // MARK: Access tokens checked at a token-info endpoint

  func checkAccessToken(_ reply: StubTransport.Reply, fixture: Fixture? = nil) async throws
    -> (VerifiedIdentity?, AuthError?)
  {
    let fixture = try fixture ?? Fixture()
    fixture.stub.on("GET", "/oauth2/v2.1/verify", reply: reply)
    fixture.stub.on("GET", "/v2/profile", reply: .json(Self.profile))
    do {
      return (try await fixture.provider.verify(.accessToken("tok-SECRET-1")), nil)
    } catch let error as AuthError {
      return (nil, error)
    }
  }

  @Test("a live token of this client is verified, then profiled")
  func tokenInfo() async throws {
    let fixture = try Fixture()
    let (verified, _) = try await checkAccessToken(
      .json(#"{"scope":"profile openid","client_id":"1656000000","expires_in":100}"#),
      fixture: fixture)
    #expect(verified?.identity.subject == Self.userID)
    #expect(verified?.scopes == ["profile", "openid"])
    #expect(verified?.expiresAt == fixture.clock.wallTime.addingTimeInterval(100))
    let check = try #require(fixture.stub.requests.first)
    #expect(check.url.query == "access_token=tok-SECRET-1")
    #expect(check.headers["Authorization"] == nil)
  }

  @Test(
    "hostile token-info answers are refused without showing the token",
    arguments: [
      (
        StubTransport.Reply.json(#"{"client_id":"1656999999","expires_in":100}"#),
        AuthError.Code.invalidToken
      ),
      (.json(#"{"client_id":1656000000,"expires_in":100}"#), AuthError.Code.invalidToken),
      (.json(#"{"client_id":"1656000000","expires_in":0}"#), AuthError.Code.invalidToken),
      (.json(#"{"client_id":"1656000000","expires_in":-5}"#), AuthError.Code.invalidToken),
      (.json(#"{"client_id":"1656000000"}"#), AuthError.Code.invalidToken),
      (
        .json(#"{"error":"invalid_request","client_id":"1656000000"}"#), AuthError.Code.invalidToken
      ),
      (
        .json(#"{"error":"invalid_request","error_description":"expired"}"#, status: 400),
        AuthError.Code.invalidToken
      ),
      (.json(#"{"message":"tok-SECRET-1 is bad"}"#, status: 401), AuthError.Code.invalidToken),
      (.json(#"{"message":"failed to parse"}"#, status: 400), AuthError.Code.providerError),
      (.json(#"["client_id"]"#), AuthError.Code.invalidResponse),
      (.json(#"{"client_id":"1656000000","expires_in":1"#), AuthError.Code.invalidResponse),
      (
        .json(#"{"pad":""# + String(repeating: "a", count: 1 << 20) + #""}"#),
        AuthError.Code.invalidResponse
      ),
      (.status(500, body: "<html>down</html>"), AuthError.Code.serverUnavailable),
    ])
  func hostileTokenInfo(reply: StubTransport.Reply, code: AuthError.Code) async throws {
    let (verified, error) = try await checkAccessToken(reply)
    #expect(verified == nil)
    #expect(error?.code == code, "\(String(describing: error))")
    #expect(error?.message.contains("tok-SECRET-1") == false)
  }

  // MARK: Errors in both shapes

  @Test("{message} answers are refusals, 401s dead tokens, codes match whatever their case")
  func messageShape() async throws {
    let fixture = try Fixture()
    fixture.stub.on(
      "GET", "/v2/profile", reply: .json(#"{"message":"Authentication failed."}"#, status: 401))
    let unauthorized = await describedError {
      _ = try await fixture.provider.fetchIdentity(for: Credential(accessToken: "a"))
    }
    #expect(unauthorized?.code == .invalidToken)
    #expect(unauthorized?.message.contains("Authentication failed.") == true)
    #expect(
      unauthorized.map(fixture.provider.classifyRefreshFailure)
        == .refreshTokenInvalid(.accessRevoked))

    let long = String(repeating: "x", count: 100_000)
    fixture.stub.on(
      "GET", "/v2/profile", reply: .json(#"{"message":"\#(long)"}"#, status: 400))
    let refused = await describedError {
      _ = try await fixture.provider.fetchIdentity(for: Credential(accessToken: "a"))
    }
    #expect(refused?.code == .providerError)
    #expect(refused?.providerCode == "http_400")
    #expect((refused?.message.count ?? .max) < 1_000)
    #expect(
      refused.map(fixture.provider.classifyRefreshFailure)
        == .terminal(.providerRejected(code: "http_400")))

    fixture.stub.on(
      "POST", "/oauth2/v2.1/token",
      reply: .json(#"{"error":"INVALID_GRANT","error_description":"x"}"#, status: 400))
    let dead = await describedError {
      _ = try await fixture.provider.refresh(Credential(accessToken: "a", refreshToken: "r"))
    }
    #expect(
      dead.map(fixture.provider.classifyRefreshFailure)
        == .refreshTokenInvalid(.refreshTokenExpired))
  }

  @Test("without ignoresCase an upper-case code is another provider's own code")
  func caseMatters() {
    let fields = DescribedAnswers.ErrorFields(
      oauth: AuthError.OAuthErrorFields(error: "INVALID_GRANT"), providerCodes: [])
    #expect(DescribedAnswers.verdict(of: fields, dialect: ErrorDialect()) == .other)
    #expect(
      DescribedAnswers.verdict(of: fields, dialect: ErrorDialect(ignoresCase: true)) == .signOut)
  }

  // MARK: Identity, callback, refresh and revocation

  @Test("the profile is completed from the stored ID token, and must name its subject")
  func completedIdentity() async throws {
    let fixture = try Fixture()
    fixture.stub.on("GET", "/v2/profile", repeating: true, reply: .json(Self.profile))
    let identity = try await fixture.provider.fetchIdentity(
      for: Credential(accessToken: "a", idToken: Secret(Self.hs256())))
    #expect(identity.name == "Brown")
    #expect(identity.email == "taro@example.jp")
    #expect(identity.emailVerified == nil)
    #expect(identity.rawClaims["nonce"] == "n-1")
    #expect(identity.rawClaims["displayName"] == "Brown")
    let other = await describedError {
      _ = try await fixture.provider.fetchIdentity(
        for: Credential(accessToken: "a", idToken: Secret(Self.hs256(["sub": "U-other"]))))
    }
    #expect(other?.code == .invalidResponse)
  }

  @Test("kept callback parameters land in extra; the ID token is required only with openid")
  func loginRules() async throws {
    let fixture = try Fixture { $0.scopes = ["profile"] }
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: "https://app.example/cb")
    fixture.stub.on(
      "POST", "/oauth2/v2.1/token", reply: .json(#"{"access_token":"a","expires_in":60}"#))
    let credential = try await fixture.provider.completeAuthorization(
      request.pending,
      callback: AuthorizationCallback(parameters: [
        URLQueryItem(name: "code", value: "c"),
        URLQueryItem(name: "state", value: request.pending.state.revealed),
        URLQueryItem(name: "friendship_status_changed", value: "true"),
      ]))
    #expect(credential.extra["line.friendship_status_changed"] == "true")

    let openID = try Fixture()
    let second = try await openID.provider.makeAuthorizationRequest(
      redirectURI: "https://app.example/cb")
    openID.stub.on(
      "POST", "/oauth2/v2.1/token", reply: .json(#"{"access_token":"a","expires_in":60}"#))
    let missing = await describedError {
      _ = try await openID.provider.completeAuthorization(
        second.pending,
        callback: AuthorizationCallback(parameters: [
          URLQueryItem(name: "code", value: "c"),
          URLQueryItem(name: "state", value: second.pending.state.revealed),
        ]))
    }
    #expect(missing?.code == .invalidResponse)
  }

  @Test("access-token revocation posts the token with the credentials; runtime can drop the secret")
  func revocation() async throws {
    let fixture = try Fixture()
    fixture.stub.on("POST", "/oauth2/v2.1/revoke", reply: .status(200))
    try await fixture.provider.revoke(Credential(accessToken: "tok-SECRET-1", refreshToken: "r"))
    let body = try #require(fixture.stub.requests.first?.body)
    #expect(
      String(decoding: body, as: UTF8.self)
        == "access_token=tok-SECRET-1&client_id=1656000000&client_secret=\(Self.secret)")
    fixture.stub.on(
      "POST", "/oauth2/v2.1/revoke",
      reply: .json(#"{"error":"invalid_client","error_description":"bad"}"#, status: 400))
    let error = await describedError {
      try await fixture.provider.revoke(Credential(accessToken: "tok-SECRET-1"))
    }
    #expect(error?.code == .configuration)
    #expect(error?.message.contains("tok-SECRET-1") == false)
    #expect(error?.message.contains(Self.secret) == false)

    let mobile = try Fixture { $0.runtime.sendsSecretOnRefreshAndRevocation = false }
    mobile.stub.on("POST", "/oauth2/v2.1/revoke", reply: .status(200))
    mobile.stub.on(
      "POST", "/oauth2/v2.1/token", reply: .json(#"{"access_token":"b","expires_in":60}"#))
    try await mobile.provider.revoke(Credential(accessToken: "t"))
    _ = try await mobile.provider.refresh(Credential(accessToken: "t", refreshToken: "r"))
    for request in mobile.stub.requests {
      let form = String(decoding: request.body ?? Data(), as: UTF8.self)
      #expect(form.contains("client_id=1656000000"))
      #expect(!form.contains("client_secret"))
    }
  }

  @Test("descriptions naming missing endpoints for the new rules are refused")
  func validation() throws {
    var noKeys = ProviderDescription.line
    noKeys.endpoints.removeAll { $0.name == "jwks" }
    #expect(throws: AuthError.self) { try noKeys.validate() }
    var noRevoke = ProviderDescription.line
    noRevoke.endpoints.removeAll { $0.name == "revoke" }
    #expect(throws: AuthError.self) { try noRevoke.validate() }
    let data = try JSONEncoder().encode(ProviderDescription.line)
    #expect(try JSONDecoder().decode(ProviderDescription.self, from: data) == .line)
  }
}
