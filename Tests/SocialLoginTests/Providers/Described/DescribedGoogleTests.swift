import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// The engine features Google runs on: run-time authorization parameters, required claims
/// (the hosted domain), app client ids as audiences and authorized parties, the identity
/// merged from the ID token and userinfo, and revocation rules.
@Suite("Described provider: Google's description and engine features")
struct DescribedGoogleTests {
  static let issuer = "https://accounts.google.com"
  static let hostedDomain = ClaimRequirement(
    claim: "hd", allowedValues: ["Example.com"], errorCode: .hostedDomainMismatch)

  static func answer(_ idToken: String, refreshToken: String? = "1//rt") -> String {
    let refresh = refreshToken.map { #","refresh_token":"\#($0)""# } ?? ""
    return
      #"{"access_token":"ya29.a","token_type":"Bearer","expires_in":3599,"id_token":"\#(idToken)"\#(refresh)}"#
  }

  @Test("the description validates and names the RISC configuration endpoint")
  func descriptionAndRISCEndpoint() throws {
    try ProviderDescription.google.validate()
    #expect(ProviderDescription.builtIn(.google) == nil)
    var configuration = try GoogleConfiguration(clientID: "web", environment: [:])
    #expect(GoogleConfiguration.endpointNames.contains("risc-configuration"))
    #expect(
      configuration.riscConfigurationEndpoint.absoluteString
        == "https://accounts.google.com/.well-known/risc-configuration")
    let local = try #require(URL(string: "http://127.0.0.1:9/risc"))
    try configuration.setEndpoint("risc-configuration", to: local)
    #expect(configuration.riscConfigurationEndpoint == local)
    #expect(configuration.described.url("risc-configuration") == local)
    for name in GoogleConfiguration.endpointNames {
      #expect(ProviderDescription.google.endpoint(name) != nil, "\(name)")
    }
  }

  @Test("run-time parameters follow the description's fixed ones; OAuth's own are refused")
  func runtimeParameters() async throws {
    var description = ProviderDescription.google
    description.authorization.extraParameters = [.init(name: "fixed", value: "1")]
    let fixture = try DescribedFixture(description) {
      $0.authorizationParameters = [
        URLQueryItem(name: "access_type", value: "offline"),
        URLQueryItem(name: "hd", value: "example.com"),
      ]
    }
    let request = try await fixture.provider.makeAuthorizationRequest(
      redirectURI: DescribedFixture.redirectURI)
    let names =
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
      .map(\.name) ?? []
    #expect(Array(names.suffix(3)) == ["fixed", "access_type", "hd"])

    for reserved in ["state", "nonce", "redirect_uri", "code_challenge", "client_id"] {
      let hostile = try DescribedFixture(.google) {
        $0.authorizationParameters = [URLQueryItem(name: reserved, value: "attacker")]
      }
      let error = await describedError {
        _ = try await hostile.provider.makeAuthorizationRequest(
          redirectURI: DescribedFixture.redirectURI)
      }
      #expect(error?.code == .configuration, "\(reserved)")
    }
  }

  @Test("a required claim is enforced on login, letter case ignored")
  func requiredClaimOnLogin() async throws {
    let fixture = try DescribedFixture(.google) { $0.requiredClaims = [Self.hostedDomain] }
    _ = try await fixture.login { nonce in
      Self.answer(
        DescribedFixture.idToken(
          issuer: Self.issuer, ["nonce": nonce.map(JSONValue.string), "hd": "example.COM"]))
    }
    let hostile: [(String, JSONValue?)] = [
      ("missing", nil), ("other", "evil.com"), ("a number", 42), ("empty", ""),
      ("an object", ["hd": "example.com"]),
      ("long", .string(String(repeating: "a", count: 5_000))),
    ]
    for (label, value) in hostile {
      let error = await describedError {
        _ = try await fixture.login { nonce in
          Self.answer(
            DescribedFixture.idToken(
              issuer: Self.issuer, ["nonce": nonce.map(JSONValue.string), "hd": value]))
        }
      }
      #expect(error?.code == .hostedDomainMismatch, "\(label)")
      #expect((error?.message.utf8.count ?? .max) < 1000, "\(label)")
    }
  }

