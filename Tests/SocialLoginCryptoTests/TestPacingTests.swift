import Foundation
import TestPacing
import Testing

/// The test-support pieces every target's heavy tests and deadlines rely on.
@Suite struct TestPacingTests {
  /// Whether the caller runs on the heavy-work thread (asked from synchronous code, as a test
  /// body's computation is).
  static func onHeavyThread() -> Bool { HeavyWork.isCurrentThread }

  @Test(.heavy) func heavyTestsRunOnTheHeavyWorkThreadEvenAfterSuspending() async {
    #expect(Self.onHeavyThread())
    await Task.yield()
    try? await Task.sleep(for: .milliseconds(1))
    #expect(Self.onHeavyThread(), "resumed on the same thread")
  }

  @Test func otherTestsRunOnThePool() {
    #expect(!Self.onHeavyThread())
  }

  @Test func aHangingBodyFailsAtItsDeadlineAndIsCancelled() async throws {
    let cancelled = await withCheckedContinuation { (seen: CheckedContinuation<Bool, Never>) in
      Task {
        let error = await #expect(throws: DeadlineExceeded.self) {
          try await withDeadline(.milliseconds(200), "a body that never ends") {
            do {
              try await Task.sleep(for: .seconds(3600))
            } catch {
              seen.resume(returning: Task.isCancelled)
              throw error
            }
          }
        }
        #expect(error?.description.contains("a body that never ends") == true)
      }
    }
    #expect(cancelled)
  }

  @Test func aBodyThatEndsInTimeGivesItsResultOrError() async throws {
    #expect(try await withDeadline(.seconds(60), "an answer") { 42 } == 42)
    await #expect(throws: CancellationError.self) {
      try await withDeadline(.seconds(60), "an error") { throw CancellationError() }
    }
  }

  @Test func blockingCallsRunOffThePool() async throws {
    #expect(try await blockingCall { Self.onHeavyThread() } == false)
    #expect(try await blockingCall { 7 * 6 } == 42)
  }
}
