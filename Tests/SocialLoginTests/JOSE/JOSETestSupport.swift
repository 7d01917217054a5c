import Foundation
import SocialLogin
import SocialLoginCrypto
import Testing

/// RFC 7515 Appendix A values. A.1 is from the RFC text; the A.2/A.3 hex values are the same
/// as `RFC7515A2`/`RFC7515A3` in `SocialLoginCryptoTests` (another test target, so copied).
enum RFC7515 {
  static let payloadSegment =
    "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

  /// A.1: HS256.
  static let a1Token =
    "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9." + payloadSegment
    + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
  static let a1JWK =
    #"{"kty":"oct","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}"#

  /// A.2: RS256.
  static let a2Modulus =
    "a1f8160ae2e3c9b465ce8d2d656263362b927dbe29e1f02477fc1625cc90a136e38bd93497c5b6ea63dd7711"
    + "e67c7429f956b0fb8a8f089adc4b69893cc1333f53edd019b87784252fec914fe4857769594bea4280d32c0f"
    + "55bf62944f130396bc6e9bdf6ebdd2bda3678eeca0c668f701b38dbffb38c8342ce2fe6d27fade4a5a487497"
    + "9dd4b9cf9adec4c75b05852c2c0f5ef8a5c1750392f944e8ed64c110c6b647609aa4783aeb9c6c9ad7553130"
    + "50638b83665c6f6f7a82a396702a1f641b82d3ebf2392219491fb686872c5716f50af8358d9a8b9d17c34072"
    + "8f7f87d89a18d8fcab67ad84590c2ecf759339363c07034d6f606f9e21e05456cae5e9a1"
  static let a2Signature =
    "702e218943e88fd11eb5d82dbf7845f34106ae1b81fff7731116add1717d83656d420afd3c96eedd73a2663e"
    + "5166687b000b87226e0187ed1073f945e582adfcef16d85a798ee8c66ddb3db8975b17d09402beedd5d9d970"
    + "07108db28160d5f8040ca7445762b81fbe7ff9d92e0ae76f24f25b33bbe6f44ae61eb1040acb20044d3ef912"
    + "8ed40130795bd4bd3b41eecad066ab651981fde48df77f372dc38b9fafdd3befb18b5da3cc3c2eb02f9e3a41"
    + "d612caad15911273a05f23b9e838faaf849d698429ef5a1e88798236c3d40e604522a544c8f27a7a2db80663"
    + "d16cf7caea56de405cb2215a45b2c25566b55ac1a748a070dfc8a32a469543d019eefb47"

  /// A.3: ES256.
  static let a3X = "7fcdce2770f6c45d4183cbee6fdb4b7b580733357be9ef13bacf6e3c7bd15445"
  static let a3Y = "c7f144cd1bbd9b7e872cdfedb9eeb9f4b3695d6ea90b24ad8a4623288588e5ad"
  static let a3Signature =
    "0ed1215379636c483c2f7f155807d402a3b228033af97c7e17819ac3169ea665c50a07d38c3c70e5d8f12daf"
    + "084a5480a66590c5f293509a8f3f7f8a83a354d5"

  static func a2() throws -> (token: String, jwk: String) {
    let n = Base64URL.encode(try bytes(hex: a2Modulus))
    let token =
      "eyJhbGciOiJSUzI1NiJ9." + payloadSegment + "." + Base64URL.encode(try bytes(hex: a2Signature))
    return (token, #"{"kty":"RSA","n":"\#(n)","e":"AQAB"}"#)
  }

  static func a3() throws -> (token: String, jwk: String) {
    let x = Base64URL.encode(try bytes(hex: a3X))
    let y = Base64URL.encode(try bytes(hex: a3Y))
    let token =
      "eyJhbGciOiJFUzI1NiJ9." + payloadSegment + "." + Base64URL.encode(try bytes(hex: a3Signature))
    return (token, #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"}"#)
  }
}

struct BadHex: Error {}

func bytes(hex: String) throws -> [UInt8] {
  let digits = Array(hex.utf8)
  guard digits.count % 2 == 0 else { throw BadHex() }
  var result: [UInt8] = []
  var index = 0
  while index < digits.count {
    guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
    else { throw BadHex() }
    result.append(byte)
    index += 2
  }
  return result
}

/// Builds and signs test tokens.
enum TestTokens {
  static let secret = Array("test-secret-with-at-least-32-bytes!!".utf8)

  /// A compact JWS with `header` and raw payload bytes, signed with HMAC over `key`.
  static func hmac(
    header: JSONValue = ["alg": "HS256", "typ": "JWT"], payload: [UInt8], key: [UInt8] = secret
  ) -> String {
    let input = Base64URL.encode(Array(header.jsonText.utf8)) + "." + Base64URL.encode(payload)
    let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
    return input + "." + Base64URL.encode(mac)
  }

  /// A compact HS256 JWT with `claims`.
  static func hs256(
    _ claims: JSONValue, header: JSONValue = ["alg": "HS256", "typ": "JWT"], key: [UInt8] = secret
  ) -> String {
    hmac(header: header, payload: Array(claims.jsonText.utf8), key: key)
  }

  /// Replaces the header segment of `token` without re-signing.
  static func replacingHeader(of token: String, with header: String) -> String {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    return Base64URL.encode(Array(header.utf8)) + "." + parts[1] + "." + parts[2]
  }

  /// Standard claims at ManualClock's default time (1_700_000_000).
  static let claims: JSONValue = [
    "iss": "https://issuer.example", "sub": "user-1", "aud": "client-1",
    "iat": 1_700_000_000, "exp": 1_700_003_600, "nonce": "n-0S6_WzA2Mj",
  ]

  static func claims(merging extra: [String: JSONValue], removing: [String] = []) -> JSONValue {
    var members = claims.objectValue ?? [:]
    for (key, value) in extra { members[key] = value }
    for key in removing { members[key] = nil }
    return .object(members)
  }
}

/// The ``JOSEError`` reason of `body`'s thrown error, or `nil` if it did not throw one.
func joseReason(_ body: () throws -> Void) -> JOSEError.Reason? {
  do {
    try body()
    return nil
  } catch let error as AuthError {
    return error.joseError?.reason
  } catch {
    return nil
  }
}

/// The async form of ``joseReason(_:)``.
func asyncJOSEReason(_ body: () async throws -> Void) async -> JOSEError.Reason? {
  do {
    try await body()
    return nil
  } catch let error as AuthError {
    return error.joseError?.reason
  } catch {
    return nil
  }
}
