import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite(.timeLimit(.minutes(5))) struct SingleFlightTimeoutTests {
  /// Callers giving a timeout share one timer for the earliest deadline (not a task each),
  /// and each still gives up on its own deadline, never before it.
  @Test func timedWaitersShareOneTimerAndEachEndsOnItsOwnDeadline() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let gate = await fixture.holdNextRefresh(issuing: 8)
    let provider = fixture.provider
    let clock = fixture.clock
    let patient = Task { try await session.freshAccessToken() }
    try await gate.waitForWaiters(count: 1)
    let finished = Locked(0)
    let slow = (0..<200).map { _ in
      Task {
        defer { finished.withLock { $0 += 1 } }
        return try await session.freshAccessToken(timeout: .seconds(8))
      }
    }
    try await WaitTimeout.yieldUntil("200 waiters") { await session.refreshWaiterCount == 201 }
    let quick = Task { try await session.freshAccessToken(timeout: .seconds(3)) }
    try await WaitTimeout.yieldUntil("the quick waiter") {
      await session.refreshWaiterCount == 202
    }
    // The refresh's own deadline and one timeout timer, re-armed for the 3 s caller (the
    // re-arm registers from a task, so wait for it rather than read the count at once).
    try await clock.waitForSleepers(count: 2)
    #expect(clock.sleeperCount == 2)

    clock.advance(by: .seconds(3))
    let quickError = await #expect(throws: AuthError.self) { try await quick.value }
    #expect(quickError?.code == .timedOut)
    // Re-armed for the others' 8 s; none of them gave up early.
    try await clock.waitForSleepers(count: 2)
    #expect(finished.withLock { $0 } == 0)

    clock.advance(by: .seconds(5))
    try await WaitTimeout.yieldUntil("every 8 s caller to give up", timeout: .seconds(20)) {
      finished.withLock { $0 } == 200
    }
    for caller in slow {
      let error = await #expect(throws: AuthError.self) { try await caller.value }
      #expect(error?.code == .timedOut)
    }
    gate.open()
    #expect(try await patient.value == "at-8")
    #expect(await provider.refreshCount == 1)
  }
}
