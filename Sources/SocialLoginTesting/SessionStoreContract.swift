import Foundation
import SocialLogin

/// The behaviour every `SessionStore` must share (compare-and-swap versions,
/// versions never reused after a delete, listing, the refresh lease), written once and run by
/// each store's tests: in memory, files, Redis, or your own store.
///
/// ```swift
/// @Test(arguments: SessionStoreContract.allCases)
/// func myStoreKeepsTheContract(check: SessionStoreContract) async throws {
///   try await check.run(on: MyStore(fresh: true))
/// }
/// ```
///
/// Each check needs a fresh, empty store and throws ``ContractViolation`` on the first broken
/// promise, so it works with any test framework.
public enum SessionStoreContract: String, CaseIterable, Sendable, CustomStringConvertible {
  /// The first write needs `expectedVersion: nil` and gets version 1; each write adds one.
  case insertOnlyWhenAbsentThenVersionsCountUp
  /// A wrong expected version is `storageConflict` and changes nothing.
  case staleOrMissingExpectedVersionConflicts
  /// The store assigns versions; the one in the record passed in does not count.
  case versionInTheRecordIsIgnored
  /// Deleting removes the record; deleting a missing one is not an error.
  case deleteRemovesAndToleratesMissing
  /// A record created after a delete continues from the deleted version (no ABA).
  case aRecordRecreatedAfterADeleteNeverReusesAVersion
  /// `delete(_:ifVersion:)` deletes only the version given, and versions continue after it.
  case compareAndDeleteDeletesOnlyTheVersionGiven
  /// `loadAll()` returns every session, ordered by key.
  case loadAllReturnsEverySessionInKeyOrder
  /// Of 20 concurrent writers expecting one version, exactly one wins.
  case concurrentWritersWithTheSameVersionHaveOneWinner
  /// Releasing a lease twice is harmless; leases of other keys are independent.
  case leaseIsExclusiveAndReleaseIsIdempotent
  /// A cancelled waiter throws `CancellationError` at once and holds nothing.
  case waiterCancelledWhileLeaseIsHeldThrowsAndLockStaysUsable
  /// Thirty read-modify-write cycles under the lease lose no update.
  case leaseSerializesReadModifyWrite

  /// The check's name.
  public var description: String { rawValue }

