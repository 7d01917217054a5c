import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

extension EmulatedProviders {
  /// Google with the emulator's web client, changed by `change`.
  static func google(
    _ emulator: ProviderEmulator, clock: any AuthClock,
    _ change: (inout GoogleConfiguration) -> Void = { _ in }
  ) throws -> GoogleProvider {
    var configuration = try GoogleConfiguration(
      clientID: EmulatorApps.googleClientID,
      clientSecret: Secret(EmulatorApps.googleClientSecret), emulatorHost: emulator.host,
      environment: [:])
    change(&configuration)
    return GoogleProvider(
      configuration: configuration, transport: EmulatedProviders.transport, clock: clock)
  }
}

@Suite("Emulator: Google through GoogleProvider", .timeLimit(.minutes(3)))
struct EmulatorGoogleTests {
  /// Alice signed in with the emulator's Google on `clock`.
  static func signIn(_ emulator: ProviderEmulator, clock: ManualClock) async throws
    -> SessionActor
  {
    let provider = try EmulatedProviders.google(emulator, clock: clock)
    let client = try LoginClient(providers: [provider], store: InMemorySessionStore(), clock: clock)
    return try await client.login(.google, using: emulator.headlessAgent())
  }

  @Test func loginAsksForOfflineAccessRefreshKeepsTheRefreshTokenAndRevokeEndsTheGrant()
    async throws
  {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let session = try await Self.signIn(emulator, clock: clock)
      let authorize = try #require(emulator.requests(to: .google, endpoint: "authorize").first)
      #expect(authorize.query["access_type"] == "offline")
      #expect(authorize.query["prompt"] == "consent")
      #expect(authorize.query["hd"] == nil)
      let identity = try #require(await session.identity)
      #expect(identity.provider == .google)
      #expect(identity.subject == EmulatedUser.alice.subject(at: .google))
      #expect(identity.email == "alice@example.test")
      #expect(identity.emailVerified == true)
      let before = try #require(await session.credential)
      #expect(before.refreshToken != nil)
      clock.advance(by: .seconds(3700))
      let token = try await session.freshAccessToken()
      let after = try #require(await session.credential)
      #expect(token != before.accessToken.revealed)
      #expect(after.refreshToken == before.refreshToken)  // Google does not rotate (§9)
      _ = try await session.signOut(revoke: true)
      // One call ends the whole grant.
      #expect(emulator.requests(to: .google, endpoint: "revoke").map(\.status) == [200])
      let refresh = try await RawHTTP.form(
        emulator.url(for: URL(string: "https://oauth2.googleapis.com/token")!),
        [
          ("grant_type", "refresh_token"), ("refresh_token", after.refreshToken!.revealed),
          ("client_id", EmulatorApps.googleClientID),
          ("client_secret", EmulatorApps.googleClientSecret),
        ])
      #expect(refresh.status == 400)
      #expect(refresh.json?["error"]?.stringValue == "invalid_grant")
    }
  }

  @Test func revokingAnAlreadyRevokedGrantCountsAsDone() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.google(emulator, clock: SystemAuthClock())
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.google, using: emulator.headlessAgent())
      let credential = try #require(await session.credential)
      #expect(emulator.revokeTokens(provider: .google, userID: "alice") > 0)
      try await provider.revoke(credential)
      #expect(emulator.requests(to: .google, endpoint: "revoke").map(\.status) == [400])
    }
  }

  @Test func withoutOfflineAccessNoRefreshTokenIsAskedFor() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.google(emulator, clock: SystemAuthClock()) {
        $0.offlineAccess = false
      }
      let client = try LoginClient(providers: [provider], store: InMemorySessionStore())
      let session = try await client.login(.google, using: emulator.headlessAgent())
      let authorize = try #require(emulator.requests(to: .google, endpoint: "authorize").first)
      #expect(authorize.query["access_type"] == nil)
      #expect(authorize.query["prompt"] == nil)
      #expect(await session.credential?.refreshToken == nil)
    }
  }

  @Test func theHostedDomainIsSentAsAHintAndEnforcedOnTheIDToken() async throws {
    try await ProviderEmulator.run { emulator in
      let allowed = try EmulatedProviders.google(emulator, clock: SystemAuthClock()) {
        $0.hostedDomains = ["Example.test"]
      }
      let client = try LoginClient(providers: [allowed], store: InMemorySessionStore())
      let session = try await client.login(.google, using: emulator.headlessAgent())
      #expect(await session.identity?.rawClaims["hd"]?.stringValue == "example.test")
      let hint = try #require(emulator.requests(to: .google, endpoint: "authorize").last)
      #expect(hint.query["hd"] == "Example.test")

      let other = try EmulatedProviders.google(emulator, clock: SystemAuthClock()) {
        $0.hostedDomains = ["other.test", "third.test"]
      }
      let refusing = try LoginClient(providers: [other], store: InMemorySessionStore())
      let hostedDomainMismatchError = await #expect(throws: AuthError.self) {
        _ = try await refusing.login(.google, using: emulator.headlessAgent())
      }
      #expect(hostedDomainMismatchError?.code == .hostedDomainMismatch)
      #expect(emulator.requests(to: .google, endpoint: "authorize").last?.query["hd"] == "*")

      // Carol has no email address: a consumer account, whose ID token carries no `hd`.
      #expect(emulator.setCurrentUser("carol"))
      let consumer = try LoginClient(providers: [allowed], store: InMemorySessionStore())
      let consumerError = await #expect(throws: AuthError.self) {
        _ = try await consumer.login(.google, using: emulator.headlessAgent())
      }
      #expect(consumerError?.code == .hostedDomainMismatch)
    }
  }

  @Test func verifyAcceptsAnAppsTokenForTheConfiguredClientIDsOnly() async throws {
    try await ProviderEmulator.run { emulator in
      let android = EmulatorApps.googleAndroidClientID
      let provider = try EmulatedProviders.google(emulator, clock: SystemAuthClock()) {
        $0.appClientIDs = [android]
      }
      // aud: the web client, azp: the Android app.
      let forServer = try await emulator.googleIDToken(nonce: "n-1")
      let verified = try await provider.verify(.idToken(Secret(forServer), nonce: Secret("n-1")))
      #expect(verified.identity.subject == EmulatedUser.alice.subject(at: .google))
      #expect(verified.identity.emailVerified == true)
      // An app without a server client id: aud and azp are the app.
      let appOnly = try await emulator.googleIDToken(audience: android)
      _ = try await provider.verify(.idToken(Secret(appOnly), nonce: nil))
      // The same token for a server that does not list the Android app.
      let unlisted = try EmulatedProviders.google(emulator, clock: SystemAuthClock())
      do {
        _ = try await unlisted.verify(.idToken(Secret(forServer), nonce: Secret("n-1")))
        Issue.record("a token of an unlisted app was accepted")
      } catch let error as AuthError {
        #expect(error.code == .invalidToken)
        #expect(error.joseError?.reason == .authorizedPartyMismatch)
      }
      // Another project's app.
      let foreign = try await emulator.googleIDToken(
        audience: "999-other.apps.googleusercontent.com",
        authorizedParty: "999-other.apps.googleusercontent.com")
      do {
        _ = try await provider.verify(.idToken(Secret(foreign), nonce: nil))
        Issue.record("a token of another project was accepted")
      } catch let error as AuthError {
        #expect(error.joseError?.reason == .audienceMismatch)
      }
      // A wrong nonce.
      let invalidTokenError = await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.idToken(Secret(forServer), nonce: Secret("n-2")))
      }
      #expect(invalidTokenError?.code == .invalidToken)
      // Access tokens are opaque at Google.
      let unsupportedError = await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.accessToken(Secret("ya29.opaque")))
      }
      #expect(unsupportedError?.code == .unsupported)
    }
  }

  @Test func verifyEnforcesTheHostedDomain() async throws {
    try await ProviderEmulator.run { emulator in
      let provider = try EmulatedProviders.google(emulator, clock: SystemAuthClock()) {
        $0.appClientIDs = [EmulatorApps.googleAndroidClientID]
        $0.hostedDomains = ["other.test"]
      }
      let token = try await emulator.googleIDToken()
      let hostedDomainMismatchError = await #expect(throws: AuthError.self) {
        _ = try await provider.verify(.idToken(Secret(token), nonce: nil))
      }
      #expect(hostedDomainMismatchError?.code == .hostedDomainMismatch)
    }
  }

  @Test func aRevokedRefreshTokenSignsOut() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let session = try await Self.signIn(emulator, clock: clock)
      #expect(emulator.revokeTokens(provider: .google, userID: "alice") > 0)
      clock.advance(by: .seconds(3700))
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .signedOut(let reason) = session.currentState else {
        Issue.record("expected signed out, got \(session.currentState)")
        return
      }
      #expect(reason == .refreshTokenRevoked)
    }
  }

  @Test(arguments: [
    EmulatorFault(provider: .google, endpoint: "token", body: .html, count: 1),
    EmulatorFault(provider: .google, endpoint: "token", body: .truncated, count: 1),
    EmulatorFault(provider: .google, endpoint: "token", body: .malformed, count: 1),
    EmulatorFault(provider: .google, endpoint: "token", status: 500, count: 1),
    EmulatorFault(provider: .google, endpoint: "token", status: 503, count: 1),
    EmulatorFault(provider: .google, endpoint: "token", drop: true, count: 1),
  ])
  func nonAnswersDegradeAndKeepTheSession(_ fault: EmulatorFault) async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let session = try await Self.signIn(emulator, clock: clock)
      let before = try #require(await session.credential)
      clock.advance(by: .seconds(3700))
      emulator.inject(fault)
      await #expect(throws: AuthError.self) { _ = try await session.freshAccessToken() }
      guard case .degraded = session.currentState else {
        Issue.record("expected degraded after \(fault), got \(session.currentState)")
        return
      }
      #expect(await session.credential?.refreshToken == before.refreshToken)
    }
  }
}
