import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// X since its 2026 pay-per-use billing: identities cached per token, `users.email`, and the
/// usage-cap and enrollment problems typed and degrading.
@Suite("Emulator: X billing, identity cache and confirmed email", .timeLimit(.minutes(3)))
struct EmulatorXBillingTests {
  static func x(
    _ emulator: ProviderEmulator, clock: any AuthClock,
    _ change: (inout XProvider.Configuration) -> Void = { _ in }
  ) throws -> XProvider {
    var configuration = try XProvider.Configuration(
      clientID: EmulatorApps.twitterClientID,
      clientSecret: Secret(EmulatorApps.twitterClientSecret), emulatorHost: emulator.host,
      environment: [:])
    change(&configuration)
    return XProvider(
      configuration: configuration, transport: EmulatedProviders.transport, clock: clock)
  }

  @Test func repeatedVerifyOfOneTokenAsksXOnceWithinItsLife() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let login = try Self.x(emulator, clock: clock)
      let client = try LoginClient(providers: [login], store: InMemorySessionStore(), clock: clock)
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let token = try #require(await session.credential?.accessToken)
      let backend = try Self.x(emulator, clock: clock) { $0.identityCache.maximumAge = 600 }
      emulator.clearRequests()
      let first = try await backend.verify(.accessToken(token))
      let second = try await backend.verify(.accessToken(token))
      #expect(first.identity == second.identity)
      #expect(emulator.requests(to: .twitter, endpoint: "users_me").count == 1)
      clock.advance(by: .seconds(601))
      _ = try await backend.verify(.accessToken(token))
      #expect(emulator.requests(to: .twitter, endpoint: "users_me").count == 2)

      let uncached = try Self.x(emulator, clock: clock) { $0.identityCache.isEnabled = false }
      _ = try await uncached.verify(.accessToken(token))
      _ = try await uncached.verify(.accessToken(token))
      #expect(emulator.requests(to: .twitter, endpoint: "users_me").count == 4)
    }
  }

  @Test func theUsersEmailScopeGivesAVerifiedEmail() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try Self.x(emulator, clock: SystemAuthClock()) {
        $0.scopes += ["users.email"]
      }
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.twitter, using: emulator.headlessAgent())
      let identity = try #require(await session.identity)
      #expect(identity.email == "alice@example.test")
      #expect(identity.emailVerified == true)
      let lookup = try #require(emulator.requests(to: .twitter, endpoint: "users_me").last)
      #expect(lookup.query["user.fields"]?.contains("confirmed_email") == true)

      let without = try Self.x(emulator, clock: SystemAuthClock())
      let plain = try LoginClient(providers: [without], store: InMemorySessionStore())
      let other = try await plain.login(.twitter, using: emulator.headlessAgent())
      #expect(await other.identity?.email == nil)
    }
  }

  @Test(arguments: [
    (429, "usage-capped", AuthError.Code.usageCapped),
    (403, "client-not-enrolled", .clientNotEnrolled),
    (429, "client-not-enrolled", .clientNotEnrolled),
    (403, "user-not-enrolled", .clientNotEnrolled),
  ])
  func billingProblemsAreTypedAndDegrade(status: Int, problem: String, code: AuthError.Code)
    async throws
  {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let provider = try Self.x(emulator, clock: clock) { $0.identityCache.isEnabled = false }
      emulator.inject(
        EmulatorFault(
          provider: .twitter, endpoint: "users_me", status: status, count: 1, problem: problem))
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let failed = await #expect(throws: AuthError.self) {
        _ = try await client.login(.twitter, using: emulator.headlessAgent())
      }
      #expect(failed?.code == code, "\(failed?.message ?? "-")")
      #expect(failed?.httpStatus == status)
      let failure = try #require(failed)
      guard case .transient = provider.classifyIdentityFailure(failure) else {
        Issue.record("\(problem) must degrade, not sign out")
        return
      }
      guard case .transient = provider.classifyRefreshFailure(failure) else {
        Issue.record("\(problem) must degrade, not sign out")
        return
      }
    }
  }
}
