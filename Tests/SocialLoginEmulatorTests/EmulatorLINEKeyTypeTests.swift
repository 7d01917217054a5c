import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: LINE id_token_key_type=JWK asks for ES256 ID tokens", .timeLimit(.minutes(3)))
struct EmulatorLINEKeyTypeTests {
  /// The `alg` and `kid` of a compact JWS's header.
  static func header(_ token: String) throws -> (alg: String?, kid: String?) {
    let first = try #require(token.split(separator: ".").first)
    let json = try JSONDecoder().decode(JSONValue.self, from: Data(Base64URL.decode(String(first))))
    return (json["alg"]?.stringValue, json["kid"]?.stringValue)
  }

  @Test(arguments: [false, true])
  func theKeyTypeDecidesHowTheIDTokenIsSigned(_ es256: Bool) async throws {
    try await ProviderEmulator.run { emulator in
      var configuration = try LINEConfiguration(
        channelID: EmulatorApps.lineChannelID,
        channelSecret: Secret(EmulatorApps.lineChannelSecret), emulatorHost: emulator.host,
        environment: [:])
      configuration.requestsES256IDTokens = es256
      let provider = LINEProvider(
        configuration: configuration, transport: EmulatedProviders.transport)
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.line, using: emulator.headlessAgent())
      let authorize = try #require(emulator.requests(to: .line, endpoint: "authorize").first)
      let exchange = try #require(emulator.requests(to: .line, endpoint: "token").first)
      #expect(authorize.query["id_token_key_type"] == (es256 ? "JWK" : nil))
      #expect(exchange.form["id_token_key_type"] == (es256 ? "JWK" : nil))
      let idToken = try #require(await session.credential?.idToken)
      let header = try Self.header(idToken.revealed)
      #expect(header.alg == (es256 ? "ES256" : "HS256"))
      #expect((header.kid != nil) == es256)
      // Either kind verifies.
      let verified = try await provider.verify(.idTokenAcceptingAnyNonce(idToken))
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .line))
    }
  }
}
