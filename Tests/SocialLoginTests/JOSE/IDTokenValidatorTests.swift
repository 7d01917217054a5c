import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct IDTokenValidatorTests {
  let clock = ManualClock()  // wall time 1_700_000_000

  func fixtureKeys() throws -> JWKSet {
    try JWKSet(
      parsing: Array(#"{"keys":[\#(JOSEFixtures.rsaJWK),\#(JOSEFixtures.ec1JWK)]}"#.utf8))
  }

  func oidc(_ configure: (inout IDTokenValidator.Configuration) -> Void = { _ in }) throws
    -> IDTokenValidator
  {
    var configuration = IDTokenValidator.Configuration(
      issuer: "https://issuer.example", clientID: "client-1")
    configure(&configuration)
    return IDTokenValidator(
      configuration: configuration, keys: StaticKeyResolver(try fixtureKeys()), clock: clock)
  }

  @Test func rs256AndES256IDTokensValidate() async throws {
    let validator = try oidc()
    for token in [JOSEFixtures.rs256, JOSEFixtures.es256] {
      let jwt = try await validator.validate(token, nonce: "n-0S6_WzA2Mj")
      #expect(jwt.subject == "user-1")
    }
  }

  @Test func rs384IsRefusedUnlessAllowed() async throws {
    let strict = try oidc()
    #expect(
      await asyncJOSEReason { _ = try await strict.validate(JOSEFixtures.rs384, nonce: nil) }
        == .algorithmNotAllowed)
    let relaxed = try oidc { $0.allowedAlgorithms = [.rs384] }
    #expect(
      await asyncJOSEReason { _ = try await relaxed.validate(JOSEFixtures.rs384, nonce: nil) }
        == nil)
  }

  @Test func wrongNonceIsRejected() async throws {
    let validator = try oidc()
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(JOSEFixtures.rs256, nonce: "other") }
        == .nonceMismatch)
  }

  @Test func expiredIDTokenIsRejectedAfterTheLeeway() async throws {
    let validator = try oidc()
    clock.advance(by: .seconds(3600 + 59))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(JOSEFixtures.es256, nonce: nil) }
        == nil)
    clock.advance(by: .seconds(1))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(JOSEFixtures.es256, nonce: nil) }
        == .expired)
  }

  @Test func wrongIssuerOrClientIsRejected() async throws {
    let otherIssuer = try oidc { $0.issuer = "https://evil.example" }
    #expect(
      await asyncJOSEReason { _ = try await otherIssuer.validate(JOSEFixtures.rs256, nonce: nil) }
        == .issuerMismatch)
    let otherClient = try oidc { $0.clientID = "client-2" }
    #expect(
      await asyncJOSEReason { _ = try await otherClient.validate(JOSEFixtures.rs256, nonce: nil) }
        == .audienceMismatch)
  }

  @Test func requiredOIDCClaimsAreEnforced() async throws {
    let key = JWK.symmetric(TestTokens.secret, algorithm: .hs256)
    let validator = IDTokenValidator(
      configuration: .init(
        issuer: "https://issuer.example", clientID: "client-1", allowedAlgorithms: [.hs256]),
      keys: StaticKeyResolver(key), clock: clock)
    for missing in ["iss", "sub", "aud", "exp", "iat"] {
      let token = TestTokens.hs256(TestTokens.claims(merging: [:], removing: [missing]))
      #expect(
        await asyncJOSEReason { _ = try await validator.validate(token, nonce: nil) }
          == .missingClaim)
    }
    // "x" is not trusted: rejected whether or not azp is present.
    let multi = TestTokens.hs256(TestTokens.claims(merging: ["aud": ["client-1", "x"]]))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(multi, nonce: nil) }
        == .audienceMismatch)
    let multiAzp = TestTokens.hs256(
      TestTokens.claims(merging: ["aud": ["client-1", "x"], "azp": "client-1"]))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(multiAzp, nonce: nil) }
        == .audienceMismatch)
    // Once "x" is trusted, several audiences still need azp == client_id.
    let trusting = IDTokenValidator(
      configuration: .init(
        issuer: "https://issuer.example", clientID: "client-1", allowedAlgorithms: [.hs256],
        trustedAudiences: ["x"]),
      keys: StaticKeyResolver(key), clock: clock)
    #expect(await asyncJOSEReason { _ = try await trusting.validate(multiAzp, nonce: nil) } == nil)
    #expect(
      await asyncJOSEReason { _ = try await trusting.validate(multi, nonce: nil) }
        == .authorizedPartyMismatch)
    let authTime = TestTokens.hs256(TestTokens.claims(merging: ["auth_time": 1_699_990_000]))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(authTime, nonce: nil, maxAge: 3600) }
        == .authenticationTooOld)
    #expect(
      await asyncJOSEReason {
        _ = try await validator.validate(authTime, nonce: nil, maxAge: 36000)
      }
        == nil)
    let atHash = TestTokens.hs256(TestTokens.claims(merging: ["at_hash": "jjA0FJPhrvKv8mtTZVoGXQ"]))
    #expect(
      await asyncJOSEReason {
        _ = try await validator.validate(
          atHash, nonce: nil, accessToken: "jHkWEdUXMU1BwAsC4vtUsZwnNQnMNUX2ja8U1d1")
      } == nil)
    #expect(
      await asyncJOSEReason {
        _ = try await validator.validate(atHash, nonce: nil, accessToken: "other")
      } == .accessTokenHashMismatch)
  }

  // MARK: LINE

  static let channelSecret: Secret = "0123456789abcdef0123456789abcdef"

  func lineValidator() throws -> IDTokenValidator {
    let certificates = StaticKeyResolver(try fixtureKeys())
    return IDTokenValidator(
      configuration: .init(
        issuer: "https://access.line.me", clientID: "1656000000",
        allowedAlgorithms: [.es256, .hs256]),
      keys: HeaderKeyResolver.line(channelSecret: Self.channelSecret, certificates: certificates),
      clock: clock)
  }

  static let lineClaims: JSONValue = [
    "iss": "https://access.line.me", "sub": "U1234567890abcdef", "aud": "1656000000",
    "iat": 1_700_000_000, "exp": 1_700_003_600, "nonce": "line-nonce", "amr": ["pwd"],
  ]

  @Test func lineWebLoginHS256WithoutKidUsesTheChannelSecret() async throws {
    let token = TestTokens.hs256(Self.lineClaims, key: Array(Self.channelSecret.revealed.utf8))
    let jwt = try await lineValidator().validate(token, nonce: "line-nonce")
    #expect(jwt.algorithm == .hs256)
    #expect(jwt.subject == "U1234567890abcdef")
    let wrongSecret = TestTokens.hs256(Self.lineClaims, key: Array("another-channel-secret".utf8))
    #expect(
      await asyncJOSEReason {
        _ = try await lineValidator().validate(wrongSecret, nonce: "line-nonce")
      }
        == .signatureInvalid)
  }

  @Test func lineAppES256WithKidUsesTheJWKS() async throws {
    let jwt = try await lineValidator().validate(JOSEFixtures.lineES256, nonce: "line-nonce")
    #expect(jwt.algorithm == .es256)
    #expect(jwt.keyID == "ec-1")
    #expect(jwt.claims["amr"] == ["linesso"])
  }

  @Test func lineRefusesCrossedAlgorithms() async throws {
    let validator = try lineValidator()
    // HS256 with a kid goes to the JWKS, whose key is EC: refused, not HMAC-checked.
    let hsWithKid = TestTokens.hs256(
      Self.lineClaims, header: ["alg": "HS256", "kid": "ec-1"],
      key: Array(Self.channelSecret.revealed.utf8))
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(hsWithKid, nonce: "line-nonce") }
        == .keyAlgorithmMismatch)
    // ES256 without a kid goes to the channel secret, an HS256 key: refused.
    let parts = JOSEFixtures.lineES256.split(separator: ".")
    let esWithoutKid =
      Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + parts[1] + "." + parts[2]
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(esWithoutKid, nonce: "line-nonce") }
        == .keyAlgorithmMismatch)
    // Unknown kid.
    let unknownKid = TestTokens.hs256(Self.lineClaims, header: ["alg": "ES256", "kid": "nope"])
    #expect(
      await asyncJOSEReason { _ = try await validator.validate(unknownKid, nonce: "line-nonce") }
        == .keyNotFound)
  }
}
