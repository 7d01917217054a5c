import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// `RefreshPolicy.maximumSessionLifetime`: past it the session signs out with a typed reason,
/// however fresh its tokens; refreshes do not extend it, a new login restarts it.
@Suite(.timeLimit(.minutes(1)))
struct SessionLifetimeTests {
  let clock = ManualClock()
  let store = InMemorySessionStore()
  let provider: ScriptedProvider

  init() {
    provider = ScriptedProvider(clock: clock, tokenLifetime: .seconds(600))
  }

  func client(lifetime: Duration?, proactiveMargin: Duration? = nil) throws -> LoginClient {
    try LoginClient(
      providers: [provider], store: store, clock: clock,
      policy: RefreshPolicy(
        proactiveMargin: proactiveMargin, refreshDeadline: nil,
        maximumSessionLifetime: lifetime))
  }

  func register(_ client: LoginClient, expiresIn: TimeInterval = 3_600) async throws
    -> SessionActor
  {
    try await client.register(
      credential: Credential(
        accessToken: "at-0", refreshToken: "rt-0",
        expiresAt: clock.wallTime.addingTimeInterval(expiresIn)),
      identity: Identity(provider: provider.id, subject: "alice"))
  }

  @Test func pastTheLifetimeTheSessionSignsOutHoweverFreshItsToken() async throws {
    #expect(RefreshPolicy().maximumSessionLifetime == nil)
    let client = try client(lifetime: .seconds(1_800))
    let session = try await register(client, expiresIn: 7_200)
    let stored = try #require(try await store.load(session.key))
    #expect(stored.signedInAt == clock.wallTime)
    clock.advance(by: .seconds(1_799))
    #expect(try await session.freshAccessToken() == "at-0")
    #expect(await session.isAccessTokenValid())
    clock.advance(by: .seconds(1))
    #expect(await !session.isAccessTokenValid())
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.code == .signedOut)
    #expect(error?.signOutReason == .maximumLifetimeReached)
    #expect(session.currentState == .signedOut(.maximumLifetimeReached))
    #expect(try await store.load(session.key) == nil)
    #expect(await provider.refreshCount == 0)
  }

  @Test func refreshesDoNotExtendTheLifetime() async throws {
    let client = try client(lifetime: .seconds(1_500))
    let session = try await register(client, expiresIn: 600)
    clock.advance(by: .seconds(700))
    #expect(try await session.freshAccessToken() != "at-0")
    #expect(await provider.refreshCount == 1)
    let refreshed = try #require(try await store.load(session.key))
    #expect(refreshed.signedInAt == clock.wallTime.addingTimeInterval(-700))
    clock.advance(by: .seconds(800))
    let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(error?.signOutReason == .maximumLifetimeReached)
  }

  @Test func aNewLoginRestartsTheLifetime() async throws {
    let client = try client(lifetime: .seconds(1_000))
    let session = try await register(client)
    clock.advance(by: .seconds(900))
    let again = try await register(client)
    #expect(again === session)
    clock.advance(by: .seconds(900))
    #expect(try await session.freshAccessToken() == "at-0")
  }

  @Test func anIdleSessionSignsOutOnItsOwnAtTheEndOfItsLife() async throws {
    let client = try client(lifetime: .seconds(1_000))
    let session = try await register(client, expiresIn: 7_200)
    let states = session.states
    try await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(1_000))
    var last: AuthState?
    for await state in states {
      last = state
      if case .signedOut = state { break }
    }
    #expect(last == .signedOut(.maximumLifetimeReached))
  }

  @Test func aSessionCreatedWithoutALoginTimeCountsFromWhenItWasLoaded() async throws {
    let key = SessionKey(provider: provider.id, subject: "bob")
    let record = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at-old", expiresAt: clock.wallTime.addingTimeInterval(7_200))),
      expectedVersion: nil)
    #expect(record.signedInAt == nil)
    let session = SessionActor(
      record: record, provider: provider, store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil, maximumSessionLifetime: .seconds(100)))
    clock.advance(by: .seconds(99))
    #expect(try await session.freshAccessToken() == "at-old")
    clock.advance(by: .seconds(1))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(session.currentState == .signedOut(.maximumLifetimeReached))
  }
}
