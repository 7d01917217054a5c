import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 33 item 6: messages that sent people looking in the wrong place.
@Suite("Messages say what is wrong", .timeLimit(.minutes(1)))
struct MessageTests {
  static func lineClient() throws -> LoginClient {
    let line = LINEProvider(
      configuration: try LINEConfiguration(channelID: "1656000000", environment: [:]),
      transport: StubTransport())
    return try LoginClient(providers: [line], store: InMemorySessionStore())
  }

  @Test func garbageIsNotAJWTRatherThanATokenWithoutANonce() async throws {
    let client = try Self.lineClient()
    let nonces = NonceIssuer(store: InMemoryNonceStore())
    let error = await #expect(throws: AuthError.self) {
      _ = try await client.verify(idToken: "garbage", from: .line, nonces: nonces)
    }
    #expect(error?.code == .invalidToken)
    #expect(error?.provider == .line)
    #expect(error?.message.contains("not a JWT") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("nonce") == false)
    #expect(error?.joseError?.reason == .malformed)
  }

  @Test func anUnknownProviderListsTheRegisteredOnes() throws {
    let client = try Self.lineClient()
    let error = #expect(throws: AuthError.self) { _ = try client.provider("lime") }
    #expect(error?.code == .unknownProvider)
    #expect(
      error?.message == "No provider is registered as 'lime' (registered: 'line').",
      "\(error?.message ?? "")")
  }
}
