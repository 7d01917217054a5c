import Testing

/// The trait of a suite whose tests run `sociallogin` child processes that talk to servers in
/// this test process (the emulator, a token server): its tests take turns with every other
/// such test of the process, one at a time.
///
/// A child process waiting for an answer through Foundation's `URLSession` on Linux spins a
/// core (see `LoopbackTransport`); with several of them at once on a two-core machine, the
/// servers they wait for — threads of this process — got too little CPU to answer within the
/// CLI's own 10 s and 30 s timeouts, and tests failed that pass alone.
public struct CLITurnTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of a suite that carries it.
  public var isRecursive: Bool { true }

  /// Runs the test when no other test holding a turn runs.
  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // Suites get their scope too; only test cases take a turn.
    guard testCase != nil else { return try await function() }
    try await CLITurns.shared.acquire()
    defer { Task { await CLITurns.shared.release() } }
    try await function()
  }
}

extension Trait where Self == CLITurnTrait {
  /// One `sociallogin` child process talking to this process's servers at a time: see
  /// ``CLITurnTrait``.
  public static var oneCLIAtATime: Self { Self() }
}

/// The turns: one holder, the others waiting in arrival order.
actor CLITurns {
  static let shared = CLITurns()

  private var held = false
  private var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  private var nextID = 0

  func acquire() async throws {
    guard held else {
      held = true
      return
    }
    let id = nextID
    nextID += 1
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          waiters.append((id, continuation))
        }
      }
    } onCancel: {
      Task { await self.cancel(id) }
    }
  }

  func release() {
    guard !waiters.isEmpty else {
      held = false
      return
    }
    waiters.removeFirst().continuation.resume()
  }

  private func cancel(_ id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: CancellationError())
  }
}
