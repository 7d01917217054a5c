/// One caller waiting for a shared refresh. It can be resolved by the refresh, by its own
/// cancellation, or by its own timeout — whichever comes first — and resumes exactly once.
///
/// Leaving (cancel, timeout) resolves only this waiter: the shared refresh goes on for the
/// others.
final class RefreshWaiter: Sendable {
  private enum State {
    case idle
    case waiting(CheckedContinuation<Credential, any Error>)
    case resolved(Result<Credential, any Error>)
    case done
  }

  private let state = Locked(State.idle)

  /// Suspends until ``resolve(_:)`` is called (possibly already called).
  func wait() async throws -> Credential {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let early = state.withLock { state -> Result<Credential, any Error>? in
          switch state {
          case .idle:
            state = .waiting(continuation)
            return nil
          case .resolved(let result):
            state = .done
            return result
          case .waiting, .done:
            return .failure(CancellationError())
          }
        }
        if let early { continuation.resume(with: early) }
      }
    } onCancel: {
      resolve(.failure(CancellationError()))
    }
  }

  /// Delivers `result` unless the waiter was already resolved.
  func resolve(_ result: Result<Credential, any Error>) {
    let continuation = state.withLock { state -> CheckedContinuation<Credential, any Error>? in
      switch state {
      case .idle:
        state = .resolved(result)
        return nil
      case .waiting(let continuation):
        state = .done
        return continuation
      case .resolved, .done:
        return nil
      }
    }
    continuation?.resume(with: result)
  }
}
