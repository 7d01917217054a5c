/// A test helper's wait ran out of time: the code under test never reached the expected
/// point (a regression), so the test fails with this message instead of hanging.
///
/// ```swift
/// try await clock.waitForSleepers(count: 1)                    // default: 10 s
/// try await gate.waitForWaiters(count: 3, timeout: .seconds(2))
/// ```
public struct WaitTimeout: Error, Sendable, CustomStringConvertible {
  /// What was awaited, and how long.
  public let description: String

  /// Creates the error.
  public init(_ description: String) { self.description = description }

  /// The default deadline of the helpers' waits: long enough for a loaded CI machine (10 s
  /// was too short on two cores shared with debug-build Wycheproof loops), short enough to
  /// fail well within a suite's time limit.
  public static let defaultTimeout: Duration = .seconds(60)

  /// Yields until `condition` holds, or throws after `timeout` of real (not manual) time.
  static func yield(
    until condition: () -> Bool, timeout: Duration, _ what: @autoclosure () -> String
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      guard ContinuousClock.now < deadline else {
        throw WaitTimeout("Gave up after \(timeout) waiting for \(what()).")
      }
      // Yield, then nap a millisecond, so a busy wait never starves the tasks it waits for
      // on a small cooperative pool.
      await Task.yield()
      if !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }
  }

  /// Yields until the asynchronous `condition` holds (for example an actor's state), or
  /// throws after `timeout` of real time.
  ///
  /// ```swift
  /// try await WaitTimeout.yieldUntil("every caller to join") { await counter.value == 100 }
  /// ```
  public static func yieldUntil(
    _ what: @autoclosure () -> String, timeout: Duration = defaultTimeout,
    _ condition: () async -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
      guard ContinuousClock.now < deadline else {
        throw WaitTimeout("Gave up after \(timeout) waiting for \(what()).")
      }
      await Task.yield()
      if await !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }
  }
}
