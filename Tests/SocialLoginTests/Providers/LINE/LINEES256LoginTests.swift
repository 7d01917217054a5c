import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

/// ES256 ID tokens at login, signed at run time with `P256PrivateKey` (the `crypto` branch),
/// as LINE's SDKs and LIFF receive them: `kid` in the header, keys from the JWKS.
@Suite("LINE ES256 logins", .timeLimit(.minutes(2)))
struct LINEES256LoginTests {
  static let key = P256PrivateKey()
  static let kid = "line-runtime-ec"

  static var jwks: String {
    let x = Base64URL.encode(key.publicKey.x)
    let y = Base64URL.encode(key.publicKey.y)
    return
      #"{"keys":[{"kty":"EC","crv":"P-256","kid":"\#(kid)","use":"sig","x":"\#(x)","y":"\#(y)"}]}"#
  }

  static func es256(_ claims: JSONValue, kid: String = kid) -> String {
    let header: JSONValue = ["alg": "ES256", "kid": .string(kid), "typ": "JWT"]
    let input =
      Base64URL.encode(Array(header.jsonText.utf8)) + "."
      + Base64URL.encode(Array(claims.jsonText.utf8))
    return input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)).rawRepresentation)
  }

  func login(_ extra: [String: JSONValue], kid: String = kid) async throws -> (
    Credential?, AuthError?, LINEFixture
  ) {
    let fixture = try LINEFixture(jwks: Self.jwks)
    let (request, callback) = try await fixture.begin()
    let nonce = try #require(request.pending.nonce?.revealed)
    let idToken = Self.es256(LINEFixture.claims(nonce: nonce, merging: extra), kid: kid)
    fixture.stub.on(
      "POST", LINEFixture.tokenPath, reply: .json(LINEFixture.tokenBody(idToken: idToken)))
    do {
      let credential = try await fixture.provider.completeAuthorization(
        request.pending, callback: callback)
      return (credential, nil, fixture)
    } catch let error as AuthError {
      return (nil, error, fixture)
    }
  }

  @Test func es256IDTokenFromTheJWKSCompletesTheLogin() async throws {
    let (credential, error, fixture) = try await login([:])
    #expect(error == nil)
    #expect(credential?.idToken != nil)
    #expect(fixture.stub.requestCount(path: LINEFixture.certsPath) == 1)
  }

  @Test(
    "ES256 ID tokens at login that must be rejected",
    arguments: [
      ("wrong audience", ["aud": "1656999999"] as [String: JSONValue]),
      ("wrong issuer", ["iss": "https://access.line.me.evil.test"]),
      ("expired", ["iat": 1_699_990_000, "exp": 1_699_993_600]),
      ("wrong nonce", ["nonce": "forged-nonce"]),
    ])
  func rejections(name: String, claims: [String: JSONValue]) async throws {
    let (credential, error, _) = try await login(claims)
    #expect(credential == nil, "\(name) was accepted")
    #expect(error?.code == .invalidToken, "\(name)")
  }

  @Test func unknownKidIsRejected() async throws {
    let (_, error, _) = try await login([:], kid: "rotated-away")
    #expect(error?.code == .invalidToken)
    #expect(error?.joseError?.reason == .keyNotFound)
  }
}
