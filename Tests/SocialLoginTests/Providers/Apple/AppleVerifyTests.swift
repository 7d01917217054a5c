import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@Suite("Apple ID-token verification", .heavy, .timeLimit(.minutes(10)))
struct AppleVerifyTests {
  static let rawNonce = "r4w-n0nce-from-the-app"
  static var hashedNonce: String {
    SHA256.hash(Array(rawNonce.utf8)).map {
      let digits = String($0, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }.joined()
  }

  func verify(_ token: String, nonce: String? = rawNonce) async throws -> VerifiedIdentity {
    let fixture = try AppleFixture()
    return try await fixture.provider.verify(
      .idToken(Secret(token), nonce: nonce.map { Secret($0) }))
  }

  func reason(_ token: String, nonce: String? = rawNonce) async -> JOSEError.Reason? {
    await asyncJOSEReason { _ = try await verify(token, nonce: nonce) }
  }

  @Test(arguments: [rawNonce, hashedNonce])
  func theRawNonceAndItsSHA256HexBothMatch(sent: String) async throws {
    let verified = try await verify(try AppleFixture.idToken(nonce: sent))
    #expect(verified.identity.subject == AppleFixture.subject)
    #expect(verified.identity.provider == .apple)
    #expect(verified.audience == .proven(audience: AppleFixture.webClientID))
    #expect(verified.expiresAt == Date(timeIntervalSince1970: 1_700_000_600))
  }

  @Test func anotherNonceIsRefused() async throws {
    #expect(await reason(try AppleFixture.idToken(nonce: "other")) == .nonceMismatch)
    // The hash of another raw nonce is not accepted either.
    #expect(
      await reason(try AppleFixture.idToken(nonce: Self.hashedNonce), nonce: "other")
        == .nonceMismatch)
  }

  @Test func aMissingNonceFailsUnlessThePlatformSaysItHasNone() async throws {
    #expect(await reason(try AppleFixture.idToken(nonce: nil)) == .nonceMismatch)
    #expect(
      await reason(try AppleFixture.idToken(nonce: nil, merging: ["nonce_supported": "true"]))
        == .nonceMismatch)
    let unsupported = try AppleFixture.idToken(
      nonce: nil, merging: ["nonce_supported": false])
    #expect(try await verify(unsupported).identity.subject == AppleFixture.subject)
  }

  @Test func aTokenWithANonceNeedsOneToCompare() async throws {
    #expect(await reason(try AppleFixture.idToken(nonce: "n"), nonce: nil) == .nonceMismatch)
  }

  @Test(
    arguments: [
      (JSONValue.string("true"), true), (.string("false"), false), (.bool(true), true),
      (.bool(false), false),
    ])
  func emailVerifiedArrivesAsAStringOrABoolean(value: JSONValue, expected: Bool) async throws {
    let token = try AppleFixture.idToken(
      nonce: Self.rawNonce, merging: ["email_verified": value, "is_private_email": value])
    let verified = try await verify(token)
    #expect(verified.identity.emailVerified == expected)
    #expect(verified.identity.email == "abc123@privaterelay.appleid.com")
    let apple = AppleIDTokenClaims(verified.identity)
    #expect(apple.isPrivateEmail == expected)
    #expect(apple.emailVerified == expected)
  }

  @Test(
    arguments: [
      (0, AppleIDTokenClaims.RealUserStatus.unsupported), (1, .unknown), (2, .likelyReal),
    ])
  func realUserStatusIsTyped(raw: Int, expected: AppleIDTokenClaims.RealUserStatus) async throws {
    let token = try AppleFixture.idToken(
      nonce: Self.rawNonce, merging: ["real_user_status": .number(Double(raw))])
    #expect(AppleIDTokenClaims(try await verify(token).identity).realUserStatus == expected)
  }

  @Test func everyConfiguredClientIDIsAnAudience() async throws {
    let app = try await verify(
      try AppleFixture.idToken(audience: AppleFixture.appClientID, nonce: Self.rawNonce))
    #expect(app.audience == .proven(audience: AppleFixture.appClientID))
    #expect(
      await reason(try AppleFixture.idToken(audience: "com.other.app", nonce: Self.rawNonce))
        == .audienceMismatch)
  }

  @Test func issuerExpiryAndSignatureAreChecked() async throws {
    #expect(
      await reason(
        try AppleFixture.idToken(
          nonce: Self.rawNonce, merging: ["iss": "https://appleid.apple.com.evil"]))
        == .issuerMismatch)
    #expect(
      await reason(
        try AppleFixture.idToken(
          nonce: Self.rawNonce, merging: ["iat": 1_699_990_000, "exp": 1_699_990_600]))
        == .expired)
    let token = try AppleFixture.idToken(nonce: Self.rawNonce)
    let tampered = token.dropLast(4) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
    #expect(await reason(String(tampered)) == .signatureInvalid)
    // HS256 is never an Apple algorithm.
    let hs = TestTokens.hs256(.object(AppleFixture.claims(nonce: Self.rawNonce)))
    #expect(await reason(hs) == .algorithmNotAllowed)
  }

  @Test func aRotatedKeyIsFetchedAgain() async throws {
    let fixture = try AppleFixture(stubKeys: false)
    let rotated = JWSSigner.rs256(try RSAKeys.rfc7515(), keyID: "apple-rsa-2")
    let token = try rotated.signJWT(claims: AppleFixture.claims(nonce: Self.rawNonce))
    // The first set lacks the new key; the one fetched after the rotation has it.
    fixture.stub.on("GET", AppleFixture.keysPath, reply: .json(try AppleFixture.jwks()))
    fixture.stub.on(
      "GET", AppleFixture.keysPath,
      reply: .json(JWKSet(keys: [rotated.publicJWK].compactMap { $0 }).publicJSON.jsonText))
    _ = try await fixture.provider.verify(
      .idToken(Secret(try AppleFixture.idToken(nonce: Self.rawNonce)), nonce: Secret(Self.rawNonce))
    )
    fixture.clock.advance(by: .seconds(600))
    let verified = try await fixture.provider.verify(
      .idToken(Secret(token), nonce: Secret(Self.rawNonce)))
    #expect(verified.identity.subject == AppleFixture.subject)
    #expect(fixture.stub.requestCount(path: AppleFixture.keysPath) == 2)
  }

  @Test func accessTokensCannotBeVerified() async throws {
    let fixture = try AppleFixture()
    let error = await authError { _ = try await fixture.provider.verify(.accessToken("a")) }
    #expect(error?.code == .unsupported)
    #expect(error?.provider == .apple)
  }
}
