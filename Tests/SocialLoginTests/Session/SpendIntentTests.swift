import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLogin

/// The intent to spend a refresh token (``SpendIntent``), on the file store: recorded in the
/// lease file before the request is sent, cleared when the lease is released, and read by the
/// next process when a killed one left it, so that a refusal of the token then names the lost
/// answer (``SignOutReason/refreshResponseLost``) and a retry that the provider honours goes on.
@Suite(.timeLimit(.minutes(1)))
struct SpendIntentTests {
  typealias Rig = IssuedTokensAreKeptTests.Rig

  /// The lease files of `directory`, with their contents.
  static func leaseFiles(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".lease") }
      .map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
  }

  /// A due session (refresh token `rt-0`) of the OIDC rig, in a file store in `directory`.
  static func fileSession(in directory: URL) async throws -> (Rig, FileSessionStore, SessionActor) {
    let rig = try IssuedTokensAreKeptTests.oidcRig()
    let store = try FileSessionStore(directory: directory)
    return (rig, store, try await IssuedTokensAreKeptTests.session(rig, store: store))
  }

  /// Leaves in the session's lease file what a process killed after recording its intent
  /// leaves: the line naming `refreshToken`.
  static func leaveInterruptedIntent(
    _ directory: URL, store: FileSessionStore, key: SessionKey, refreshToken: Secret
  ) async throws {
    let lease = try await store.lockRefresh(for: key)
    await lease.release()
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .first { $0.hasSuffix(".lease") })
    let intent = SpendIntent(
      refreshTokenDigest: SpendIntent.digest(of: refreshToken), owner: "pid-1-dead",
      recordedAt: Date())
    try Data(FileSpendIntent.line(intent).utf8).write(
      to: directory.appendingPathComponent(name))
  }

  @Test func theIntentIsInTheLeaseFileWhileTheRequestIsSentAndGoneAfter() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, _, session) = try await Self.fileSession(in: directory)
      let seen = Locked<[String]>([])
      let issue = rig.issue(1)
      rig.stub.on(
        "POST", rig.tokenPath,
        reply: .handler { request in
          seen.withLock { $0 = (try? Self.leaseFiles(directory)) ?? [] }
          guard case .handler(let answer) = issue else { return TransportResponse(status: 500) }
          return try await answer(request)
        })
      #expect(try await session.freshAccessToken() == "at-1")
      let during = seen.withLock { $0 }
      #expect(during.count == 1)
      #expect(during.first?.contains(SpendIntent.digest(of: "rt-0")) == true)
      #expect(during.first?.contains("rt-0 ") == false, "the token itself is never written")
      #expect(try Self.leaseFiles(directory) == [""], "released: the intent is cleared")
    }
  }

  /// A killed process left its intent for the token this one is about to spend, and the
  /// provider refuses it: the answer was lost, and the session (and its tombstone, for every
  /// other process) says so.
  @Test func aRefusalAfterAnInterruptedIntentIsRefreshResponseLost() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, store, session) = try await Self.fileSession(in: directory)
      try await Self.leaveInterruptedIntent(
        directory, store: store, key: session.key, refreshToken: "rt-0")
      rig.stub.on(
        "POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
      let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
      #expect(error?.signOutReason == .refreshResponseLost)
      #expect(try await store.deletionReason(for: session.key) == .refreshResponseLost)
    }
  }

  /// An intent for another token (one already saved over) says nothing about this one: the
  /// refusal keeps its own reason.
  @Test func anIntentForAnotherTokenIsNotALoss() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, store, session) = try await Self.fileSession(in: directory)
      try await Self.leaveInterruptedIntent(
        directory, store: store, key: session.key, refreshToken: "rt-older")
      rig.stub.on(
        "POST", rig.tokenPath, reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
      let error = await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
      #expect(error?.code == .signedOut)
      #expect(error?.signOutReason != .refreshResponseLost)
    }
  }

  /// A provider that honours the just-spent token (a reuse grace) answers the retry: the
  /// session goes on, and the intent is settled.
  @Test func aRetryInsideTheGraceGoesOn() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, store, session) = try await Self.fileSession(in: directory)
      try await Self.leaveInterruptedIntent(
        directory, store: store, key: session.key, refreshToken: "rt-0")
      rig.stub.on("POST", rig.tokenPath, reply: rig.issue(1))
      #expect(try await session.freshAccessToken() == "at-1")
      #expect(try await store.load(session.key)?.refreshAnswerLost == nil)
      #expect(try Self.leaseFiles(directory) == [""])
    }
  }

  /// A holder that finds another's interrupted intent and spends nothing (it adopts a record
  /// that serves) leaves the intent where it is: the next holder that spends that token must
  /// still learn its answer may be lost.
  @Test func aHolderThatSpendsNothingLeavesAnotherHoldersIntent() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, store, session) = try await Self.fileSession(in: directory)
      // Another process refreshed (rt-1, valid) and then died spending rt-1.
      var newer = try #require(try await store.load(session.key))
      newer.credential = Credential(
        accessToken: "at-1", refreshToken: "rt-1",
        expiresAt: rig.clock.wallTime.addingTimeInterval(3600))
      _ = try await store.save(newer, expectedVersion: newer.version)
      try await Self.leaveInterruptedIntent(
        directory, store: store, key: session.key, refreshToken: "rt-1")
      #expect(try await session.freshAccessToken() == "at-1")
      #expect(rig.sentRefreshTokens.isEmpty)
      let left = try Self.leaseFiles(directory)
      #expect(left.first?.contains(SpendIntent.digest(of: "rt-1")) == true)
    }
  }

  /// The interrupted intent is remembered with the record as soon as it is found: a transient
  /// failure of this holder's own attempt keeps the knowledge for every later process.
  @Test func anInterruptedIntentIsRememberedWithTheRecord() async throws {
    try await withTemporaryDirectory { directory in
      let (rig, store, session) = try await Self.fileSession(in: directory)
      try await Self.leaveInterruptedIntent(
        directory, store: store, key: session.key, refreshToken: "rt-0")
      rig.stub.on(
        "POST", rig.tokenPath, reply: .json(#"{"error":"temporarily_unavailable"}"#, status: 503))
      await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
      #expect(try await store.load(session.key)?.refreshAnswerLost == true)
    }
  }

  /// A caller has its token before the lease goes back; `finishRefreshes()` returns only once
  /// it has (what a process about to exit waits for).
  @Test func finishRefreshesWaitsForTheRelease() async throws {
    let rig = try IssuedTokensAreKeptTests.oidcRig()
    let gate = Gate()
    let store = GatedReleaseStore(base: InMemorySessionStore(), gate: gate)
    let session = try await IssuedTokensAreKeptTests.session(rig, store: store)
    rig.stub.on("POST", rig.tokenPath, reply: rig.issue(1))
    #expect(try await session.freshAccessToken() == "at-1")
    let finished = Locked(false)
    let finishing = Task {
      await session.finishRefreshes()
      finished.withLock { $0 = true }
    }
    try await gate.waitForWaiters(count: 1, timeout: .seconds(45))
    #expect(finished.withLock { $0 } == false, "the release has not happened yet")
    gate.open()
    await finishing.value
    #expect(finished.withLock { $0 })
    #expect(store.released.withLock { $0 } == 1)
    // With nothing running it returns at once.
    await session.finishRefreshes()
  }

  /// What a lease file holds is read with a bound and believed only in its exact shape.
  @Test func hostileLeaseFilesAreNotBelieved() throws {
    let digest = SpendIntent.digest(of: "rt-0")
    let good = "sociallogin-intent 1 \(digest) pid-7-ab 1700000000000\n"
    #expect(FileSpendIntent.parse(Array(good.utf8))?.refreshTokenDigest == digest)
    #expect(
      FileSpendIntent.parse(Array(good.utf8))?.recordedAt
        == Date(timeIntervalSince1970: 1_700_000_000))
    let hostile = [
      "", "\n", String(good.dropLast()), good + good, "sociallogin-intent 2 \(digest) o 1\n",
      "sociallogin-intent 1 \(digest.uppercased()) o 1\n", "sociallogin-intent 1 \(digest) o -1\n",
      "sociallogin-intent 1 \(digest) o 99999999999999999999\n",
      "sociallogin-intent 1 \(digest)  1\n", "sociallogin-intent 1 \(digest) o\u{7F} 1\n",
      "sociallogin-intent 1 \(digest) " + String(repeating: "o", count: 300) + " 1\n",
      "12\n",
    ]
    for text in hostile {
      #expect(FileSpendIntent.parse(Array(text.utf8)) == nil, "believed \(text.prefix(40))")
    }
  }
}

/// A store whose leases wait for `gate` before they are released.
private struct GatedReleaseStore: SessionStore {
  let base: InMemorySessionStore
  let gate: Gate
  let released = Locked(0)

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
    GatedLease(base: try await base.lockRefresh(for: key), gate: gate, released: released)
  }
}

private struct GatedLease: RefreshLease {
  let base: any RefreshLease
  let gate: Gate
  let released: Locked<Int>

  func release() async {
    await gate.wait()
    await base.release()
    released.withLock { $0 += 1 }
  }
}
