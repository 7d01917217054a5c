import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Sign-out deletes the stored record with a version check: it never erases a login of the
/// account that completed in the meantime (through another process sharing the store).
@Suite(.timeLimit(.minutes(1)))
struct SignOutCompareAndDeleteTests {
  let clock = ManualClock()
  let store = InMemorySessionStore()
  let key = SessionKey(provider: "scripted", subject: "alice")

  func liveSession() async throws -> (SessionActor, StoredSession) {
    let record = try await store.save(
      StoredSession(
        key: key, credential: Credential(accessToken: "at-1", refreshToken: "rt-1"),
        signedInAt: Date(timeIntervalSince1970: 1_700_000_000)),
      expectedVersion: nil)
    let session = SessionActor(
      record: record, provider: ScriptedProvider(clock: clock), store: store, clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    return (session, record)
  }

  @Test func signOutKeepsALoginThatCompletedMeanwhile() async throws {
    let (session, record) = try await liveSession()
    // Another process signs the account in again while this session still holds version 1.
    let newer = try await store.save(
      StoredSession(
        key: key, credential: Credential(accessToken: "at-new", refreshToken: "rt-new"),
        signedInAt: Date(timeIntervalSince1970: 1_700_000_500)),
      expectedVersion: record.version)
    try await session.signOut(revoke: false)
    #expect(session.currentState == .signedOut(.userInitiated))
    #expect(try await store.load(key) == newer, "the new login survives the old sign-out")
  }

  @Test func aUsersSignOutDeletesWhatARefreshElsewhereWrote() async throws {
    let (session, record) = try await liveSession()
    // Another process refreshed this session: same login, newer version.
    var refreshed = record
    refreshed.credential = Credential(accessToken: "at-2", refreshToken: "rt-2")
    _ = try await store.save(refreshed, expectedVersion: record.version)
    try await session.signOut(revoke: false)
    #expect(try await store.load(key) == nil)
  }

  @Test func signOutDeletesItsOwnVersion() async throws {
    let (session, _) = try await liveSession()
    try await session.signOut(revoke: false)
    #expect(try await store.load(key) == nil)
  }
}
