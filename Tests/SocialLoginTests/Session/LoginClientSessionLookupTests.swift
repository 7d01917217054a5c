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

  @Test func sessionKeysCompareAndHashSubjectsByTheirBytes() {
    let composed = SessionKey(provider: "scripted", subject: "caf\u{E9}")
    let decomposed = SessionKey(provider: "scripted", subject: "cafe\u{301}")
    #expect(composed.subject == decomposed.subject, "Swift strings call them equal")
    #expect(composed != decomposed)
    #expect(Set([composed, decomposed]).count == 2)
    #expect((composed < decomposed) != (decomposed < composed))
    #expect(composed == SessionKey(provider: "scripted", subject: "caf\u{E9}"))
  }

  /// Two accounts whose subjects differ only in their Unicode form are two sessions: the
  /// second login neither replaces nor signs in as the first.
  @Test func subjectsThatOnlyLookAlikeNeverShareASession() async throws {
    let client = try makeClient([ScriptedProvider(clock: clock)])
    let first = try await client.register(
      credential: Credential(accessToken: "at-composed"),
      identity: Identity(provider: "scripted", subject: "caf\u{E9}"))
    let second = try await client.register(
      credential: Credential(accessToken: "at-decomposed"),
      identity: Identity(provider: "scripted", subject: "cafe\u{301}"))
    #expect(first !== second)
    #expect(try await first.freshAccessToken() == "at-composed")
    #expect(try await second.freshAccessToken() == "at-decomposed")
    let stored = try await store.loadAll().sessions
    #expect(stored.count == 2)
    let composedKey = SessionKey(provider: "scripted", subject: "caf\u{E9}")
    #expect(try await store.load(composedKey)?.credential.accessToken == "at-composed")
  }

  /// A store that matches keys by Swift string equality hands back another account's record:
  /// the login refuses to replace it.
  @Test func aLoginNeverReplacesAStoredRecordWhoseKeyBytesDiffer() async throws {
    let loose = LooseKeyStore()
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: clock)], store: loose, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    _ = try await loose.save(
      StoredSession(
        key: SessionKey(provider: "scripted", subject: "caf\u{E9}"),
        credential: Credential(accessToken: "at-composed")),
      expectedVersion: nil)
    let error = await #expect(throws: AuthError.self) {
      try await client.register(
        credential: Credential(accessToken: "at-decomposed"),
        identity: Identity(provider: "scripted", subject: "cafe\u{301}"))
    }
    #expect(error?.code == .ambiguousSession)
    let kept = try await loose.load(SessionKey(provider: "scripted", subject: "caf\u{E9}"))
    #expect(kept?.credential.accessToken == "at-composed")
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

/// A store keyed by `provider:subject` as a Swift `String`, so canonically equivalent
/// subjects find each other's record (the mistake ``SessionKey`` no longer makes).
final class LooseKeyStore: SessionStore {
  private let inner = InMemorySessionStore()
  private let aliases = Mutex<[String: SessionKey]>([:])

  private func resolve(_ key: SessionKey) -> SessionKey {
    aliases.withLock { aliases in
      let loose = "\(key.provider.rawValue):\(key.subject)"
      if let known = aliases[loose] { return known }
      aliases[loose] = key
      return key
    }
  }

  func load(_ key: SessionKey) async throws -> StoredSession? {
    try await inner.load(resolve(key))
  }

  func loadAll() async throws -> StoreSnapshot { try await inner.loadAll() }

  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    var resolved = session
    resolved.key = resolve(session.key)
    return try await inner.save(resolved, expectedVersion: expectedVersion)
  }

  func delete(_ key: SessionKey) async throws { try await inner.delete(resolve(key)) }

  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await inner.delete(resolve(key), ifVersion: version)
  }

  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    try await inner.lockRefresh(for: resolve(key))
  }
}
