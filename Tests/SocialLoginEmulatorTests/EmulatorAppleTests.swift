import Foundation
import SocialLogin
import SocialLoginEmulator
import SocialLoginTesting
import Testing

@Suite("Emulator: Sign in with Apple through the real provider", .timeLimit(.minutes(3)))
struct EmulatorAppleTests {
  /// A client with the emulator's Apple app, and a session from a browser login.
  static func signIn(_ emulator: ProviderEmulator, clock: ManualClock) async throws
    -> (LoginClient, SessionActor)
  {
    let client = try LoginClient(
      providers: [try EmulatedProviders.apple(emulator, clock: clock)],
      store: InMemorySessionStore(), clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
    return (client, try await client.login(.apple, using: emulator.headlessAgent()))
  }

  @Test func aFormPostLoginKeepsTheFirstNameRefreshesAndRevokes() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (client, session) = try await Self.signIn(emulator, clock: clock)
      let identity = try #require(await session.identity)
      #expect(identity.subject == EmulatedUser.alice.subject(at: .apple))
      #expect(identity.name == "Alice Example")  // the first authorization's `user`
      #expect(identity.emailVerified == true)
      let before = try #require(await session.credential)
      #expect(before.extra[AppleProvider.userKey] != nil)
      // A second authorization posts no `user`.
      let again = try await client.login(.apple, using: emulator.headlessAgent())
      #expect(await again.credential?.extra[AppleProvider.userKey] == nil)
      clock.advance(by: .seconds(3600))
      _ = try await again.forceRefresh()
      let after = try #require(await again.credential)
      #expect(after.refreshToken != nil)
      #expect(after.accessToken != before.accessToken)
      _ = try await again.signOut(revoke: true)
      #expect(emulator.requests(to: .apple, endpoint: "revoke").map(\.status) == [200])
    }
  }

  @Test func theEmulatorChecksTheClientSecret() async throws {
    try await ProviderEmulator.run { emulator in
      // Signed with another key: invalid_client, which keeps a session (configuration error).
      let key = emulator.appleKey
      let other = AppleProvider(
        configuration: try .init(
          clientIDs: key.clientIDs, teamID: key.teamID, keyID: key.keyID,
          privateKeyPEM: Secret(P256PrivateKeyFixture.other), emulatorHost: emulator.host,
          environment: [:]),
        transport: EmulatedProviders.transport)
      let error = await #expect(throws: AuthError.self) {
        _ = try await other.exchange(authorizationCode: "c")
      }
      #expect(error?.code == .configuration)
      #expect(error?.oauth?.error == "invalid_client")
    }
  }

  @Test func faultsKeepTheSessionAndInvalidGrantEndsIt() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (_, session) = try await Self.signIn(emulator, clock: clock)
      emulator.inject(EmulatorFault(provider: .apple, endpoint: "token", status: 503, count: 1))
      await #expect(throws: AuthError.self) { _ = try await session.forceRefresh() }
      #expect(session.currentState.isSignedIn)
      emulator.inject(
        EmulatorFault(provider: .apple, endpoint: "token", refreshToken: .revoked, count: 1))
      await #expect(throws: AuthError.self) { _ = try await session.forceRefresh() }
      #expect(session.currentState == .signedOut(.refreshTokenRevoked))
    }
  }

  @Test func notificationsFromTheEmulatorEndTheSession() async throws {
    let clock = ManualClock()
    try await ProviderEmulator.run(clock: clock) { emulator in
      let (client, session) = try await Self.signIn(emulator, clock: clock)
      let seen = InMemoryNonceStore(clock: clock)
      let disabled = try await client.handleAppleNotification(
        body: try emulator.appleNotification(type: "email-disabled"), seen: seen)
      #expect(disabled.kind == .emailDisabled)
      #expect(session.currentState.isSignedIn)
      let deleted = try await client.handleAppleNotification(
        body: try emulator.appleNotification(type: "account-delete"), seen: seen)
      #expect(deleted.kind == .accountDelete)
      #expect(session.currentState == .signedOut(.accountDeleted))
      // The grant is gone at the emulator too.
      let answer = try await RawHTTP.send(
        "POST", emulator.at("/_emulator/apple/notifications"),
        body: Data(#"{"type":"consent-revoked"}"#.utf8), contentType: "application/json")
      #expect(answer.json?["payload"]?.stringValue?.split(separator: ".").count == 3)
    }
  }

  @Test func theControlEndpointHandsOutTheKey() async throws {
    try await ProviderEmulator.run { emulator in
      let answer = try await RawHTTP.send("GET", emulator.at("/_emulator/apple/key"))
      #expect(answer.json?["team_id"]?.stringValue == emulator.appleKey.teamID)
      #expect(
        answer.json?["private_key_pem"]?.stringValue?.hasPrefix("-----BEGIN PRIVATE KEY-----")
          == true)
    }
  }
}

enum P256PrivateKeyFixture {
  static let other = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdktHX3DUh67zI1ao
    hkq0jrIMrSdaBDmq08BATCV5mg2hRANCAATYPAdgaSeiJjPA5Z20Dqmxp+di6u1X
    NV54cIZasJGKJy9G/ZTjQZft7PruTtIrW6+H7gHXX8mt2YYRaLJDtWN7
    -----END PRIVATE KEY-----
    """
}
