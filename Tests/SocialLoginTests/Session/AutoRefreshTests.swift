import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Automatic refresh ahead of expiry: every session of a client is woken by one shared
/// sleeping task, on a manual clock.
@Suite(.timeLimit(.minutes(1))) struct AutoRefreshTests {
  let clock = ManualClock()
  let provider: ScriptedProvider
  let client: LoginClient

  init() throws {
    provider = ScriptedProvider(clock: clock)
    client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      // No refresh deadline: its timers would also sleep on the clock, and these tests count
      // the sleepers to prove that one task serves every session.
      policy: RefreshPolicy(
        leeway: .seconds(30), proactiveMargin: .seconds(120), refreshDeadline: nil))
  }

  /// Registers a session for `subject` whose token expires `expiresIn` seconds from now.
  @discardableResult
  func register(_ subject: String, expiresIn: TimeInterval) async throws -> SessionActor {
    try await client.register(
      credential: Credential(
        accessToken: Secret("at-\(subject)"), refreshToken: Secret("rt-\(subject)"),
        expiresAt: clock.wallTime.addingTimeInterval(expiresIn)),
      identity: Identity(provider: provider.id, subject: subject))
  }

  /// Yields until the provider has seen `count` refreshes (no wall-clock sleeps).
  func waitForRefreshes(_ count: Int, on provider: ScriptedProvider? = nil) async {
    let provider = provider ?? self.provider
    var spins = 0
    while await provider.refreshCount < count {
      spins += 1
      if Task.isCancelled || spins > 1_000_000 {
        Issue.record("only \(await provider.refreshCount) of \(count) refreshes happened")
        return
      }
      await Task.yield()
    }
  }

  @Test func manySessionsShareOneSleepingTaskAndEachRefreshesOnceAheadOfExpiry() async throws {
    // Registered latest-first, so every registration plans an earlier wake-up than the one
    // the shared task sleeps for, and must replace it.
    let count = 100
    for index in stride(from: count - 1, through: 0, by: -1) {
      try await register("u\(index)", expiresIn: 1000 + 10 * TimeInterval(index))
    }
    try await clock.waitForSleepers(count: 1)
    #expect(clock.sleeperCount == 1)

    // Session i wakes at 1000 + 10 i - 120 (the margin): 880 + 10 i.
    clock.advance(by: .seconds(880 + 10 * 49 + 5))
    await waitForRefreshes(50)
    try await clock.waitForSleepers(count: 1)
    #expect(await provider.refreshCount == 50)
    #expect(
      Set(await provider.spentRefreshTokens) == Set((0..<50).map { "rt-u\($0)" }))
    #expect(clock.sleeperCount == 1)

    clock.advance(by: .seconds(500))
    await waitForRefreshes(count)
    try await clock.waitForSleepers(count: 1)
    let spent = await provider.spentRefreshTokens
    #expect(spent.count == count)
    #expect(Set(spent) == Set((0..<count).map { "rt-u\($0)" }))
    // The provider answered every refresh; each session stores its answer just after.
    let sessions = client.sessions
    try await WaitTimeout.yieldUntil("every session to hold its refreshed token") {
      for session in sessions
      where await session.credential?.refreshToken?.revealed.hasPrefix("rt-1") != true {
        return false
      }
      return true
    }
  }

  @Test func stoppedAndSignedOutSessionsAreNeverWoken() async throws {
    let stopped = try await register("stopped", expiresIn: 600)
    let signedOut = try await register("signed-out", expiresIn: 600)
    try await register("active", expiresIn: 700)
    await stopped.stopAutoRefresh()
    try await signedOut.signOut(revoke: false)

    clock.advance(by: .seconds(600))
    await waitForRefreshes(1)
    try await clock.waitForSleepers(count: 1)
    #expect(await provider.spentRefreshTokens == ["rt-active"])
    #expect(await stopped.credential?.refreshToken == "rt-stopped")
  }

  @Test func aFarAwayExpirySleepsInDaySizedStepsAndNeverOverflows() async throws {
    try await register("forever", expiresIn: 1e15)
    try await clock.waitForSleepers(count: 1)
    for _ in 0..<3 {
      clock.advance(by: .seconds(86_400))
      try await clock.waitForSleepers(count: 1)
    }
    #expect(await provider.refreshCount == 0)
    #expect(clock.sleeperCount == 1)
  }

  @Test func aRefreshedSessionIsPlannedAgainForItsNewExpiry() async throws {
    try await register("u", expiresIn: 300)
    clock.advance(by: .seconds(180))
    await waitForRefreshes(1)
    // The new token lives 3600 s; the next wake-up is 120 s before that.
    try await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(3600 - 121))
    try await clock.waitForSleepers(count: 1)
    #expect(await provider.refreshCount == 1)
    clock.advance(by: .seconds(1))
    await waitForRefreshes(2)
    #expect(await provider.spentRefreshTokens == ["rt-u", "rt-1001"])
  }

  @Test func tokensShorterLivedThanTheMarginAreRefreshedHalfwayNotInALoop() async throws {
    let provider = ScriptedProvider(clock: clock, tokenLifetime: .seconds(60))
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(
        leeway: .seconds(10), proactiveMargin: .seconds(120), refreshDeadline: nil))
    _ = try await client.register(
      credential: Credential(
        accessToken: "at", refreshToken: "rt", expiresAt: clock.wallTime.addingTimeInterval(60)),
      identity: Identity(provider: provider.id, subject: "short"))
    // Each 60 s token is replaced after 30 s: one refresh per 30 s, never a burst.
    for round in 1...3 {
      try await clock.waitForSleepers(count: 1)
      clock.advance(by: .seconds(29))
      try await clock.waitForSleepers(count: 1)
      #expect(await provider.refreshCount == round - 1)
      clock.advance(by: .seconds(1))
      var spins = 0
      while await provider.refreshCount < round, spins < 1_000_000 {
        spins += 1
        await Task.yield()
      }
      #expect(await provider.refreshCount == round)
    }
  }

  @Test func aBacklogOfExpiredSessionsIsRefreshedAFewAtATime() async throws {
    let provider = ScriptedProvider(clock: clock)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(maxConcurrentAutomaticRefreshes: 5))
    let gate = Gate()
    let count = 40
    for _ in 0..<count {
      await provider.enqueueRefresh { credential in
        await gate.wait()
        return Credential(
          accessToken: "new", refreshToken: credential.refreshToken,
          expiresAt: self.clock.wallTime.addingTimeInterval(3600))
      }
    }
    // Like a restart after an outage: every session is already expired.
    for index in 0..<count {
      _ = try await client.register(
        credential: Credential(
          accessToken: "old", refreshToken: Secret("rt-\(index)"),
          expiresAt: clock.wallTime.addingTimeInterval(-10)),
        identity: Identity(provider: provider.id, subject: "u\(index)"))
    }
    try await gate.waitForWaiters(count: 5)
    for _ in 0..<1000 { await Task.yield() }
    #expect(gate.waiterCount == 5)
    #expect(await provider.refreshCount == 5)
    // A caller asking for a token is not queued behind the backlog.
    let session = try #require(
      client.session(for: SessionKey(provider: provider.id, subject: "u39")))
    let direct = Task { try await session.freshAccessToken() }
    try await gate.waitForWaiters(count: 6)
    gate.open()
    #expect(try await direct.value == "new")
    await waitForRefreshes(count, on: provider)
    #expect(await provider.refreshCount == count)
  }
}
