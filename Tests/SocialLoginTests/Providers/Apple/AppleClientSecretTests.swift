import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import TestPacing
import Testing

@Suite("Apple client secret", .heavy, .timeLimit(.minutes(10)))
struct AppleClientSecretTests {
  func decode(_ segment: Substring) throws -> [String: JSONValue] {
    let json = try JSONDecoder().decode(JSONValue.self, from: Data(try Base64URL.decode(segment)))
    return json.objectValue ?? [:]
  }

  @Test func theSecretIsAnES256JWTApplesWayRound() async throws {
    let fixture = try AppleFixture()
    let secret = try await fixture.provider.clientSecret(for: AppleFixture.appClientID).revealed
    let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    let header = try decode(parts[0])
    let claims = try decode(parts[1])
    #expect(header["alg"] == "ES256")
    #expect(header["kid"] == .string(AppleFixture.keyID))
    #expect(claims["iss"] == .string(AppleFixture.teamID))
    #expect(claims["sub"] == .string(AppleFixture.appClientID))
    #expect(claims["aud"] == "https://appleid.apple.com")
    #expect(claims["iat"] == 1_700_000_000)
    #expect(claims["exp"] == .number(1_700_000_000 + 3600))
    let signature = try Base64URL.decode(parts[2])
    #expect(signature.count == 64)  // R‖S, not DER
    let input = Array((parts[0] + "." + parts[1]).utf8)
    #expect(
      AppleFixture.privateKey.publicKey.isValidSignature(
        rawRS: signature, digest: SHA256.hash(input)))
  }

  @Test func theSecretIsCachedAndRenewedBeforeItExpires() async throws {
    let fixture = try AppleFixture()
    let first = try await fixture.provider.clientSecret(for: AppleFixture.webClientID)
    fixture.clock.advance(by: .seconds(3600 - 301))
    #expect(try await fixture.provider.clientSecret(for: AppleFixture.webClientID) == first)
    fixture.clock.advance(by: .seconds(2))  // within the five-minute renewal margin
    let renewed = try await fixture.provider.clientSecret(for: AppleFixture.webClientID)
    #expect(renewed != first)
    let claims = try decode(renewed.revealed.split(separator: ".")[1])
    #expect(claims["iat"] == .number(1_700_000_000 + 3600 - 299))
    // Each client id has its own secret (`sub`).
    #expect(try await fixture.provider.clientSecret(for: AppleFixture.appClientID) != renewed)
  }

  @Test(arguments: [15_777_001.0, 200.0])
  func aLifetimeAppleRefusesIsAConfigurationError(lifetime: Double) async throws {
    let fixture = try AppleFixture { $0.clientSecretLifetime = lifetime }
    let error = await authError {
      _ = try await fixture.provider.clientSecret(for: AppleFixture.webClientID)
    }
    #expect(error?.code == .configuration)
  }

  @Test func sixMonthsIsAccepted() async throws {
    let fixture = try AppleFixture { $0.clientSecretLifetime = 15_777_000 }
    let secret = try await fixture.provider.clientSecret(for: AppleFixture.webClientID)
    let claims = try decode(secret.revealed.split(separator: ".")[1])
    #expect(claims["exp"] == .number(1_700_000_000 + 15_777_000))
  }

  @Test func anUnknownClientIDIsRefused() async throws {
    let fixture = try AppleFixture()
    let error = await authError { _ = try await fixture.provider.clientSecret(for: "com.other") }
    #expect(error?.code == .configuration)
  }

  static func configurationError(
    clientIDs: [String] = ["a"], teamID: String = "T", keyID: String = "K",
    pem: Secret = AppleFixture.privateKeyPEM
  ) -> AuthError? {
    do {
      _ = try AppleConfiguration(
        clientIDs: clientIDs, teamID: teamID, keyID: keyID, privateKeyPEM: pem,
        environment: [:])
      return nil
    } catch {
      return error
    }
  }

  @Test func configurationRefusesEmptyIdsAndBadKeys() {
    #expect(Self.configurationError() == nil)
    #expect(Self.configurationError(clientIDs: [])?.code == .configuration)
    #expect(Self.configurationError(clientIDs: ["a", ""])?.code == .configuration)
    #expect(Self.configurationError(teamID: "")?.code == .configuration)
    #expect(Self.configurationError(keyID: "")?.code == .configuration)
    #expect(Self.configurationError(pem: "nope")?.code == .configuration)
    let truncated = Self.configurationError(
      pem: Secret("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
    #expect(truncated?.code == .configuration)
    #expect(truncated?.message.contains(".p8") == true)
    #expect(truncated?.message.contains("AAAA") == false)
  }

  @Test func emulatorHostMapsEveryEndpointUnderAppleid() throws {
    let configuration = try AppleConfiguration(
      clientIDs: ["a"], teamID: "T", keyID: "K", privateKeyPEM: AppleFixture.privateKeyPEM,
      environment: ["SOCIALLOGIN_EMULATOR_HOST": "127.0.0.1:9199"])
    #expect(
      configuration.tokenEndpoint.absoluteString
        == "http://127.0.0.1:9199/appleid.apple.com/auth/token")
    #expect(
      configuration.keysEndpoint.absoluteString
        == "http://127.0.0.1:9199/appleid.apple.com/auth/keys")
    var overridden = configuration
    try overridden.setEndpoint("revoke", to: URL(string: "http://127.0.0.1:1/r")!)
    #expect(overridden.revokeEndpoint.absoluteString == "http://127.0.0.1:1/r")
    #expect(throws: AuthError.self) {
      try overridden.setEndpoint("userinfo", to: URL(string: "https://example.com")!)
    }
    #expect(throws: AuthError.self) {
      try overridden.setEndpoint("token", to: URL(string: "http://example.com/token")!)
    }
  }
}