  @Test("a required claim is enforced on verify and turns a refresh into an identity mismatch")
  func requiredClaimOnVerifyAndRefresh() async throws {
    let fixture = try DescribedFixture(.google) { $0.requiredClaims = [Self.hostedDomain] }
    let outside = DescribedFixture.idToken(issuer: Self.issuer, ["hd": "other.com"])
    let verifyError = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(outside), nonce: nil))
    }
    #expect(verifyError?.code == .hostedDomainMismatch)
    let inside = DescribedFixture.idToken(issuer: Self.issuer, ["hd": "example.com"])
    _ = try await fixture.provider.verify(.idToken(Secret(inside), nonce: nil))

    let old = Credential(accessToken: "at", refreshToken: "1//rt", idToken: Secret(inside))
    fixture.stub.on(
      "POST", fixture.path("token"), reply: .json(Self.answer(outside, refreshToken: nil)))
    let outcome = try await fixture.provider.spendRefreshToken(old)
    guard case .identityMismatch(let error)? = outcome.problem else {
      Issue.record("expected an identity mismatch, got \(String(describing: outcome.problem))")
      return
    }
    #expect(error.code == .hostedDomainMismatch)
    #expect(outcome.credential.accessToken.revealed == "ya29.a")
    #expect(outcome.credential.refreshToken?.revealed == "1//rt")
  }

  @Test("app client ids are accepted as aud and azp; other parties are refused")
  func appClientIDs() async throws {
    let fixture = try DescribedFixture(.google, audiences: ["android"])
    let forServer = DescribedFixture.idToken(issuer: Self.issuer, ["azp": "android"])
    _ = try await fixture.provider.verify(.idToken(Secret(forServer), nonce: nil))
    let appOnly = DescribedFixture.idToken(
      issuer: "accounts.google.com", ["aud": "android", "azp": "android"])
    _ = try await fixture.provider.verify(.idToken(Secret(appOnly), nonce: nil))
    let evil = DescribedFixture.idToken(issuer: Self.issuer, ["azp": "evil"])
    let azp = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(evil), nonce: nil))
    }
    #expect(azp?.joseError?.reason == .authorizedPartyMismatch)
    let unlisted = try DescribedFixture(.google)
    let refused = await describedError {
      _ = try await unlisted.provider.verify(.idToken(Secret(forServer), nonce: nil))
    }
    #expect(refused?.joseError?.reason == .authorizedPartyMismatch)
    let foreign = DescribedFixture.idToken(issuer: Self.issuer, ["aud": "other", "azp": "other"])
    let audience = await describedError {
      _ = try await fixture.provider.verify(.idToken(Secret(foreign), nonce: nil))
    }
    #expect(audience?.joseError?.reason == .audienceMismatch)
  }

  @Test("the identity merges the ID token's claims with userinfo's; the subjects must match")
  func mergedIdentity() async throws {
    let fixture = try DescribedFixture(.google)
    let token = DescribedFixture.idToken(issuer: Self.issuer, ["hd": "example.com", "name": "T"])
    let credential = Credential(accessToken: "at", idToken: Secret(token))
    fixture.stub.on(
      "GET", fixture.path("userinfo"),
      reply: .json(
        #"{"sub":"user-1","name":"Ada","email":"ada@example.com","email_verified":true}"#))
    let identity = try await fixture.provider.fetchIdentity(for: credential)
    #expect(identity.name == "Ada")
    #expect(identity.emailVerified == true)
    #expect(identity.rawClaims["hd"]?.stringValue == "example.com")
    fixture.stub.on("GET", fixture.path("userinfo"), reply: .json(#"{"sub":"user-2"}"#))
    let other = await describedError {
      _ = try await fixture.provider.fetchIdentity(for: credential)
    }
    #expect(other?.code == .invalidResponse)
  }

  @Test("revocation rules: one call with the refresh token; invalid_token counts as done")
  func revocationRules() async throws {
    let fixture = try DescribedFixture(.google)
    let path = fixture.path("revoke")
    let credential = Credential(accessToken: "at", refreshToken: "1//rt")
    fixture.stub.on("POST", path, reply: .status(200))
    try await fixture.provider.revoke(credential)
    #expect(fixture.stub.requests.filter { $0.url.path == path }.count == 1)
    #expect(fixture.lastForm(path)["token"] == "1//rt")

    fixture.stub.on("POST", path, reply: .json(#"{"error":"invalid_token"}"#, status: 400))
    try await fixture.provider.revoke(Credential(accessToken: "at"))
    #expect(fixture.lastForm(path)["token"] == "at")

    fixture.stub.on("POST", path, reply: .json(#"{"error":"invalid_request"}"#, status: 400))
    let error = await describedError { try await fixture.provider.revoke(credential) }
    #expect(error?.oauth?.error == "invalid_request")

    var both = ProviderDescription.google
    both.revocationRules = nil
    let plain = try DescribedFixture(both)
    plain.stub.on("POST", plain.path("revoke"), repeating: true, reply: .status(200))
    try await plain.provider.revoke(credential)
    #expect(plain.stub.requests.filter { $0.url.path == plain.path("revoke") }.count == 2)
    plain.stub.on(
      "POST", plain.path("revoke"), reply: .json(#"{"error":"invalid_token"}"#, status: 400))
    let strict = await describedError { try await plain.provider.revoke(credential) }
    #expect(strict?.oauth?.error == "invalid_token")
  }

  @Test("descriptions written before the new fields still decode")
  func oldDescriptionsDecode() throws {
    var encoded =
      try JSONSerialization.jsonObject(
        with: JSONEncoder().encode(ProviderDescription.github)) as? [String: Any] ?? [:]
    encoded["revocationRules"] = nil
    var identity = encoded["identity"] as? [String: Any] ?? [:]
    identity["idTokenClaims"] = nil
    encoded["identity"] = identity
    let data = try JSONSerialization.data(withJSONObject: encoded)
    #expect(try JSONDecoder().decode(ProviderDescription.self, from: data) == .github)
    let google = try JSONDecoder().decode(
      ProviderDescription.self, from: JSONEncoder().encode(ProviderDescription.google))
    #expect(google == .google)
  }
}
