import Foundation
import SocialLogin
import SocialLoginCrypto
import Testing

@Suite(.timeLimit(.minutes(5))) struct JWSVerificationTests {
  let all = JWSVerifier(allowedAlgorithms: Set(JWSAlgorithm.allCases))

  // MARK: RFC 7515 Appendix A

  @Test func rfc7515A1HS256Verifies() throws {
    let key = try JWK(parsing: Array(RFC7515.a1JWK.utf8))
    let jws = try JWSVerifier(allowedAlgorithms: [.hs256]).verify(RFC7515.a1Token, key: key)
    #expect(jws.algorithm == .hs256)
    #expect(jws.header["typ"] == "JWT")
    let claims = try JSONValue(parsing: jws.payload)
    #expect(claims["iss"] == "joe")
    #expect(claims["exp"] == 1_300_819_380)
    #expect(claims["http://example.com/is_root"] == true)
  }

  @Test func rfc7515A2RS256Verifies() throws {
    let (token, jwk) = try RFC7515.a2()
    let key = try JWK(parsing: Array(jwk.utf8))
    let jws = try JWSVerifier(allowedAlgorithms: [.rs256]).verify(token, key: key)
    #expect(jws.algorithm == .rs256)
    #expect(try JSONValue(parsing: jws.payload)["iss"] == "joe")
  }

  @Test func rfc7515A3ES256Verifies() throws {
    let (token, jwk) = try RFC7515.a3()
    let key = try JWK(parsing: Array(jwk.utf8))
    let jws = try JWSVerifier(allowedAlgorithms: [.es256]).verify(token, key: key)
    #expect(jws.algorithm == .es256)
  }

  @Test func rfc7515ExamplesFailWhenTampered() throws {
    let key = try JWK(parsing: Array(RFC7515.a1JWK.utf8))
    let tampered = RFC7515.a1Token.replacingOccurrences(of: ".dBjf", with: ".dBjg")
    #expect(joseReason { _ = try all.verify(tampered, key: key) } == .signatureInvalid)
    let (token, jwk) = try RFC7515.a3()
    let ecKey = try JWK(parsing: Array(jwk.utf8))
    let otherPayload = TestTokens.replacingHeader(of: token, with: #"{"alg":"ES256","x":1}"#)
    #expect(joseReason { _ = try all.verify(otherPayload, key: ecKey) } == .signatureInvalid)
  }

  // MARK: Generated fixtures

  @Test(arguments: [
    (JOSEFixtures.rs256, JWSAlgorithm.rs256), (JOSEFixtures.rs384, .rs384),
    (JOSEFixtures.rs512, .rs512),
  ])
  func rsaFixturesVerify(token: String, algorithm: JWSAlgorithm) throws {
    let key = try JWK(parsing: Array(JOSEFixtures.rsaJWK.utf8))
    let jwt = try JWSVerifier(allowedAlgorithms: [algorithm]).verifyJWT(token, key: key)
    #expect(jwt.algorithm == algorithm)
    #expect(jwt.keyID == "rsa-1")
    #expect(jwt.subject == "user-1")
  }

  @Test func es256FixtureVerifiesFromASet() throws {
    let set = try JWKSet(
      parsing: Array(#"{"keys":[\#(JOSEFixtures.rsaJWK),\#(JOSEFixtures.ec1JWK)]}"#.utf8))
    let jwt = try all.verifyJWT(JOSEFixtures.es256, keys: set)
    #expect(jwt.keyID == "ec-1")
    #expect(jwt.audiences == ["client-1"])
  }

  @Test func tokenWithoutKidTriesTheSuitableKeys() throws {
    let set = try JWKSet(
      parsing: Array(#"{"keys":[\#(JOSEFixtures.ec1JWK),\#(JOSEFixtures.rsaJWK)]}"#.utf8))
    let jwt = try all.verifyJWT(JOSEFixtures.rs256NoKid, keys: set)
    #expect(jwt.keyID == "rsa-1")
  }

  @Test func binaryPayloadVerifiesAsJWSButNotAsJWT() throws {
    let key = try JWK(parsing: Array(JOSEFixtures.rsaJWK.utf8))
    let jws = try all.verify(JOSEFixtures.rs256Binary, key: key)
    #expect(jws.payload == Array(0..<40))
    #expect(
      joseReason { _ = try all.verifyJWT(JOSEFixtures.rs256Binary, key: key) } == .payloadNotJSON)
  }

  // MARK: Algorithm pinning

  @Test func algNoneIsRejectedEvenWhenListedByCase() throws {
    let key = JWK.symmetric(TestTokens.secret)
    for alg in ["none", "None", "NONE"] {
      let token =
        Base64URL.encode(Array(#"{"alg":"\#(alg)"}"#.utf8)) + "."
        + Base64URL.encode(Array(#"{"sub":"x"}"#.utf8)) + "."
      #expect(joseReason { _ = try all.verify(token, key: key) } == .algorithmNotAllowed)
    }
  }

  @Test func algorithmOutsideTheAllowedListIsRejected() throws {
    let key = JWK.symmetric(TestTokens.secret)
    let token = TestTokens.hs256(TestTokens.claims)
    let rsaOnly = JWSVerifier(allowedAlgorithms: [.rs256])
    #expect(joseReason { _ = try rsaOnly.verify(token, key: key) } == .algorithmNotAllowed)
    #expect(throws: Never.self) {
      _ = try JWSVerifier(allowedAlgorithms: [.hs256]).verify(token, key: key)
    }
  }

  @Test func unknownAlgorithmIsUnsupported() throws {
    let key = JWK.symmetric(TestTokens.secret)
    let token = TestTokens.hs256(TestTokens.claims, header: ["alg": "PS256"])
    #expect(joseReason { _ = try all.verify(token, key: key) } == .unsupportedAlgorithm)
  }

  /// The classic key-confusion attack: HS256 "signed" with the RSA public key's bytes.
  @Test func hs256WithAnRSAKeyIsRejected() throws {
    let jwk = try JSONValue(parsing: Array(JOSEFixtures.rsaJWK.utf8))
    let modulus = try Base64URL.decode(jwk["n"]?.stringValue ?? "")
    let rsaKey = try JWK(parsing: Array(JOSEFixtures.rsaJWK.utf8))
    for keyMaterial in [modulus, Array(JOSEFixtures.rsaJWK.utf8)] {
      let forged = TestTokens.hs256(
        TestTokens.claims, header: ["alg": "HS256", "kid": "rsa-1"], key: keyMaterial)
      #expect(joseReason { _ = try all.verify(forged, key: rsaKey) } == .keyAlgorithmMismatch)
    }
    let ecKey = try JWK(parsing: Array(JOSEFixtures.ec1JWK.utf8))
    let forged = TestTokens.hs256(TestTokens.claims, header: ["alg": "HS256"], key: modulus)
    #expect(joseReason { _ = try all.verify(forged, key: ecKey) } == .keyAlgorithmMismatch)
  }

  @Test func keyAlgMismatchIsRejected() throws {
    let key = try JWK(
      parsing: Array(
        JOSEFixtures.rsaJWK.replacingOccurrences(of: #""use""#, with: #""alg":"RS512","use""#).utf8)
    )
    #expect(key.algorithm == "RS512")
    #expect(
      joseReason { _ = try all.verify(JOSEFixtures.rs256, key: key) } == .keyAlgorithmMismatch)
    #expect(throws: Never.self) { _ = try all.verify(JOSEFixtures.rs512, key: key) }
  }

  @Test func es256TokenWithAnRSAKeyIsRejected() throws {
    let key = try JWK(
      parsing: Array(JOSEFixtures.rsaJWK.replacingOccurrences(of: "rsa-1", with: "ec-1").utf8))
    #expect(
      joseReason { _ = try all.verify(JOSEFixtures.es256, key: key) } == .keyAlgorithmMismatch)
  }

  // MARK: Keys

  @Test func kidMismatchIsRejected() throws {
    let key = try JWK(
      parsing: Array(JOSEFixtures.rsaJWK.replacingOccurrences(of: "rsa-1", with: "rsa-2").utf8))
    #expect(joseReason { _ = try all.verify(JOSEFixtures.rs256, key: key) } == .kidMismatch)
    // A key without kid accepts any header kid.
    let anonymous = try JWK(
      parsing: Array(
        JOSEFixtures.rsaJWK.replacingOccurrences(of: #""kid":"rsa-1","#, with: "").utf8))
    #expect(throws: Never.self) { _ = try all.verify(JOSEFixtures.rs256, key: anonymous) }
  }

  @Test func unknownKidInASetIsKeyNotFound() throws {
    let set = try JWKSet(parsing: Array(#"{"keys":[\#(JOSEFixtures.ec1JWK)]}"#.utf8))
    #expect(joseReason { _ = try all.verify(JOSEFixtures.rs256, keys: set) } == .keyNotFound)
    #expect(joseReason { _ = try all.verify(JOSEFixtures.es256Rotated, keys: set) } == .keyNotFound)
    #expect(
      joseReason { _ = try all.verify(JOSEFixtures.rs256, keys: JWKSet(keys: [])) } == .keyNotFound)
  }

  @Test(arguments: [
    #""use":"enc""#, #""key_ops":["encrypt","wrapKey"]"#, #""key_ops":[]"#, #""use":"other""#,
  ])
  func encryptionKeysAreRefusedForSignatures(marker: String) throws {
    let json = JOSEFixtures.rsaJWK.replacingOccurrences(of: #""use":"sig""#, with: marker)
    let key = try JWK(parsing: Array(json.utf8))
    #expect(!key.isSigningKey)
    #expect(joseReason { _ = try all.verify(JOSEFixtures.rs256, key: key) } == .keyNotForSigning)
    let set = try JWKSet(parsing: Array(#"{"keys":[\#(json)]}"#.utf8))
    #expect(joseReason { _ = try all.verify(JOSEFixtures.rs256, keys: set) } == .keyNotForSigning)
  }

  @Test func keyOpsWithVerifyIsASigningKey() throws {
    let json = JOSEFixtures.rsaJWK.replacingOccurrences(
      of: #""use":"sig""#, with: #""key_ops":["verify"]"#)
    let key = try JWK(parsing: Array(json.utf8))
    #expect(key.isSigningKey)
    #expect(throws: Never.self) { _ = try all.verify(JOSEFixtures.rs256, key: key) }
  }

  // MARK: Structure

  @Test func unknownCriticalHeaderIsRejected() throws {
    let key = try JWK(parsing: Array(JOSEFixtures.rsaJWK.utf8))
    #expect(
      joseReason { _ = try all.verify(JOSEFixtures.rs256Crit, key: key) } == .unsupportedCritical)
    var understanding = all
    understanding.understoodCriticalHeaders = ["exp-ext"]
    #expect(throws: Never.self) { _ = try understanding.verify(JOSEFixtures.rs256Crit, key: key) }
  }

  @Test func b64FalseIsRejectedAsCritical() throws {
    let key = JWK.symmetric(TestTokens.secret)
    let token = TestTokens.hs256(
      TestTokens.claims, header: ["alg": "HS256", "b64": false, "crit": ["b64"]])
    #expect(joseReason { _ = try all.verify(token, key: key) } == .unsupportedCritical)
  }

  @Test(arguments: [
    "", ".", "..", "a.b", "a.b.c.d", "eyJhbGciOiJIUzI1NiJ9.e30",
    "eyJhbGciOiJIUzI1NiJ9=.e30.AAAA",  // padding
    "eyJhbGciOiJIUzI1NiJ9.e30.AAA+",  // standard alphabet
    "eyJhbGciOiJIUzI1NiJ9.e31.AAAA",  // non-canonical trailing bits
    "eyJhbGciOiJIUzI1NiJ9 .e30.AAAA",  // whitespace
    "bm90IGpzb24.e30.AAAA",  // header "not json"
    "WyJIUzI1NiJd.e30.AAAA",  // header is an array
    "eyJhbGciOjF9.e30.AAAA",  // alg is a number
    "e30.e30.AAAA",  // no alg
    "eyJhbGciOiJIUzI1NiIsImFsZyI6Im5vbmUifQ.e30.AAAA",  // duplicate alg
    "eyJhbGciOiJIUzI1NiIsImtpZCI6MX0.e30.AAAA",  // kid is a number
    "eyJhbGciOiJIUzI1NiIsImNyaXQiOltdfQ.e30.AAAA",  // empty crit
  ])
  func malformedTokensAreRejected(token: String) {
    let key = JWK.symmetric(TestTokens.secret)
    #expect(joseReason { _ = try all.verify(token, key: key) } == .malformed)
  }

  @Test func oversizedTokensAreRejectedBeforeParsing() {
    let key = JWK.symmetric(TestTokens.secret)
    let big = TestTokens.hs256(["pad": .string(String(repeating: "x", count: 20_000))])
    #expect(joseReason { _ = try all.verify(big, key: key) } == .tooLarge)
    var roomy = all
    roomy.maximumByteCount = 64 * 1024
    #expect(throws: Never.self) { _ = try roomy.verify(big, key: key) }
  }

  @Test func wrongSignatureLengthsAreInvalid() throws {
    let key = JWK.symmetric(TestTokens.secret)
    let token = TestTokens.hs256(TestTokens.claims)
    let truncated = String(token.dropLast(3))  // 30-byte MAC
    #expect(joseReason { _ = try all.verify(truncated, key: key) } == .signatureInvalid)
    let ecKey = try JWK(parsing: Array(JOSEFixtures.ec1JWK.utf8))
    let shortES = String(JOSEFixtures.es256.dropLast(6))  // 60 bytes
    #expect(joseReason { _ = try all.verify(shortES, key: ecKey) } == .signatureInvalid)
  }

  @Test func errorsAreAuthErrorsWithStableReasonStrings() {
    let key = JWK.symmetric(TestTokens.secret)
    do {
      _ = try all.verify("a.b", key: key)
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == .invalidToken)
      #expect(error.joseError?.reason.rawValue == "malformed")
      #expect(error.message.hasPrefix("malformed: "))
    }
  }

  // MARK: JWK parsing

  @Test(arguments: [
    (#"{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}"#, JOSEError.Reason.unsupportedKey),
    (#"{"kty":"OKP","crv":"Ed25519","x":"AA"}"#, .unsupportedKey),
    (#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#, .invalidKey),  // tiny modulus
    (#"{"kty":"RSA","e":"AQAB"}"#, .invalidKey),
    (#"{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}"#, .invalidKey),
    (#"{"kty":"oct","k":""}"#, .invalidKey),
    (#"{"kty":"oct","k":"a+b="}"#, .invalidKey),
    (#"{"k":"AAAA"}"#, .invalidKey),
    (#"{"kty":"oct","k":"AAAA","kid":7}"#, .invalidKey),
    (#"{"kty":"oct","k":"AAAA","key_ops":"verify"}"#, .invalidKey),
    (#"["kty"]"#, .invalidKey),
    (#"{"kty":"oct""#, .malformed),
  ])
  func badJWKsAreRejected(json: String, reason: JOSEError.Reason) {
    #expect(joseReason { _ = try JWK(parsing: Array(json.utf8)) } == reason)
  }

  @Test func ecPointOffTheCurveIsRejected() throws {
    let jwk = try JSONValue(parsing: Array(JOSEFixtures.ec1JWK.utf8))
    var y = try Base64URL.decode(jwk["y"]?.stringValue ?? "")
    y[31] ^= 1
    let json =
      #"{"kty":"EC","crv":"P-256","x":"\#(jwk["x"]?.stringValue ?? "")","y":"\#(Base64URL.encode(y))"}"#
    #expect(joseReason { _ = try JWK(parsing: Array(json.utf8)) } == .invalidKey)
  }

  @Test func jwksSkipsUnusableKeysAndReportsThem() throws {
    let document = """
      {"keys":[
        {"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"ed"},
        \(JOSEFixtures.rsaJWK),
        {"kty":"EC","crv":"P-521","kid":"p521","x":"AA","y":"AA"},
        \(JOSEFixtures.ec1JWK)
      ]}
      """
    let set = try JWKSet(parsing: Array(document.utf8))
    #expect(set.keys.map(\.keyID) == ["rsa-1", "ec-1"])
    #expect(set.skipped.map(\.index) == [0, 2])
    #expect(set.skipped.map(\.keyID) == ["ed", "p521"])
    #expect(set.skipped.allSatisfy { $0.error.reason == .unsupportedKey })
    #expect(throws: Never.self) { _ = try all.verify(JOSEFixtures.es256, keys: set) }
  }

  @Test func jwksDocumentErrorsAreInvalidResponses() {
    for document in [#"{"keys":{}}"#, #"[]"#, #"{"keys":[]"#, ""] {
      do {
        _ = try JWKSet(parsing: Array(document.utf8))
        Issue.record("accepted \(document)")
      } catch {
        #expect(error.code == .invalidResponse)
        #expect(error.joseError?.reason == .malformed)
      }
    }
  }

  @Test func jwkDescriptionNeverShowsKeyMaterial() throws {
    let key = try JWK(parsing: Array(RFC7515.a1JWK.utf8))
    var dumped = ""
    dump(key, to: &dumped)
    for text in [key.description, String(reflecting: key), dumped] {
      #expect(!text.contains("AyM1"))
      #expect(!text.contains("3, 35"))
    }
  }
}
