import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("LINE verify", .timeLimit(.minutes(2)))
struct LINEVerifyTests {
  func verify(_ token: ExternalToken, fixture: LINEFixture? = nil) async throws -> (
    VerifiedIdentity?, AuthError?
  ) {
    let fixture = try fixture ?? LINEFixture()
    do {
      return (try await fixture.provider.verify(token), nil)
    } catch let error as AuthError {
      return (nil, error)
    }
  }

  @Test func hs256IDTokenWithoutKidVerifiesWithTheChannelSecret() async throws {
    let fixture = try LINEFixture()
    let (verified, error) = try await verify(
      .idToken(Secret(LINEFixture.hs256(nonce: "n-1")), nonce: "n-1"), fixture: fixture)
    #expect(error == nil)
    #expect(verified?.identity.subject == LINEFixture.userID)
    #expect(verified?.identity.email == "taro@example.jp")
    #expect(verified?.audience == .proven(audience: LINEFixture.channelID))
    #expect(verified?.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
    #expect(fixture.stub.requests.isEmpty)
  }

  @Test(
    "HS256 ID tokens that must be rejected",
    arguments: [
      ("wrong audience", ["aud": "1656999999"] as [String: JSONValue], "n-1"),
      ("wrong issuer", ["iss": "https://access.line.me.evil.test"], "n-1"),
      ("expired", ["iat": 1_699_990_000, "exp": 1_699_993_600], "n-1"),
      ("wrong nonce", [:], "another-nonce"),
    ])
  func hs256Rejections(name: String, claims: [String: JSONValue], nonce: String) async throws {
    let token = LINEFixture.hs256(nonce: "n-1", merging: claims)
    let (verified, error) = try await verify(.idToken(Secret(token), nonce: Secret(nonce)))
    #expect(verified == nil, "\(name) was accepted")
    #expect(error?.code == .invalidToken, "\(name)")
  }

  @Test func es256IDTokenWithKidVerifiesFromTheJWKS() async throws {
    let fixture = try LINEFixture()
    let (verified, error) = try await verify(
      .idToken(Secret(ProviderTokenFixtures.lineValid), nonce: "line-nonce"), fixture: fixture)
    #expect(error == nil)
    #expect(verified?.identity.subject == LINEFixture.userID)
    #expect(verified?.identity.name == "Taro")
    #expect(verified?.audience == .proven(audience: LINEFixture.channelID))
    let certs = try #require(fixture.stub.requests.first)
    #expect(certs.url.absoluteString == "https://api.line.me/oauth2/v2.1/certs")
  }

  @Test(
    "ES256 ID tokens that must be rejected",
    arguments: [
      ("wrong audience", ProviderTokenFixtures.lineWrongAudience, "line-nonce"),
      ("wrong issuer", ProviderTokenFixtures.lineWrongIssuer, "line-nonce"),
      ("expired", ProviderTokenFixtures.lineExpired, "line-nonce"),
      ("wrong nonce in token", ProviderTokenFixtures.lineWrongNonce, "line-nonce"),
      ("wrong nonce expected", ProviderTokenFixtures.lineValid, "another-nonce"),
    ])
  func es256Rejections(name: String, token: String, nonce: String) async throws {
    let (verified, error) = try await verify(.idToken(Secret(token), nonce: Secret(nonce)))
    #expect(verified == nil, "\(name) was accepted")
    #expect(error?.code == .invalidToken, "\(name)")
  }

