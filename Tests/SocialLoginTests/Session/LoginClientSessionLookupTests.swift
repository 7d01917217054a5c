import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

/// Duplicate provider ids, "my session for this provider", and reusing it at login.
@Suite(.timeLimit(.minutes(1)))
struct LoginClientSessionLookupTests {
  typealias Support = UserAgentTestSupport
  let clock = ManualClock()
  let store = InMemorySessionStore()

  func makeClient(_ providers: [any LoginProvider]) throws -> LoginClient {
    try LoginClient(
      providers: providers, store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
  }

  /// How many authorization pages an agent was shown.
  final class Pages: Sendable {
    private let count = Mutex(0)
    func show() { count.withLock { $0 += 1 } }
    var shown: Int { count.withLock { $0 } }
  }

  /// A headless agent that approves every login and counts the pages it was shown.
  func countingAgent(_ pages: Pages) -> HeadlessUserAgent {
    HeadlessUserAgent(redirectURI: "https://app.example/cb") { url in
      pages.show()
      return try Support.approve(url)
    }
  }

  @Test func duplicateProviderIdsAreAConfigurationErrorNamingTheID() throws {
    let error = #expect(throws: AuthError.self) {
      try LoginClient(
        providers: [
          ScriptedProvider(id: "corp", clock: clock), ScriptedProvider(id: "line", clock: clock),
          ScriptedProvider(id: "CORP", clock: clock),
        ],
        store: store)
    }
    #expect(error?.code == .configuration)
    #expect(error?.provider == "corp")
    #expect(error?.message.contains("'corp'") == true)
  }

  @Test func xAndTwitterAreTheSameIDAndCannotBothBeRegistered() throws {
    #expect(throws: AuthError.self) {
      try LoginClient(
        providers: [
          ScriptedProvider(id: .x, clock: clock), ScriptedProvider(id: "twitter", clock: clock),
        ],
        store: store)
    }
  }

  @Test func sessionForAProviderIsItsOneLiveSession() async throws {
    let client = try makeClient([
      ScriptedProvider(clock: clock), ScriptedProvider(id: "other", clock: clock),
    ])
    #expect(try client.session(for: ProviderID("scripted")) == nil)
    let alice = try await client.register(
      credential: Credential(accessToken: "a"),
      identity: Identity(provider: "scripted", subject: "alice"))
    _ = try await client.register(
      credential: Credential(accessToken: "o"),
      identity: Identity(provider: "other", subject: "olga"))
    #expect(try client.session(for: ProviderID("scripted")) === alice)
  }

  @Test func sessionForAProviderWithSeveralAccountsNamesThem() async throws {
    let client = try makeClient([ScriptedProvider(clock: clock)])
    for subject in ["alice", "bob"] {
      _ = try await client.register(
        credential: Credential(accessToken: "a"),
        identity: Identity(provider: "scripted", subject: subject))
    }
    let error = #expect(throws: AuthError.self) { try client.session(for: ProviderID("scripted")) }
    #expect(error?.code == .ambiguousSession)
    #expect(error?.message.contains("scripted:alice") == true)
    #expect(error?.message.contains("scripted:bob") == true)
  }

  @Test func signedOutSessionsAreNotTheProvidersSession() async throws {
    let client = try makeClient([ScriptedProvider(clock: clock)])
    let alice = try await client.register(
      credential: Credential(accessToken: "a"),
      identity: Identity(provider: "scripted", subject: "alice"))
    try await alice.signOut(revoke: false)
    #expect(try client.session(for: ProviderID("scripted")) == nil)
  }

  @Test func loginReusesAValidSessionWithoutShowingAPage() async throws {
    let client = try makeClient([ScriptedProvider(clock: clock)])
    let shown = Pages()
    let first = try await client.login("scripted", reuse: .ifSignedIn, using: countingAgent(shown))
    #expect(shown.shown == 1, "no session yet: the page is shown")
    let second = try await client.login("scripted", reuse: .ifSignedIn, using: countingAgent(shown))
    #expect(second === first)
    #expect(shown.shown == 1, "the signed-in session was reused")
    _ = try await client.login("scripted", using: countingAgent(shown))
    #expect(shown.shown == 2, "the default signs in again")
  }

  @Test func loginReuseRefreshesAnExpiredSessionWithoutAPage() async throws {
    let provider = ScriptedProvider(clock: clock)
    let client = try makeClient([provider])
    let expired = try await client.register(
      credential: Credential(
        accessToken: "old", refreshToken: "rt", expiresAt: clock.wallTime.addingTimeInterval(-1)),
      identity: Identity(provider: "scripted", subject: "user-1"))
    let shown = Pages()
    let session = try await client.login(
      "scripted", reuse: .ifSignedIn, using: countingAgent(shown))
    #expect(session === expired)
    #expect(shown.shown == 0)
    #expect(await provider.refreshCount == 1)
    #expect(try await session.freshAccessToken() != "old")
  }

  @Test func loginReuseSignsInAgainWhenTheProviderEndedTheSession() async throws {
    let provider = ScriptedProvider(clock: clock)
    let client = try makeClient([provider])
    _ = try await client.register(
      credential: Credential(
        accessToken: "old", refreshToken: "rt", expiresAt: clock.wallTime.addingTimeInterval(-1)),
      identity: Identity(provider: "scripted", subject: "user-1"))
    await provider.enqueueRefresh { _ in
      throw AuthError(
        .providerError, "dead", provider: "scripted", httpStatus: 400,
        oauth: .init(error: "invalid_grant"))
    }
    let shown = Pages()
    let session = try await client.login(
      "scripted", reuse: .ifSignedIn, using: countingAgent(shown))
    #expect(shown.shown == 1)
    #expect(session.currentState == .signedIn)
    #expect(try await session.freshAccessToken() == "at-1")
  }

  @Test func loginReuseThrowsTransientFailuresInsteadOfASecondLogin() async throws {
    let provider = ScriptedProvider(clock: clock)
    let client = try makeClient([provider])
    _ = try await client.register(
      credential: Credential(
        accessToken: "old", refreshToken: "rt", expiresAt: clock.wallTime.addingTimeInterval(-1)),
      identity: Identity(provider: "scripted", subject: "user-1"))
    await provider.enqueueRefresh { _ in throw AuthError(.network, "offline") }
    let shown = Pages()
    let error = await #expect(throws: AuthError.self) {
      try await client.login("scripted", reuse: .ifSignedIn, using: countingAgent(shown))
    }
    #expect(error?.isTransient == true)
    #expect(shown.shown == 0)
  }

  @Test func loginReuseWithSeveralAccountsIsAmbiguous() async throws {
    let client = try makeClient([ScriptedProvider(clock: clock)])
    for subject in ["alice", "bob"] {
      _ = try await client.register(
        credential: Credential(accessToken: "a"),
        identity: Identity(provider: "scripted", subject: subject))
    }
    let error = await #expect(throws: AuthError.self) {
      try await client.login("scripted", reuse: .ifSignedIn, using: countingAgent(Pages()))
    }
    #expect(error?.code == .ambiguousSession)
  }
}
