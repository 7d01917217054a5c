import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// `LoginClient`'s account API: links through the client's store, and an account signed out
/// everywhere in one call, whether its sessions are live here, live on another client
/// sharing the store, or only stored.
@Suite(.timeLimit(.minutes(1))) struct LoginClientAccountTests {
  let clock = ManualClock()
  let providers: [ProviderID] = ["line", "facebook", "firebase"]
  let account: AccountID
  let bystander = SessionKey(provider: "line", subject: "bob")

  init() throws { account = try AccountID("ada") }

  func client(on store: any SessionStore) throws -> LoginClient {
    try LoginClient(
      providers: providers.map { ScriptedProvider(id: $0, clock: clock) }, store: store,
      clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
  }

  func keys() -> [SessionKey] { providers.map { SessionKey(provider: $0, subject: "ada") } }

  func seed(_ store: any SessionStore, _ key: SessionKey) async throws {
    _ = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at", refreshToken: "rt",
          expiresAt: clock.wallTime.addingTimeInterval(3600)),
        signedInAt: clock.wallTime),
      expectedVersion: nil)
  }

  @Test func anAccountIsSignedOutOnEveryClientInOneCall() async throws {
    let store = InMemorySessionStore()
    for key in keys().prefix(2) + [bystander] { try await seed(store, key) }
    let here = try client(on: store)
    let there = try client(on: store)
    _ = try await here.restoreSessions()
    _ = try await there.restoreSessions()
    // LINE and Facebook live on both clients; Firebase only in the store.
    try await seed(store, keys()[2])
    for key in keys() { try await here.link(key, to: account) }
    try await there.link(bystander, to: try AccountID("bob"))
    let live = keys().prefix(2).compactMap { there.session(for: $0) }

    let outcomes = try await here.signOut(account: account, revoke: false)
    #expect(Set(outcomes.keys) == Set(keys()))
    for session in live {
      try await WaitTimeout.yieldUntil("\(session.key) ends there", timeout: .seconds(45)) {
        session.currentState == .signedOut(.signedOutByOperator)
      }
    }
    for key in keys() {
      #expect(try await store.load(key) == nil, "\(key) deleted")
      #expect(here.session(for: key) == nil)
    }
    #expect(try await store.load(bystander) != nil, "another account's session stays")
    #expect(there.session(for: bystander)?.currentState.isSignedIn == true)
    #expect(try await here.sessionKeys(of: account) == keys().sorted(), "the links stay")
    #expect(try await here.signOut(account: account).isEmpty, "again: nothing left to end")
  }

  @Test func anAccountsSessionsAreLoadedWhereverTheyWereMade() async throws {
    let store = InMemorySessionStore()
    let replica = try client(on: store)  // started before any login
    for key in keys().prefix(2) {
      try await seed(store, key)
      try await replica.link(key, to: account)
    }
    try await replica.link(keys()[2], to: account)  // linked, never signed in
    let sessions = try await replica.sessions(of: account)
    #expect(sessions.map(\.key) == Array(keys().prefix(2)).sorted())
    #expect(sessions.allSatisfy { replica.session(for: $0.key) === $0 })
  }

  @Test func revocationIsAskedOfEachProvider() async throws {
    let store = InMemorySessionStore()
    let scripted = providers.map { ScriptedProvider(id: $0, clock: clock) }
    let client = try LoginClient(
      providers: scripted, store: store, clock: clock, policy: RefreshPolicy(proactiveMargin: nil))
    for key in keys() {
      try await seed(store, key)
      try await client.link(key, to: account)
    }
    let outcomes = try await client.signOut(account: account)
    #expect(outcomes.count == 3)
    for provider in scripted {
      #expect(await provider.revokedAccessTokens == ["at"], "\(provider.id)")
    }
  }

  @Test func aStoreWithoutLinksIsUnsupportedAndNamed() async throws {
    struct PlainStore: SessionStore {
      let base = InMemorySessionStore()
      func load(_ key: SessionKey) async throws -> StoredSession? { try await base.load(key) }
      func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
      func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
        try await base.save(session, expectedVersion: expectedVersion)
      }
      func delete(_ key: SessionKey) async throws { try await base.delete(key) }
      func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
        try await base.delete(key, ifVersion: version)
      }
      func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
        try await base.lockRefresh(for: key)
      }
    }
    let client = try client(on: PlainStore())
    await expectAuthError(.unsupported) { try await client.link(keys()[0], to: account) }
    await expectAuthError(.unsupported) { try await client.signOut(account: account) }
    do {
      _ = try await client.sessionKeys(of: account)
    } catch {
      #expect("\(error)".contains("PlainStore"))
    }
  }
}
