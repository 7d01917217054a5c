import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

/// Every provider with a device login, the same endings against the emulator on a manual
/// clock shared with it: approved, denied, expired, cancelled (slow_down and the poll interval
/// per provider are in each provider's own device tests). OIDC,
/// Google, GitHub, Microsoft and Facebook (Login for Devices), each with its own wire wording.
@Suite("Emulator: device login per provider", .timeLimit(.minutes(5)))
struct EmulatorDeviceProvidersTests {
  enum Kind: String, CaseIterable, Sendable {
    case oidc, google, github, microsoft, facebook
  }

  /// The provider of `kind` on the emulator, and the emulator's name of its polling endpoint.
  static func provider(_ kind: Kind, _ emulator: ProviderEmulator, clock: ManualClock) throws
    -> (provider: any LoginProvider, emulated: ProviderID, pollEndpoint: String)
  {
    switch kind {
    case .oidc:
      return (
        EmulatorDeviceTests.oidc(emulator, clock: clock), ProviderEmulator.oidcProviderID, "token"
      )
    case .google:
      return (try EmulatedProviders.google(emulator, clock: clock), .google, "token")
    case .github, .microsoft:
      let id: ProviderID = kind == .github ? .github : .microsoft
      let description = try #require(ProviderDescription.builtIn(id))
      let app = try #require(EmulatorApps.describedApp(for: id))
      let configuration = try DescribedProviderConfiguration(
        description, clientID: app.clientID,
        clientSecret: kind == .github ? nil : Secret(app.clientSecret),
        parameters: app.parameters, emulatorHost: emulator.host, environment: [:])
      return (
        DescribedProvider(
          configuration: configuration, transport: EmulatedProviders.transport, clock: clock),
        id, "token"
      )
    case .facebook:
      emulator.facebookRequiresAppSecretProof = false
      var configuration = try FacebookConfiguration(
        appID: EmulatorApps.facebookAppID, appSecret: nil, emulatorHost: emulator.host,
        environment: [:])
      configuration.clientToken = Secret(EmulatorApps.facebookClientToken)
      return (
        FacebookProvider(
          configuration: configuration, transport: EmulatedProviders.transport, clock: clock),
        .facebook, "device_login_status"
      )
    }
  }

  @Test(arguments: Kind.allCases)
  func approvedSignsIn(kind: Kind) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (provider, _, _) = try Self.provider(kind, emulator, clock: clock)
      let approved = try await EmulatorDeviceTests.login(
        emulator, clock: clock, provider: provider
      ) { prompt in
        let answer = try await EmulatorDeviceTests.decide(emulator, "approve", prompt.userCode)
        #expect(answer.status == 200)
      }
      let session = try approved.get()
      #expect(await session.identity?.subject != nil, "\(kind)")

    }
  }

  /// In an emulator of its own: a session signed in on the same manual clock would keep
  /// sleepers on it (its automatic refresh), and the clock would race past the code's life.
  @Test(arguments: Kind.allCases)
  func deniedIsAccessDenied(kind: Kind) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (provider, _, _) = try Self.provider(kind, emulator, clock: clock)
      let denied = try await EmulatorDeviceTests.login(emulator, clock: clock, provider: provider) {
        prompt in
        let answer = try await EmulatorDeviceTests.decide(emulator, "deny", prompt.userCode)
        #expect(answer.status == 200)
      }
      guard case .failure(let error) = denied else {
        Issue.record("\(kind): a denied login signed in")
        return
      }
      #expect((error as? AuthError)?.code == .accessDenied, "\(kind): \(error)")
    }
  }

  @Test(arguments: Kind.allCases)
  func anExpiredCodeIsDeviceCodeExpired(kind: Kind) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (provider, _, _) = try Self.provider(kind, emulator, clock: clock)
      let result = try await EmulatorDeviceTests.login(emulator, clock: clock, provider: provider) {
        _ in
        // Past every provider's code lifetime (Google's is the longest: 1,800 s).
        let moved = try await RawHTTP.json(
          "POST", emulator.at("/_emulator/clock"), #"{"advance_seconds":3601}"#)
        #expect(moved.status == 200)
      }
      guard case .failure(let error) = result else {
        Issue.record("\(kind): an expired code signed in")
        return
      }
      #expect((error as? AuthError)?.code == .deviceCodeExpired, "\(kind): \(error)")
    }
  }

  @Test(arguments: Kind.allCases)
  func cancellingWhilePollingLeavesNoSession(kind: Kind) async throws {
    let clock = ManualClock(wallTime: Date())
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (provider, _, _) = try Self.provider(kind, emulator, clock: clock)
      let client = try LoginClient(
        providers: [provider], store: InMemorySessionStore(), clock: clock)
      let id = provider.id
      let login = Task { try await client.deviceLogin(id) { _ in } }
      let deadline = ContinuousClock.now + .seconds(45)
      while clock.sleeperCount == 0 {
        try #require(ContinuousClock.now < deadline, "\(kind): never polled")
        await Task.yield()
      }
      login.cancel()
      let result = await login.result
      guard case .failure(let error) = result else {
        Issue.record("\(kind): a cancelled login signed in")
        return
      }
      #expect(error is CancellationError, "\(kind): \(error)")
      #expect(try client.session(for: id) == nil)
    }
  }
}
