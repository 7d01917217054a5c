import Testing

/// The trait of a CPU-heavy test or suite: its body runs through ``HeavyWork/run(_:)``, on the
/// heavy-work thread instead of a cooperative-pool thread.
///
/// ```swift
/// @Test(.heavy) func wycheproofVectors() throws { ... }
/// ```
public struct HeavyWorkTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test of a suite that carries it.
  public var isRecursive: Bool { true }

  /// Runs the test on the heavy-work thread.
  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await HeavyWork.run { try await function() }
  }
}

extension Trait where Self == HeavyWorkTrait {
  /// This test computes for seconds (debug-build crypto, fuzz replays): see ``HeavyWork``.
  public static var heavy: Self { Self() }
}
