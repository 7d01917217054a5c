import Foundation
import Testing

@testable import SocialLogin

/// Compare-and-swap semantics that every ``SessionStore`` must share.
@Suite(.timeLimit(.minutes(1))) struct StorageContractTests {
  @Test(arguments: StoreKind.allCases)
  func insertOnlyWhenAbsentThenVersionsCountUp(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let session = sampleSession()
      #expect(try await store.load(session.key) == nil)

      let first = try await store.save(session, expectedVersion: nil)
      #expect(first.version == 1)
      #expect(try await store.load(session.key) == first)

      var changed = first
      changed.credential.accessToken = "second"
      let second = try await store.save(changed, expectedVersion: 1)
      #expect(second.version == 2)
      #expect(try await store.load(session.key)?.credential.accessToken == "second")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func staleOrMissingExpectedVersionConflicts(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let session = sampleSession()
      let error = await #expect(throws: AuthError.self) {
        try await store.save(session, expectedVersion: 3)
      }
      #expect(error?.code == .storageConflict)

      let stored = try await store.save(session, expectedVersion: nil)
      for expected in [nil, 0, 2] as [UInt64?] {
        let conflict = await #expect(throws: AuthError.self) {
          try await store.save(session, expectedVersion: expected)
        }
        #expect(conflict?.code == .storageConflict)
        #expect(conflict?.message.contains("token-value") == false)
      }
      #expect(try await store.load(session.key) == stored)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func versionInTheRecordIsIgnored(kind: StoreKind) async throws {
    try await kind.withStore { store in
      var session = sampleSession()
      session.version = 99
      let saved = try await store.save(session, expectedVersion: nil)
      #expect(saved.version == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func deleteRemovesAndToleratesMissing(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let session = sampleSession()
      try await store.delete(session.key)
      _ = try await store.save(session, expectedVersion: nil)
      try await store.delete(session.key)
      #expect(try await store.load(session.key) == nil)
      try await store.delete(session.key)
      #expect(try await store.save(session, expectedVersion: nil).version == 2)
    }
  }

  /// Found by fuzzing: a store file holding version `UInt64.max` made the next save trap on
  /// `+ 1`. Versions come from outside; the write now fails with a typed error.
  @Test func aVersionAtItsMaximumFailsTheWriteInsteadOfTrapping() async throws {
    var session = sampleSession()
    session.version = .max
    let store = InMemorySessionStore(sessions: [session])
    let error = await #expect(throws: AuthError.self) {
      try await store.save(session, expectedVersion: .max)
    }
    #expect(error?.code == .storageFailed)
    #expect(try await store.load(session.key)?.version == .max)
  }

  @Test(arguments: StoreKind.allCases)
  func aRecordRecreatedAfterADeleteNeverReusesAVersion(kind: StoreKind) async throws {
    try await kind.withStore { store in
      // A writer reads version 3, then the user signs out and in again before it writes back.
      var stale = try await store.save(sampleSession(token: "old-1"), expectedVersion: nil)
      for index in 2...3 {
        stale.credential.accessToken = Secret("old-\(index)")
        stale = try await store.save(stale, expectedVersion: stale.version)
      }
      #expect(stale.version == 3)
      try await store.delete(stale.key)
      var fresh = try await store.save(sampleSession(token: "new-1"), expectedVersion: nil)
      for index in 2...3 {
        fresh.credential.accessToken = Secret("new-\(index)")
        fresh = try await store.save(fresh, expectedVersion: fresh.version)
      }
      #expect(fresh.version == 6)
      // With versions restarting at 1 this write would succeed and replace the new session.
      let conflict = await #expect(throws: AuthError.self) {
        try await store.save(stale, expectedVersion: stale.version)
      }
      #expect(conflict?.code == .storageConflict)
      #expect(try await store.load(stale.key)?.credential.accessToken == "new-3")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func loadAllReturnsEverySessionInKeyOrder(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let sessions = [
        sampleSession("b", provider: .twitter), sampleSession("a", provider: "line"),
        sampleSession("a", provider: .twitter),
      ]
      for session in sessions { _ = try await store.save(session, expectedVersion: nil) }
      let snapshot = try await store.loadAll()
      #expect(snapshot.failures.isEmpty)
      #expect(snapshot.sessions.map(\.key) == sessions.map(\.key).sorted())
      #expect(snapshot.sessions.allSatisfy { $0.version == 1 })
    }
  }

  @Test(arguments: StoreKind.allCases)
  func concurrentWritersWithTheSameVersionHaveOneWinner(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let base = try await store.save(sampleSession(), expectedVersion: nil)
      let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
        for index in 0..<20 {
          group.addTask {
            var next = base
            next.credential.accessToken = Secret("writer-\(index)")
            do {
              _ = try await store.save(next, expectedVersion: base.version)
              return true
            } catch let error as AuthError where error.code == .storageConflict {
              return false
            }
          }
        }
        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
      #expect(wins == 1)
      #expect(try await store.load(base.key)?.version == 2)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func leaseIsExclusiveAndReleaseIsIdempotent(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let key = sampleSession().key
      let lease = try await store.lockRefresh(for: key)
      // Exclusive: a second taker waits while the lease is held, and gets it after release.
      let acquired = Locked(false)
      let second = Task {
        let next = try await store.lockRefresh(for: key)
        acquired.withLock { $0 = true }
        return next
      }
      for _ in 0..<200 { await Task.yield() }
      try await Task.sleep(for: .milliseconds(50))  // a chance to (wrongly) acquire
      #expect(!acquired.withLock { $0 }, "a second lease was granted while the first was held")
      await lease.release()
      let next = try await second.value
      #expect(acquired.withLock { $0 })
      await next.release()
      await lease.release()  // idempotent: releasing again does not free someone else's lease
      // Still usable, and other keys are independent.
      let again = try await store.lockRefresh(for: key)
      let other = try await store.lockRefresh(for: SessionKey(provider: .twitter, subject: "x"))
      await other.release()
      await again.release()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func waiterCancelledWhileLeaseIsHeldThrowsAndLockStaysUsable(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let key = sampleSession().key
      let holder = try await store.lockRefresh(for: key)
      let waiter = Task { try await store.lockRefresh(for: key) }
      waiter.cancel()
      // Resolves while the lease is still held: the waiter did not wait for the release.
      await #expect(throws: CancellationError.self) { _ = try await waiter.value }
      await holder.release()
      let next = try await store.lockRefresh(for: key)
      await next.release()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func leaseSerializesReadModifyWrite(kind: StoreKind) async throws {
    try await kind.withStore { store in
      let key = try await store.save(sampleSession(token: "0"), expectedVersion: nil).key
      try await withThrowingDiscardingTaskGroup { group in
        for _ in 0..<30 {
          group.addTask {
            let lease = try await store.lockRefresh(for: key)
            let current = try #require(try await store.load(key))
            var next = current
            let count = try #require(Int(current.credential.accessToken.revealed))
            next.credential.accessToken = Secret(String(count + 1))
            _ = try await store.save(next, expectedVersion: current.version)
            await lease.release()
          }
        }
      }
      let final = try #require(try await store.load(key))
      #expect(final.credential.accessToken.revealed == "30")
      #expect(final.version == 31)
    }
  }
}
