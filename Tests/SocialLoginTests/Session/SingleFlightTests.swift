import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct SingleFlightTests {
  @Test func tenThousandConcurrentCallersCauseOneRefresh() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<10_000 {
        group.addTask { try await session.freshAccessToken() }
      }
      var all: Set<String> = []
      for try await token in group { all.insert(token) }
      return all
    }
    #expect(await fixture.provider.refreshCount == 1)
    #expect(tokens == ["at-1001"])
    #expect(await fixture.provider.spentRefreshTokens == ["rt-0"])
    let stored = try #require(try await fixture.store.load(fixture.key))
    #expect(stored.credential.refreshToken == "rt-1001")
  }

  @Test func cachedTokenNeedsNoRefresh() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial(expiresIn: 1800))
    #expect(try await session.freshAccessToken() == "at-0")
    #expect(await fixture.provider.refreshCount == 0)
    // Asking for more lifetime than is left (but no more than the provider grants, 3600 s)
    // refreshes.
    #expect(try await session.freshAccessToken(minimumTTL: .seconds(3000)) == "at-1001")
    #expect(await fixture.provider.refreshCount == 1)
  }

  @Test func cancelledWaiterLeavesWhileOthersGetTheToken() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let gate = await fixture.holdNextRefresh(issuing: 7)
    let provider = fixture.provider
    let leaver = Task { try await session.freshAccessToken() }
    let stayers = (0..<50).map { _ in Task { try await session.freshAccessToken() } }
    try await gate.waitForWaiters(count: 1)
    leaver.cancel()
    // The cancelled caller returns while the refresh is still held at the gate.
    await #expect(throws: CancellationError.self) { try await leaver.value }
    #expect(gate.waiterCount == 1)
    gate.open()
    for stayer in stayers { #expect(try await stayer.value == "at-7") }
    #expect(await provider.refreshCount == 1)
  }

  @Test func waiterTimesOutOnItsOwnDeadlineOnly() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let gate = await fixture.holdNextRefresh(issuing: 8)
    let provider = fixture.provider
    let clock = fixture.clock
    let patient = Task { try await session.freshAccessToken() }
    let impatient = Task { try await session.freshAccessToken(timeout: .seconds(5)) }
    try await gate.waitForWaiters(count: 1)
    // The impatient caller's timer and the refresh's own deadline (60 s by default).
    try await clock.waitForSleepers(count: 2)
    clock.advance(by: .seconds(5))
    let error = await #expect(throws: AuthError.self) { try await impatient.value }
    #expect(error?.code == .timedOut)
    gate.open()
    #expect(try await patient.value == "at-8")
    #expect(await provider.refreshCount == 1)
  }

  @Test func refreshAfterRotationSpendsTheNewToken() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    #expect(try await session.freshAccessToken() == "at-1001")
    fixture.clock.advance(by: .seconds(3600))
    #expect(try await session.freshAccessToken() == "at-1002")
    #expect(await fixture.provider.spentRefreshTokens == ["rt-0", "rt-1001"])
  }

  @Test func anOverdueRefreshReleasesEveryWaiterAndStillKeepsItsTokens() async throws {
    let fixture = SessionFixture()
    let policy = RefreshPolicy(
      proactiveMargin: nil,
      backoff: BackoffPolicy(baseDelay: .seconds(10), random: { $0.upperBound }),
      refreshDeadline: .seconds(60))
    let session = fixture.makeSession(record: try await fixture.storeInitial(), policy: policy)
    let gate = Gate()
    let provider = fixture.provider
    let clock = fixture.clock
    await provider.enqueueRefresh { _ in
      await gate.wait()  // a provider that hangs (no transport timeout)
      return provider.makeCredential(number: 7, clockNow: clock.wallTime)
    }
    let callers = (0..<20).map { _ in Task { try await session.freshAccessToken() } }
    try await gate.waitForWaiters(count: 1)
    clock.advance(by: .seconds(60))
    for caller in callers {
      let error = await #expect(throws: AuthError.self) { try await caller.value }
      #expect(error?.code == .timedOut)
      #expect(error?.isTransient == true)
    }
    #expect(session.currentState == .degraded(retryAt: clock.wallTime.addingTimeInterval(10)))

    // While the refresh is stuck, callers fail fast and no second refresh spends rt-0 again,
    // before retryAt and after it.
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    clock.advance(by: .seconds(10))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    #expect(await provider.refreshCount == 1)
    #expect(session.currentState == .degraded(retryAt: clock.wallTime.addingTimeInterval(20)))

    // When it ends, its tokens are persisted and published, not lost.
    var states = session.states.makeAsyncIterator()
    _ = await states.next()  // the current (degraded) state
    gate.open()
    #expect(await states.next() == .signedIn)
    #expect(try await session.freshAccessToken() == "at-7")
    #expect(await provider.refreshCount == 1)
    #expect(try await fixture.store.load(fixture.key)?.credential.refreshToken == "rt-7")
  }
}