  @Test func algorithmAndKeyKindMustAgree() async throws {
    // HS256 with a kid goes to the JWKS (EC keys only) and must fail; so must ES256 headers
    // without a kid, which go to the channel secret.
    let withKid = LINEFixture.hs256(
      nonce: "n-1", header: ["typ": "JWT", "alg": "HS256", "kid": "line-ec-1"])
    let (_, first) = try await verify(.idToken(Secret(withKid), nonce: "n-1"))
    #expect(first?.code == .invalidToken)
    let noKid = TestTokens.replacingHeader(
      of: ProviderTokenFixtures.lineValid, with: #"{"alg":"ES256","typ":"JWT"}"#)
    let (_, second) = try await verify(.idToken(Secret(noKid), nonce: "line-nonce"))
    #expect(second?.code == .invalidToken)
  }

  @Test func accessTokenIsVerifiedThenProfiled() async throws {
    let fixture = try LINEFixture()
    fixture.stubValidAccessToken()
    let (verified, error) = try await verify(
      .accessToken(Secret(LINEFixture.accessToken)), fixture: fixture)
    #expect(error == nil)
    #expect(verified?.identity.subject == LINEFixture.userID)
    #expect(verified?.scopes == ["profile", "openid"])
    #expect(verified?.expiresAt == fixture.clock.wallTime.addingTimeInterval(2_591_659))
    #expect(verified?.audience == .proven(audience: LINEFixture.channelID))
    let check = try #require(fixture.stub.requests.first)
    #expect(check.method == "GET")
    #expect(LINEFixture.query(check.url) == ["access_token": LINEFixture.accessToken])
    #expect(check.url.host == "api.line.me")
    #expect(
      fixture.stub.requests.last?.headers["Authorization"] == "Bearer \(LINEFixture.accessToken)")
  }

  /// A backend that only verifies what its app sends configures the channel id alone: access
  /// tokens and ES256 ID tokens verify; HS256 ID tokens and logins name the missing secret.
  @Test func accessAndES256TokensNeedTheChannelIDAlone() async throws {
    let fixture = try LINEFixture { $0.channelSecret = nil }
    fixture.stubValidAccessToken()
    let (byAccessToken, accessError) = try await verify(
      .accessToken(Secret(LINEFixture.accessToken)), fixture: fixture)
    #expect(accessError == nil)
    #expect(byAccessToken?.identity.subject == LINEFixture.userID)
    let (byES256, es256Error) = try await verify(
      .idToken(Secret(ProviderTokenFixtures.lineValid), nonce: "line-nonce"), fixture: fixture)
    #expect(es256Error == nil)
    #expect(byES256?.identity.subject == LINEFixture.userID)
    let (_, hs256Error) = try await verify(
      .idToken(Secret(LINEFixture.hs256(nonce: "n-1")), nonce: "n-1"), fixture: fixture)
    #expect(hs256Error?.code == .configuration)
    #expect(hs256Error?.message.contains("channel secret") == true)
    #expect(try LINEConfiguration(channelID: "1656000000", environment: [:]).channelSecret == nil)
  }

  @Test func accessTokenOfAnotherChannelIsRejected() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on(
      "GET", LINEFixture.verifyPath,
      reply: .json(#"{"scope":"profile","client_id":"1440057261","expires_in":2591659}"#))
    let (_, error) = try await verify(
      .accessToken(Secret(LINEFixture.accessToken)), fixture: fixture)
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("another channel") == true)
    #expect(fixture.stub.requestCount(path: LINEFixture.profilePath) == 0)
  }

  @Test func exhaustedAccessTokenIsRejected() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on(
      "GET", LINEFixture.verifyPath,
      reply: .json(#"{"scope":"profile","client_id":"1656000000","expires_in":0}"#))
    let (_, error) = try await verify(.accessToken("t-123"), fixture: fixture)
    #expect(error?.code == .invalidToken)
  }

  @Test func expiredAccessTokenIsLINEsInvalidRequest() async throws {
    let fixture = try LINEFixture()
    fixture.stub.on(
      "GET", LINEFixture.verifyPath,
      reply: .json(
        #"{"error":"invalid_request","error_description":"access token expired"}"#, status: 400))
    let (_, error) = try await verify(
      .accessToken(Secret(LINEFixture.accessToken)), fixture: fixture)
    #expect(error?.code == .invalidToken)
    #expect(error?.oauth?.errorDescription == "access token expired")
    #expect(
      error.map { fixture.provider.classifyFailure($0) } == .refreshTokenInvalid(.accessRevoked))
    expectNoSecrets(error, [LINEFixture.accessToken])
  }
}
