import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: LINE and Facebook through the real providers", .timeLimit(.minutes(3)))
struct EmulatorLINEFacebookTests {
  @Test func lineLoginRefreshEchoesTokenVerifyAndRevoke() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.line(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.line, using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.subject == EmulatedUser.alice.subject(at: .line))
      #expect(identity.name == "Alice Example")
      let before = try #require(await session.credential)
      let idToken = try #require(before.idToken)
      let byIDToken = try await provider.verify(.idTokenAcceptingAnyNonce(idToken))
      #expect(byIDToken.identity.subject == identity.subject)
      clock.advance(by: .seconds(2_592_000))
      let token = try await session.freshAccessToken()
      let after = try #require(await session.credential)
      #expect(token != before.accessToken.revealed)
      #expect(after.refreshToken == before.refreshToken)  // LINE does not rotate (§7)
      let verified = try await provider.verify(.accessToken(Secret(token)))
      #expect(verified.identity.subject == identity.subject)
      _ = try await session.signOut(revoke: true)
      #expect(emulator.requests(to: .line, endpoint: "revoke").map(\.status) == [200])
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.accessToken(Secret(token)))
      }
    }
  }

  @Test func theEmulatorNamesProvidersBySessionKeyProviderIDs() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.line, using: emulator.headlessAgent())
      let id: ProviderID = session.key.provider
      #expect(emulator.requests(to: id, endpoint: "token").map(\.status) == [200])
      #expect(emulator.requests.last?.provider == id)
      #expect(await session.identity?.subject == EmulatedUser.alice.subject(at: id))
    }
  }

  @Test func lineDeniedLoginIsAccessDenied() async throws {
    try await ProviderEmulator.run { emulator in
      emulator.updateUser("alice") { $0.authorization = .deny }
      let provider = try EmulatedProviders.line(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      do {
        _ = try await client.login(.line, using: emulator.headlessAgent())
        Issue.record("a denied login succeeded")
      } catch let error as AuthError {
        #expect(error.code == .accessDenied)
      }
    }
  }

  @Test func facebookLoginIdentityVerifyAndRevoke() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try EmulatedProviders.facebook(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.facebook, using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.subject == EmulatedUser.alice.subject(at: .facebook))
      #expect(identity.email == "alice@example.test")
      let token = try await session.freshAccessToken()
      // Every Graph call carried appsecret_proof (the emulator requires it by default).
      #expect(emulator.requests(to: .facebook, endpoint: "me").allSatisfy { $0.status == 200 })
      let verified = try await provider.verify(.accessToken(Secret(token)))
      #expect(verified.identity.subject == identity.subject)
      #expect(verified.audience.isProven)
      _ = try await session.signOut(revoke: true)
      await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.accessToken(Secret(token)))
      }
    }
  }

  @Test func facebookTokenOfAnotherAppIsRejected() async throws {
    try await ProviderEmulator.run { emulator in
      let other = FacebookProvider(
        configuration: try .init(
          appID: EmulatorApps.facebookOtherAppID,
          appSecret: Secret(EmulatorApps.facebookOtherAppSecret), emulatorHost: emulator.host,
          environment: [:]))
      let client = try LoginClient(providers: [other], store: InMemorySessionStore())
      let session = try await client.login(.facebook, using: emulator.headlessAgent())
      let token = try await session.freshAccessToken()
      let ours = try EmulatedProviders.facebook(emulator, clock: SystemAuthClock())
      do {
        _ = try await ours.verify(.accessToken(Secret(token)))
        Issue.record("a token of another app was accepted")
      } catch let error as AuthError {
        #expect(error.code == .invalidToken)
      }
    }
  }

  @Test func facebookExpiredTokenEndsTheSession() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      emulator.setLifetimes(TokenLifetimes(accessToken: 3600), for: .facebook)
      let provider = try EmulatedProviders.facebook(emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.facebook, using: emulator.headlessAgent())
      clock.advance(by: .seconds(3700))
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .signedOut = session.currentState else {
        Issue.record("expected signed out, got \(session.currentState)")
        return
      }
    }
  }
}
