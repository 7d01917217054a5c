import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite("Described provider: a description the SDK does not ship")
struct DescribedCustomTests {
  static let issuer = "https://id.acme.example"

  /// A provider with RFC 7009 revocation and ID tokens signed with the client secret.
  static let acme = ProviderDescription(
    id: "acme", displayName: "Acme",
    endpoints: [
      ProviderEndpoint(name: "authorize", production: issuer + "/authorize"),
      ProviderEndpoint(name: "token", production: issuer + "/token", method: .post),
      ProviderEndpoint(name: "revoke", production: issuer + "/revoke", method: .post),
    ],
    client: ClientRules(authentication: .clientSecretBasic, secret: .required),
    idToken: IDTokenRules(
      verification: .clientSecretHS256, keysEndpoint: nil, algorithms: ["HS256"],
      issuers: [issuer]),
    identity: IdentityRules(),
    revocation: .rfc7009)

  @Test("a description read from JSON logs in with HS256 ID tokens keyed by the client secret")
  func loadedDescription() async throws {
    let loaded = try JSONDecoder().decode(
      ProviderDescription.self, from: try JSONEncoder().encode(Self.acme))
    let secret = String(decoding: TestTokens.secret, as: UTF8.self)
    let fixture = try DescribedFixture(loaded, secret: Secret(secret))
    let credential = try await fixture.login { nonce in
      let token = DescribedFixture.idToken(
        issuer: Self.issuer, ["nonce": nonce.map(JSONValue.string), "name": "Ann"])
      return #"{"access_token":"a-1","refresh_token":"r-1","id_token":"\#(token)"}"#
    }
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.subject == "user-1")
    #expect(identity.name == "Ann")

    let wrongKey = TestTokens.hs256(
      [
        "iss": .string(Self.issuer), "sub": "u", "aud": "client-1", "iat": 1_700_000_000,
        "exp": 1_700_003_600,
      ],
      key: Array("another-secret-with-at-least-32-bytes".utf8))
    let error = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(wrongKey), nonce: nil))
    }
    #expect(error?.code == .invalidToken)
  }

  @Test("RFC 7009 revocation revokes the refresh token, then the access token")
  func rfc7009() async throws {
    let fixture = try DescribedFixture(Self.acme)
    fixture.stub.on("POST", "/revoke", repeating: true, reply: .status(200))
    try await fixture.provider.revoke(Credential(accessToken: "a-1", refreshToken: "r-1"))
    let forms = fixture.stub.requests.compactMap(\.body).map { String(decoding: $0, as: UTF8.self) }
    #expect(forms.count == 2)
    #expect(forms.first?.contains("token=r-1") == true)
    #expect(forms.last?.contains("token=a-1") == true)
    #expect(fixture.stub.requests.first?.headers["Authorization"]?.hasPrefix("Basic ") == true)
  }

  @Test("a description whose refresh tokens are unsupported refuses refresh without asking")
  func unsupportedRefresh() async throws {
    var description = Self.acme
    description.refresh = RefreshRules(rotation: .unsupported)
    let fixture = try DescribedFixture(description)
    #expect(!fixture.provider.capabilities.contains(.refresh))
    let error = await describedError {
      _ = try await fixture.provider.refresh(Credential(accessToken: "a", refreshToken: "r"))
    }
    #expect(error?.code == .refreshTokenInvalid)
    #expect(fixture.stub.requests.isEmpty)
  }
}
