import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// Claim checks on a manual clock, through HS256 tokens signed in the test.
@Suite(.timeLimit(.minutes(5))) struct JWTClaimsTests {
  let clock = ManualClock()  // wall time 1_700_000_000
  let key = JWK.symmetric(TestTokens.secret, algorithm: .hs256)

  func validator(_ policy: JWTClaimsPolicy = JWTClaimsPolicy()) -> JWTValidator {
    JWTValidator(allowedAlgorithms: [.hs256], policy: policy, clock: clock)
  }

  func reason(
    _ claims: JSONValue, _ policy: JWTClaimsPolicy = JWTClaimsPolicy(), accessToken: String? = nil
  )
    -> JOSEError.Reason?
  {
    joseReason {
      _ = try validator(policy).validate(
        TestTokens.hs256(claims), key: key, accessToken: accessToken)
    }
  }

  @Test func validTokenPassesAndExposesTypedClaims() throws {
    let policy = JWTClaimsPolicy(
      issuer: "https://issuer.example", audience: "client-1", nonce: "n-0S6_WzA2Mj")
    let jwt = try validator(policy).validate(TestTokens.hs256(TestTokens.claims), key: key)
    #expect(jwt.subject == "user-1")
    #expect(jwt.issuer == "https://issuer.example")
    #expect(jwt.audiences == ["client-1"])
    #expect(jwt.nonce == "n-0S6_WzA2Mj")
    #expect(jwt.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
    #expect(jwt.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(jwt.header["alg"] == "HS256")
    #expect(jwt[claim: "sub"] == "user-1")
  }

  @Test func expiryHonoursTheLeewayBoundary() {
    // exp = now + 0; leeway 60: valid until now < exp + 60.
    var policy = JWTClaimsPolicy()
    policy.leeway = 60
    let claims = TestTokens.claims(merging: ["exp": 1_700_000_000])
    #expect(reason(claims, policy) == nil)
    clock.advance(by: .seconds(59))
    #expect(reason(claims, policy) == nil)
    clock.advance(by: .seconds(1))
    #expect(reason(claims, policy) == .expired)
    policy.leeway = 61
    #expect(reason(claims, policy) == nil)
  }

  /// Found by fuzzing: the error messages converted any JSON number to `Int64`, which traps
  /// beyond ±2^63. A signed token from a misbehaving provider crashed the process.
  @Test func timeClaimsBeyondTheIntegerRangeAreTypedErrorsNotCrashes() {
    #expect(reason(TestTokens.claims(merging: ["exp": -1e19])) == .expired)
    #expect(reason(TestTokens.claims(merging: ["nbf": 1e19])) == .notYetValid)
    #expect(
      reason(TestTokens.claims(merging: ["iat": .number(1e20)])) == .issuedInFuture)
    #expect(reason(TestTokens.claims(merging: ["exp": 1e300])) == nil)
  }

  @Test func expiredWithoutLeeway() {
    let policy = JWTClaimsPolicy(leeway: 0)
    clock.advance(by: .seconds(3599))
    #expect(reason(TestTokens.claims, policy) == nil)
    clock.advance(by: .seconds(1))
    #expect(reason(TestTokens.claims, policy) == .expired)
  }

  @Test func notBeforeInTheFutureIsRejectedOutsideTheLeeway() {
    let claims = TestTokens.claims(merging: ["nbf": 1_700_000_100])
    #expect(reason(claims, JWTClaimsPolicy(leeway: 99)) == .notYetValid)
    #expect(reason(claims, JWTClaimsPolicy(leeway: 100)) == nil)
    clock.advance(by: .seconds(100))
    #expect(reason(claims, JWTClaimsPolicy(leeway: 0)) == nil)
  }

  @Test func issuedInTheFutureIsRejected() {
    let claims = TestTokens.claims(merging: ["iat": 1_700_000_300])
    #expect(reason(claims, JWTClaimsPolicy(leeway: 299)) == .issuedInFuture)
    #expect(reason(claims, JWTClaimsPolicy(leeway: 300)) == nil)
  }

  @Test func maximumTokenAgeUsesIat() {
    var policy = JWTClaimsPolicy(leeway: 0)
    policy.maximumTokenAge = 600
    clock.advance(by: .seconds(600))
    #expect(reason(TestTokens.claims, policy) == nil)
    clock.advance(by: .seconds(1))
    #expect(reason(TestTokens.claims, policy) == .expired)
    #expect(reason(TestTokens.claims(merging: [:], removing: ["iat"]), policy) == .missingClaim)
  }

  @Test func requiredClaimsMustBePresent() {
    #expect(reason(TestTokens.claims(merging: [:], removing: ["exp"])) == .missingClaim)
    let policy = JWTClaimsPolicy(requiredClaims: ["sub", "jti"])
    #expect(reason(TestTokens.claims, policy) == .missingClaim)
    #expect(reason(TestTokens.claims(merging: ["jti": "j1"]), policy) == nil)
  }

  @Test func timeClaimsMustBeNumbers() {
    #expect(reason(TestTokens.claims(merging: ["exp": "1700003600"])) == .malformed)
    #expect(reason(TestTokens.claims(merging: ["nbf": true])) == .malformed)
  }

  @Test func issuerMustMatchExactly() {
    let policy = JWTClaimsPolicy(issuer: "https://issuer.example")
    #expect(
      reason(TestTokens.claims(merging: ["iss": "https://issuer.example/"]), policy)
        == .issuerMismatch)
    #expect(
      reason(TestTokens.claims(merging: ["iss": "https://ISSUER.example"]), policy)
        == .issuerMismatch)
    #expect(reason(TestTokens.claims(merging: [:], removing: ["iss"]), policy) == .issuerMismatch)
    #expect(reason(TestTokens.claims(merging: ["iss": 1]), policy) == .issuerMismatch)
  }

  @Test func audienceStringOrArrayMustContainTheClient() {
    let policy = JWTClaimsPolicy(audience: "client-1")
    #expect(reason(TestTokens.claims(merging: ["aud": ["client-1"]]), policy) == nil)
    #expect(reason(TestTokens.claims(merging: ["aud": ["other", "client-1"]]), policy) == nil)
    #expect(reason(TestTokens.claims(merging: ["aud": "client-2"]), policy) == .audienceMismatch)
    #expect(reason(TestTokens.claims(merging: ["aud": []]), policy) == .audienceMismatch)
    #expect(
      reason(TestTokens.claims(merging: ["aud": ["client-1", 3]]), policy) == .audienceMismatch)
    #expect(reason(TestTokens.claims(merging: [:], removing: ["aud"]), policy) == .audienceMismatch)
  }

  @Test func multipleAudiencesNeedAzpWhenRequired() {
    var policy = JWTClaimsPolicy(audience: "client-1")
    policy.requiresAuthorizedPartyForMultipleAudiences = true
    let twoAudiences = TestTokens.claims(merging: ["aud": ["client-1", "other"]])
    #expect(reason(twoAudiences, policy) == .authorizedPartyMismatch)
    let withAzp = TestTokens.claims(merging: ["aud": ["client-1", "other"], "azp": "client-1"])
    #expect(reason(withAzp, policy) == nil)
    let wrongAzp = TestTokens.claims(merging: ["aud": ["client-1", "other"], "azp": "other"])
    #expect(reason(wrongAzp, policy) == .authorizedPartyMismatch)
    // A present azp must equal the client even with one audience.
    #expect(
      reason(TestTokens.claims(merging: ["azp": "other"]), policy) == .authorizedPartyMismatch)
  }

  @Test func untrustedExtraAudiencesAreRejectedUnlessConfigured() {
    var policy = JWTClaimsPolicy(audience: "client-1")
    policy.rejectsUntrustedAudiences = true
    let claims = TestTokens.claims(merging: ["aud": ["client-1", "partner"], "azp": "client-1"])
    #expect(reason(claims, policy) == .audienceMismatch)
    policy.trustedAudiences = ["partner"]
    #expect(reason(claims, policy) == nil)
  }

  @Test func nonceMustMatch() {
    #expect(reason(TestTokens.claims, JWTClaimsPolicy(nonce: "n-0S6_WzA2Mj")) == nil)
    #expect(reason(TestTokens.claims, JWTClaimsPolicy(nonce: "n-0S6_WzA2Mk")) == .nonceMismatch)
    #expect(reason(TestTokens.claims, JWTClaimsPolicy(nonce: "n-0S6_WzA2M")) == .nonceMismatch)
    #expect(
      reason(TestTokens.claims(merging: [:], removing: ["nonce"]), JWTClaimsPolicy(nonce: "x"))
        == .nonceMismatch)
  }

  @Test func maxAgeRequiresAFreshAuthTime() {
    var policy = JWTClaimsPolicy(leeway: 0)
    policy.maximumAuthenticationAge = 300
    #expect(reason(TestTokens.claims, policy) == .missingClaim)
    #expect(reason(TestTokens.claims(merging: ["auth_time": 1_699_999_700]), policy) == nil)
    #expect(
      reason(TestTokens.claims(merging: ["auth_time": 1_699_999_699]), policy)
        == .authenticationTooOld)
  }

  /// Expected value computed independently with Python:
  /// `base64.urlsafe_b64encode(hashlib.sha256(token).digest()[:16])`.
  @Test func atHashIsTheLeftHalfOfTheAccessTokenHash() {
    let accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNQnMNUX2ja8U1d1"
    #expect(
      JWTClaimsPolicy.accessTokenHash(accessToken, algorithm: .rs256) == "jjA0FJPhrvKv8mtTZVoGXQ")
    let claims = TestTokens.claims(merging: ["at_hash": "jjA0FJPhrvKv8mtTZVoGXQ"])
    #expect(reason(claims, accessToken: accessToken) == nil)
    #expect(reason(claims, accessToken: accessToken + "x") == .accessTokenHashMismatch)
    // Without at_hash (code flow) an access token is not checked.
    #expect(reason(TestTokens.claims, accessToken: "anything") == nil)
    #expect(
      reason(TestTokens.claims(merging: ["at_hash": 5]), accessToken: "anything") == .malformed)
  }

  @Test func payloadMustBeAJSONObject() {
    for payload in ["[1,2]", "\"text\"", "not json", "{\"a\":1,\"a\":2}"] {
      let token = TestTokens.hmac(payload: Array(payload.utf8))
      #expect(joseReason { _ = try validator().validate(token, key: key) } == .payloadNotJSON)
    }
  }

  @Test func signatureIsCheckedBeforeClaims() {
    let expired = TestTokens.hs256(TestTokens.claims(merging: ["exp": 1]), key: Array("wrong".utf8))
    #expect(joseReason { _ = try validator().validate(expired, key: key) } == .signatureInvalid)
  }
}
