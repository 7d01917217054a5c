import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct JWSSignerTests {
  let clock = ManualClock()  // wall time 1_700_000_000

  /// RFC 7515 Appendix A.2 end to end: the private JWK, the header `{"alg":"RS256"}` and the
  /// example payload give exactly the RFC's compact JWS.
  @Test func rfc7515AppendixA2CompactJWSIsReproduced() throws {
    let signer = try JWSSigner(privateJWK: Self.rfc7515PrivateJWK)
    #expect(signer.algorithm == .rs256)
    let payload = Array(
      "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}".utf8)
    let token = try signer.sign(payload: payload)
    #expect(token == Self.rfc7515A2Token)
    let jwk = try #require(signer.publicJWK)
    let verified = try JWSVerifier(allowedAlgorithms: [.rs256]).verify(token, key: jwk)
    #expect(verified.payload == payload)
  }

  @Test func es256TokensPassTheIDTokenValidatorThroughTheExportedJWKS() async throws {
    let signer = JWSSigner.es256(P256PrivateKey(), keyID: "ec-1")
    let token = try signer.signJWT(claims: Self.claims)
    // Publish the JWKS the way an emulator would, then parse it as a relying party would.
    let jwksText = JWKSet(keys: [try #require(signer.publicJWK)]).publicJSON.jsonText
    let keys = try JWKSet(parsing: Array(jwksText.utf8))
    #expect(keys.keys.count == 1 && keys.skipped.isEmpty)
    let validator = IDTokenValidator(
      configuration: .init(issuer: "https://issuer.example", clientID: "client-1"),
      keys: StaticKeyResolver(keys), clock: clock)
    let jwt = try await validator.validate(token, nonce: "n-1")
    #expect(jwt.subject == "user-1")
    #expect(jwt.algorithm == .es256)
    #expect(jwt.keyID == "ec-1")
    #expect(jwt.header["typ"]?.stringValue == "JWT")
    // A different key with the same kid does not verify it.
    let impostor = JWSSigner.es256(P256PrivateKey(), keyID: "ec-1")
    let forged = try impostor.signJWT(claims: Self.claims)
    await #expect(throws: AuthError.self) { try await validator.validate(forged, nonce: "n-1") }
  }

  @Test func rs256AndHS256TokensVerify() throws {
    let rsa = JWSSigner.rs256(try RSAKeys.rfc7515(), keyID: "rsa-1")
    let rsToken = try rsa.signJWT(claims: Self.claims)
    let jwt = try JWSVerifier(allowedAlgorithms: [.rs256]).verifyJWT(
      rsToken, keys: JWKSet(keys: [try #require(rsa.publicJWK)]))
    #expect(jwt.issuer == "https://issuer.example")

    let secret = Array("channel-secret-for-tests".utf8)
    let hs = JWSSigner.hs256(secret: secret)
    #expect(hs.publicJWK == nil)
    let hsToken = try hs.signJWT(claims: Self.claims)
    let hsJWT = try JWSVerifier(allowedAlgorithms: [.hs256]).verifyJWT(
      hsToken, key: JWK.symmetric(secret, algorithm: .hs256))
    #expect(hsJWT.subject == "user-1")
    #expect(
      throws: AuthError.self,
      performing: {
        try JWSVerifier(allowedAlgorithms: [.hs256]).verifyJWT(
          hsToken, key: JWK.symmetric(Array("other".utf8), algorithm: .hs256))
      })
    // A tampered payload fails.
    var parts = rsToken.split(separator: ".").map(String.init)
    parts[1] = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
    #expect(throws: AuthError.self) {
      try JWSVerifier(allowedAlgorithms: [.rs256]).verify(
        parts.joined(separator: "."), key: try #require(rsa.publicJWK))
    }
  }

  @Test func headerCannotOverrideAlgOrKid() throws {
    let signer = JWSSigner.es256(P256PrivateKey(), keyID: "k")
    for header: [String: JSONValue] in [["alg": "none"], ["kid": "other"]] {
      let error = try #require(throws: AuthError.self) {
        try signer.sign(payload: [1], header: header)
      }
      #expect(error.code == .configuration)
    }
    let token = try signer.sign(payload: [1], header: ["typ": "at+jwt", "cty": "x"])
    let header = try CompactJWS(parsing: token).header
    #expect(header.type == "at+jwt" && header.algorithm == "ES256" && header.keyID == "k")
  }

  @Test func exportedJWKsCarryOnlyPublicMembers() throws {
    let ec = try #require(JWSSigner.es256(P256PrivateKey(), keyID: "e").publicJWK?.publicJSON)
    #expect(ec["kty"] == "EC" && ec["crv"] == "P-256" && ec["alg"] == "ES256")
    #expect(ec["d"] == nil && ec["x"] != nil && ec["y"] != nil && ec["use"] == "sig")
    let rsa = try #require(JWSSigner.rs256(try RSAKeys.rfc7515()).publicJWK?.publicJSON)
    #expect(rsa["n"]?.stringValue == Self.rfc7515PrivateJWK["n"]?.stringValue)
    #expect(rsa["e"] == "AQAB" && rsa["d"] == nil && rsa["p"] == nil && rsa["kid"] == nil)
    // Symmetric keys never leave.
    #expect(JWK.symmetric([1, 2, 3]).publicJSON == nil)
    #expect(JWKSet(keys: [JWK.symmetric([1, 2, 3])]).publicJSON == ["keys": []])
  }

  @Test func privateJWKsAreCheckedAndTyped() throws {
    let d = Base64URL.encode(P256PrivateKey().rawRepresentation)
    let other = P256PrivateKey().publicKey
    let mismatched: JSONValue = [
      "kty": "EC", "crv": "P-256", "d": .string(d), "x": .string(Base64URL.encode(other.x)),
      "y": .string(Base64URL.encode(other.y)),
    ]
    for (jwk, reason) in [
      (mismatched, JOSEError.Reason.invalidKey),
      (["kty": "EC", "crv": "P-384", "d": .string(d)], .unsupportedKey),
      (["kty": "EC", "crv": "P-256", "d": .string(d), "alg": "RS256"], .unsupportedKey),
      (["kty": "OKP", "d": .string(d)], .unsupportedKey),
      (["kty": "RSA", "n": "AQAB", "e": "AQAB"], .invalidKey),
      (["kty": "oct", "k": ""], .invalidKey),
    ] as [(JSONValue, JOSEError.Reason)] {
      let error = try #require(throws: AuthError.self) { try JWSSigner(privateJWK: jwk) }
      #expect(error.joseError?.reason == reason, "\(jwk.jsonText)")
    }
    let good = try JWSSigner(privateJWK: ["kty": "EC", "crv": "P-256", "d": .string(d), "kid": "x"])
    #expect(good.algorithm == .es256 && good.keyID == "x")
    #expect(String(describing: good) == "JWSSigner(ES256, kid: x)")
  }

  static let claims: [String: JSONValue] = [
    "iss": "https://issuer.example", "sub": "user-1", "aud": "client-1", "iat": 1_700_000_000,
    "exp": 1_700_003_600, "nonce": "n-1",
  ]

  /// RFC 7515 Appendix A.2: the complete RS256 compact JWS the appendix prints.
  static let rfc7515A2Token =
    "eyJhbGciOiJSUzI1NiJ9"
    + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    + ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5"
    + "jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L"
    + "07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUi"
    + "pUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

  /// RFC 7515 Appendix A.2.1's RSA private key as a JWK (values as in RSAPrivateKeyTests).
  static let rfc7515PrivateJWK: JSONValue = [
    "kty": "RSA",
    "n": .string(RSAKeys.n), "e": "AQAB", "d": .string(RSAKeys.d), "p": .string(RSAKeys.p),
    "q": .string(RSAKeys.q), "dp": .string(RSAKeys.dp), "dq": .string(RSAKeys.dq),
    "qi": .string(RSAKeys.qi),
  ]
}

/// RFC 7515 Appendix A.2.1's RSA key (base64url JWK members, from the RFC's example as
/// reproduced in jwcrypto's test suite; `rfc7515AppendixA2CompactJWSIsReproduced` proves them).
enum RSAKeys {
  static func rfc7515() throws -> RSAPrivateKey {
    func b(_ text: String) throws -> [UInt8] { try Base64URL.decode(text) }
    return try RSAPrivateKey(
      modulus: try b(n), publicExponent: [1, 0, 1], privateExponent: try b(d), prime1: try b(p),
      prime2: try b(q), exponent1: try b(dp), exponent2: try b(dq), coefficient: try b(qi))
  }

  static let n =
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0B"
    + "m4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXnd"
    + "S5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5Ih"
    + "lJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
  static let d =
    "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2N"
    + "XOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X"
    + "0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bG"
    + "Ul_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ"
  static let p =
    "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py"
    + "5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"
  static let q =
    "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQ"
    + "eZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"
  static let dp =
    "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu"
    + "1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0"
  static let dq =
    "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0a"
    + "jaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU"
  static let qi =
    "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY"
    + "7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"
}
