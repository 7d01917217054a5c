import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// A store whose lease wait reports that another replica already stored a newer record (as
/// the Redis store does when its lease script sees the version moved on).
///
/// With `confirmsVersion`, a lease granted at the caller's version is `.current` (as Redis's
/// script grants it), otherwise `.acquired` (the caller must re-read).
final class SupersedingStore: SessionStore {
  let base: InMemorySessionStore
  let confirmsVersion: Bool
  private let leases = Locked(0)
  private let loads = Locked(0)

  init(base: InMemorySessionStore, confirmsVersion: Bool = false) {
    self.base = base
    self.confirmsVersion = confirmsVersion
  }

  /// How many leases were taken.
  var leasesTaken: Int { leases.withLock { $0 } }
  /// How many times the session read the store (the lease's own version check not counted).
  var loadsMade: Int { loads.withLock { $0 } }

  func load(_ key: SessionKey) async throws -> StoredSession? {
    loads.withLock { $0 += 1 }
    return try await base.load(key)
  }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }
  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    try await base.save(session, expectedVersion: expectedVersion)
  }
  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    leases.withLock { $0 += 1 }
    return try await base.lockRefresh(for: key)
  }
  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    if let stored = try await base.load(key), stored.version != version {
      return .superseded(stored)
    }
    let lease = try await lockRefresh(for: key)
    return confirmsVersion ? .current(lease) : .acquired(lease)
  }
}

@Suite(.timeLimit(.minutes(2))) struct SupersededRefreshTests {
  /// Another replica's refresh, stored while this one waited: adopted without the lease and
  /// without spending the refresh token again.
  @Test func aNewerStoredCredentialIsAdoptedWithoutTakingTheLease() async throws {
    let store = SupersedingStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: store)
    let initial = try await fixture.storeInitial()
    let session = fixture.makeSession(record: initial)
    var newer = initial
    newer.credential = Credential(
      accessToken: "at-elsewhere", refreshToken: "rt-elsewhere",
      expiresAt: fixture.clock.wallTime.addingTimeInterval(3600))
    _ = try await store.save(newer, expectedVersion: initial.version)

    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<50 { group.addTask { try await session.freshAccessToken() } }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(tokens == ["at-elsewhere"])
    #expect(await fixture.provider.refreshCount == 0)
    #expect(store.leasesTaken == 0)
    #expect(session.currentState == .signedIn)
  }

  /// A newer record that is itself expired does not serve: the session takes the lease after
  /// all and refreshes with the newer record's refresh token.
  @Test func aNewerButExpiredRecordFallsBackToTheLease() async throws {
    let store = SupersedingStore(base: InMemorySessionStore())
    let fixture = SessionFixture(store: store)
    let initial = try await fixture.storeInitial()
    let session = fixture.makeSession(record: initial)
    var newer = initial
    newer.credential = Credential(
      accessToken: "at-stale", refreshToken: "rt-newer",
      expiresAt: fixture.clock.wallTime.addingTimeInterval(-10))
    _ = try await store.save(newer, expectedVersion: initial.version)

    #expect(try await session.freshAccessToken() == "at-1001")
    #expect(await fixture.provider.refreshCount == 1)
    #expect(store.leasesTaken == 1)
    let spent = await fixture.provider.spentRefreshTokens
    #expect(spent == ["rt-newer"], "the newer record's refresh token, not the one it replaced")
  }

  /// A lease the store granted after checking the version in the same step needs no re-read:
  /// the session goes from the lease straight to the provider. One it could not check is
  /// re-read under the lease first.
  @Test(arguments: [true, false])
  func aLeaseAtTheCurrentVersionIsNotReread(confirmsVersion: Bool) async throws {
    let store = SupersedingStore(base: InMemorySessionStore(), confirmsVersion: confirmsVersion)
    let fixture = SessionFixture(store: store)
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    #expect(try await session.freshAccessToken() == "at-1001")
    #expect(await fixture.provider.refreshCount == 1)
    #expect(store.leasesTaken == 1)
    #expect(store.loadsMade == (confirmsVersion ? 0 : 1))
    #expect(try await store.base.load(fixture.key)?.credential.refreshToken == "rt-1001")
  }
}