  /// Runs the check against `store`, which must be empty.
  ///
  /// - Throws: ``ContractViolation`` when the store breaks the contract, or what the store threw
  ///   where it should not have.
  public func run(on store: any SessionStore) async throws {
    switch self {
    case .insertOnlyWhenAbsentThenVersionsCountUp:
      let session = Self.sampleSession()
      try check(try await store.load(session.key) == nil, "an empty store has no session")
      let first = try await store.save(session, expectedVersion: nil)
      try check(first.version == 1, "the first write has version 1, got \(first.version)")
      try check(try await store.load(session.key) == first, "load returns what save stored")
      var changed = first
      changed.credential.accessToken = "second"
      let second = try await store.save(changed, expectedVersion: 1)
      try check(second.version == 2, "the second write has version 2")
      try check(
        try await store.load(session.key)?.credential.accessToken == "second",
        "load returns the second write")

    case .staleOrMissingExpectedVersionConflicts:
      let session = Self.sampleSession()
      try await expectConflict("a write to a missing record with a version") {
        _ = try await store.save(session, expectedVersion: 3)
      }
      let stored = try await store.save(session, expectedVersion: nil)
      for expected in [nil, 0, 2] as [UInt64?] {
        let error = try await expectConflict("a write expecting \(String(describing: expected))") {
          _ = try await store.save(session, expectedVersion: expected)
        }
        try check(!error.message.contains("token-value"), "a conflict never shows a token")
      }
      try check(try await store.load(session.key) == stored, "conflicts change nothing")

    case .versionInTheRecordIsIgnored:
      var session = Self.sampleSession()
      session.version = 99
      let saved = try await store.save(session, expectedVersion: nil)
      try check(saved.version == 1, "the store assigns versions, got \(saved.version)")

    case .deleteRemovesAndToleratesMissing:
      let session = Self.sampleSession()
      try await store.delete(session.key)
      _ = try await store.save(session, expectedVersion: nil)
      try await store.delete(session.key)
      try check(try await store.load(session.key) == nil, "a deleted session is gone")
      try await store.delete(session.key)
      let again = try await store.save(session, expectedVersion: nil)
      try check(again.version == 2, "a recreated record continues the versions")

    case .aRecordRecreatedAfterADeleteNeverReusesAVersion:
      var stale = try await store.save(Self.sampleSession(token: "old-1"), expectedVersion: nil)
      for index in 2...3 {
        stale.credential.accessToken = Secret("old-\(index)")
        stale = try await store.save(stale, expectedVersion: stale.version)
      }
      try check(stale.version == 3, "three writes give version 3")
      try await store.delete(stale.key)
      var fresh = try await store.save(Self.sampleSession(token: "new-1"), expectedVersion: nil)
      for index in 2...3 {
        fresh.credential.accessToken = Secret("new-\(index)")
        fresh = try await store.save(fresh, expectedVersion: fresh.version)
      }
      try check(fresh.version == 6, "versions continue after a delete, got \(fresh.version)")
      try await expectConflict("a writer holding a version from before the delete") {
        _ = try await store.save(stale, expectedVersion: stale.version)
      }
      try check(
        try await store.load(stale.key)?.credential.accessToken == "new-3",
        "the new session survives the stale writer")

    case .compareAndDeleteDeletesOnlyTheVersionGiven:
      let session = Self.sampleSession()
      try check(
        try await !store.delete(session.key, ifVersion: 1), "nothing to delete: returns false")
      let first = try await store.save(session, expectedVersion: nil)
      let second = try await store.save(first, expectedVersion: first.version)
      try check(
        try await !store.delete(session.key, ifVersion: first.version),
        "an older version is not deleted")
      try check(try await store.load(session.key) == second, "and the record is kept")
      try check(
        try await store.delete(session.key, ifVersion: second.version),
        "the stored version is deleted")
      try check(try await store.load(session.key) == nil, "a deleted session is gone")
      try check(
        try await !store.delete(session.key, ifVersion: second.version),
        "deleting again returns false")
      let again = try await store.save(session, expectedVersion: nil)
      try check(again.version == 3, "versions continue after it, got \(again.version)")

    case .loadAllReturnsEverySessionInKeyOrder:
      let sessions = [
        Self.sampleSession("b", provider: .twitter), Self.sampleSession("a", provider: "line"),
        Self.sampleSession("a", provider: .twitter),
      ]
      for session in sessions { _ = try await store.save(session, expectedVersion: nil) }
      let snapshot = try await store.loadAll()
      try check(snapshot.failures.isEmpty, "no failures")
      try check(
        snapshot.sessions.map(\.key) == sessions.map(\.key).sorted(), "every session, by key")
      try check(snapshot.sessions.allSatisfy { $0.version == 1 }, "with their versions")

    case .concurrentWritersWithTheSameVersionHaveOneWinner:
      let base = try await store.save(Self.sampleSession(), expectedVersion: nil)
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
      try check(wins == 1, "exactly one of 20 writers wins, got \(wins)")
      try check(try await store.load(base.key)?.version == 2, "one write happened")

    case .leaseIsExclusiveAndReleaseIsIdempotent:
      let key = Self.sampleSession().key
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
      try check(!acquired.withLock { $0 }, "a second lease was granted while the first was held")
      await lease.release()
      let next = try await second.value
      try check(acquired.withLock { $0 }, "the second taker got the lease after the release")
      await next.release()
      await lease.release()  // idempotent: releasing again does not free someone else's lease
      let again = try await store.lockRefresh(for: key)
      let other = try await store.lockRefresh(for: SessionKey(provider: .twitter, subject: "x"))
      await other.release()
      await again.release()

    case .waiterCancelledWhileLeaseIsHeldThrowsAndLockStaysUsable:
      let key = Self.sampleSession().key
      let holder = try await store.lockRefresh(for: key)
      let waiter = Task { try await store.lockRefresh(for: key) }
      waiter.cancel()
      do {
        let lease = try await waiter.value
        await lease.release()
        throw ContractViolation("a cancelled waiter got the lease while it was held")
      } catch is CancellationError {}
      await holder.release()
      let next = try await store.lockRefresh(for: key)
      await next.release()

    case .leaseSerializesReadModifyWrite:
      let key = try await store.save(Self.sampleSession(token: "0"), expectedVersion: nil).key
      try await withThrowingDiscardingTaskGroup { group in
        for _ in 0..<30 {
          group.addTask {
            let lease = try await store.lockRefresh(for: key)
            guard let current = try await store.load(key),
              let count = Int(current.credential.accessToken.revealed)
            else { throw ContractViolation("the counter record is missing") }
            var next = current
            next.credential.accessToken = Secret(String(count + 1))
            _ = try await store.save(next, expectedVersion: current.version)
            await lease.release()
          }
        }
      }
      let final = try await store.load(key)
      try check(final?.credential.accessToken.revealed == "30", "30 increments under the lease")
      try check(final?.version == 31, "31 writes")
    }
  }

  private func check(_ condition: Bool, _ promise: String) throws {
    if !condition { throw ContractViolation("\(rawValue): \(promise)") }
  }

  @discardableResult
  private func expectConflict(_ what: String, _ body: () async throws -> Void) async throws
    -> AuthError
  {
    do {
      try await body()
    } catch let error as AuthError where error.code == .storageConflict {
      return error
    }
    throw ContractViolation("\(rawValue): \(what) must fail with storageConflict")
  }

  /// A session with every credential field and a nested identity, as the checks store it.
  public static func sampleSession(
    _ subject: String = "42", provider: ProviderID = .twitter, token: String = "access-token-value"
  ) -> StoredSession {
    let identity = Identity(
      provider: provider, subject: subject, name: "Ada", email: "ada@example.test",
      emailVerified: true, pictureURL: URL(string: "https://example.test/a.png"),
      rawClaims: ["sub": .string(subject), "n": 1.5, "list": [true, nil, "x"]])
    let credential = Credential(
      accessToken: Secret(token), refreshToken: "refresh-token-value", idToken: "id.token.value",
      tokenSecret: "token-secret-value", tokenType: "Bearer", scopes: ["openid", "profile"],
      expiresAt: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_789), issuedAt: Date(),
      serverTimeOffset: -1.25)
    return StoredSession(
      key: SessionKey(provider: provider, subject: subject), credential: credential,
      identity: identity)
  }
}

/// A broken promise of the ``SessionStoreContract``.
public struct ContractViolation: Error, CustomStringConvertible {
  /// What the store did wrong.
  public var description: String

  /// Creates a violation.
  public init(_ description: String) {
    self.description = description
  }
}
