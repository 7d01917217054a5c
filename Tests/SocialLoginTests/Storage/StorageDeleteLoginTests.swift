import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// `SessionStore.deleteLogin(_:followingRefreshes:)`: the one compare-and-delete rule of every
/// sign-out path (sessions and the CLI's `logout`).
@Suite struct StorageDeleteLoginTests {
  func stored(_ store: InMemorySessionStore, signedInAt: Date) async throws -> StoredSession {
    var record = SessionStoreContract.sampleSession()
    record.signedInAt = signedInAt
    return try await store.save(record, expectedVersion: nil)
  }

  @Test func aUsersSignOutAlsoDeletesARefreshOfTheSameLogin() async throws {
    let store = InMemorySessionStore()
    let login = Date(timeIntervalSince1970: 1_000)
    let read = try await stored(store, signedInAt: login)
    var refreshed = read
    refreshed.credential.accessToken = Secret("refreshed-elsewhere")
    _ = try await store.save(refreshed, expectedVersion: read.version)

    #expect(try await store.deleteLogin(read, followingRefreshes: false) == false)
    #expect(try await store.load(read.key) != nil, "a verdict on old tokens deletes only them")
    #expect(try await store.deleteLogin(read, followingRefreshes: true))
    #expect(try await store.load(read.key) == nil)
  }

  @Test func aLoginCompletedMeanwhileIsNeverDeleted() async throws {
    let store = InMemorySessionStore()
    let read = try await stored(store, signedInAt: Date(timeIntervalSince1970: 1_000))
    var newLogin = read
    newLogin.signedInAt = Date(timeIntervalSince1970: 2_000)
    newLogin.credential.accessToken = Secret("new-login")
    _ = try await store.save(newLogin, expectedVersion: read.version)

    #expect(try await store.deleteLogin(read, followingRefreshes: true) == false)
    let kept = try #require(try await store.load(read.key))
    #expect(kept.credential.accessToken.revealed == "new-login")
  }
}
