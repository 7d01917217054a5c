import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite("Facebook verify", .timeLimit(.minutes(2)))
struct FacebookVerifyTests {
  @Test func accessTokenIsProvenByDebugTokenThenMe() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.debugPath,
      reply: .json(FacebookFixture.debugBody(expiresAt: 1_705_000_000)))
    fixture.stub.on("GET", FacebookFixture.mePath, reply: .json(FacebookFixture.meBody))
    let verified = try await fixture.provider.verify(
      .accessToken(Secret(FacebookFixture.userToken)))
    #expect(verified.audience == .proven(audience: FacebookFixture.appID))
    #expect(verified.identity.subject == "10001")
    #expect(verified.identity.email == "ada@example.com")
    #expect(verified.expiresAt == Date(timeIntervalSince1970: 1_705_000_000))
    #expect(verified.scopes == ["email", "public_profile"])
    let paths = fixture.stub.requests.map(\.url.path)
    #expect(paths == [FacebookFixture.debugPath, FacebookFixture.mePath])
    let me = FacebookFixture.query(fixture.stub.requests.last)
    #expect(me["appsecret_proof"] == FacebookFixture.proofs[FacebookFixture.userToken])
  }

  @Test func tokenOfAnotherAppIsRejected() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.debugBody(appID: "987654")))
    let error = await authError {
      _ = try await fixture.provider.verify(.accessToken(Secret(FacebookFixture.userToken)))
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.message.contains("another app") == true)
    #expect(fixture.stub.requestCount(path: FacebookFixture.mePath) == 0)
    expectNoSecrets(error, [FacebookFixture.userToken, FacebookFixture.appSecret.revealed])
  }

  @Test func invalidTokenAnswersHTTP200WithIsValidFalse() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.invalidDebugBody()))
    let error = await authError {
      _ = try await fixture.provider.verify(.accessToken(Secret(FacebookFixture.userToken)))
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.providerCode == "190")
    #expect(error?.providerSubcode == "463")
    #expect(error?.signOutReason == .accessTokenExpired)
    #expect(fixture.stub.requestCount(path: FacebookFixture.mePath) == 0)
  }

  @Test func meNamingAnotherUserIsRejected() async throws {
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.debugPath, reply: .json(FacebookFixture.debugBody(userID: "777")))
    fixture.stub.on("GET", FacebookFixture.mePath, reply: .json(FacebookFixture.meBody))
    let error = await authError {
      _ = try await fixture.provider.verify(.accessToken(Secret(FacebookFixture.userToken)))
    }
    #expect(error?.code == .invalidToken)
  }

  func limitedLogin(
    _ token: String, nonce: String? = "fb-nonce",
    configure: (inout FacebookConfiguration) -> Void = { _ in }
  ) async throws -> (VerifiedIdentity?, AuthError?, FacebookFixture) {
    let fixture = try FacebookFixture(configure: configure)
    fixture.stub.on(
      "GET", FacebookFixture.jwksPath, repeating: true,
      reply: .json(ProviderTokenFixtures.facebookJWKS))
    do {
      let verified = try await fixture.provider.verify(
        .idToken(Secret(token), nonce: nonce.map { Secret($0) }))
      return (verified, nil, fixture)
    } catch let error as AuthError {
      return (nil, error, fixture)
    }
  }

  /// Issue 20, item 7: a token carrying a nonce needs it, or the explicit opt-out.
  @Test func aLimitedLoginTokenCarryingANonceNeedsItOrAnExplicitOptOut() async throws {
    let (_, refused, _) = try await limitedLogin(ProviderTokenFixtures.facebookValid, nonce: nil)
    #expect(refused?.code == .invalidToken)
    #expect(refused?.joseError?.reason == .nonceMismatch)
    #expect(refused?.message.contains("idTokenAcceptingAnyNonce") == true)
    let fixture = try FacebookFixture()
    fixture.stub.on(
      "GET", FacebookFixture.jwksPath, repeating: true,
      reply: .json(ProviderTokenFixtures.facebookJWKS))
    let verified = try await fixture.provider.verify(
      .idTokenAcceptingAnyNonce(Secret(ProviderTokenFixtures.facebookValid)))
    #expect(verified.identity.subject == "10001")
  }

  @Test func limitedLoginIDTokenVerifiesWithJWKSAndNonce() async throws {
    let (verified, error, fixture) = try await limitedLogin(ProviderTokenFixtures.facebookValid)
    #expect(error == nil)
    #expect(verified?.identity.subject == "10001")
    #expect(verified?.identity.name == "Ada Lovelace")
    #expect(verified?.identity.email == "ada@example.com")
    #expect(verified?.audience == .proven(audience: FacebookFixture.appID))
    #expect(verified?.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
    let jwks = try #require(fixture.stub.requests.first)
    #expect(
      jwks.url.absoluteString == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
  }

  /// A backend that only verifies Limited Login ID tokens configures the app id alone;
  /// what needs the secret (access tokens, through `debug_token`) says so without a request.
  @Test func limitedLoginIDTokensNeedTheAppIDAlone() async throws {
    let (verified, error, fixture) = try await limitedLogin(ProviderTokenFixtures.facebookValid) {
      $0.appSecret = nil
    }
    #expect(error == nil)
    #expect(verified?.identity.subject == "10001")
    let requests = fixture.stub.requests.count
    let accessError = await authError {
      _ = try await fixture.provider.verify(.accessToken(Secret(FacebookFixture.userToken)))
    }
    #expect(accessError?.code == .configuration)
    #expect(accessError?.message.contains("app secret") == true)
    #expect(fixture.stub.requests.count == requests)
    #expect(try FacebookConfiguration(appID: "1234567890", environment: [:]).appSecret == nil)
  }

  @Test func limitedSubdomainIssuerIsAccepted() async throws {
    let (verified, error, _) = try await limitedLogin(ProviderTokenFixtures.facebookLimitedIssuer)
    #expect(error == nil)
    #expect(verified?.identity.subject == "10001")
  }

  @Test(
    "Limited Login tokens that must be rejected",
    arguments: [
      ("wrong audience", ProviderTokenFixtures.facebookWrongAudience),
      ("wrong nonce", ProviderTokenFixtures.facebookWrongNonce),
      ("look-alike issuer", ProviderTokenFixtures.facebookLookalikeIssuer),
      ("issuer with facebook.com as a prefix", ProviderTokenFixtures.facebookSuffixIssuer),
      ("http issuer", ProviderTokenFixtures.facebookHTTPIssuer),
      ("expired", ProviderTokenFixtures.facebookExpired),
      ("unknown key", ProviderTokenFixtures.facebookUnknownKey),
    ])
  func limitedLoginRejections(name: String, token: String) async throws {
    let (verified, error, _) = try await limitedLogin(token)
    #expect(verified == nil, "\(name) was accepted")
    #expect(error?.code == .invalidToken, "\(name): \(String(describing: error))")
  }

  @Test func missingNonceIsRejectedWhenOneIsExpected() async throws {
    let (_, error, _) = try await limitedLogin(
      ProviderTokenFixtures.facebookValid, nonce: "another")
    #expect(error?.joseError?.reason == .nonceMismatch)
  }

  @Test func configuredIssuerIsExact() async throws {
    let (_, error, _) = try await limitedLogin(ProviderTokenFixtures.facebookLimitedIssuer) {
      $0.limitedLoginIssuer = "https://www.facebook.com"
    }
    #expect(error?.joseError?.reason == .issuerMismatch)
    let (verified, _, _) = try await limitedLogin(ProviderTokenFixtures.facebookValid) {
      $0.limitedLoginIssuer = "https://www.facebook.com"
    }
    #expect(verified != nil)
  }

  @Test func alteredTokenIsRejected() async throws {
    var token = ProviderTokenFixtures.facebookValid
    token.removeLast(2)
    token += "AA"
    let (_, error, _) = try await limitedLogin(token)
    #expect(error?.code == .invalidToken)
  }

  @Test func oauth1IsUnsupported() async throws {
    let fixture = try FacebookFixture()
    let error = await authError {
      _ = try await fixture.provider.verify(.oauth1(token: "t", secret: "s"))
    }
    #expect(error?.code == .unsupported)
  }
}
