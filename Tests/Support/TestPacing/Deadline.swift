import Dispatch
import Synchronization

/// A wait that did not end by its deadline: the bug it turns into a failure is a hang.
public struct DeadlineExceeded: Error, CustomStringConvertible {
  /// What was being waited for, and for how long.
  public let description: String
}

/// Waits for `body` at most `limit`, then throws ``DeadlineExceeded`` (and cancels `body`).
///
/// A deadline is there to turn a hang into a failure, not to measure speed: give it room for a
/// loaded two-core machine (tens of seconds), and prove "woken by X, not by Y" by making Y
/// slower than the deadline rather than by timing X. The timer is a Dispatch timer, not a
/// `Task.sleep`, so a busy cooperative pool cannot postpone it; and `body` runs in a task of
/// its own, so a body that ignores cancellation cannot hold the caller past the deadline.
public func withDeadline<T: Sendable>(
  _ limit: Duration, _ what: String,
  _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let race = DeadlineRace<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
      race.continuation.withLock { $0 = continuation }
      let (seconds, attoseconds) = limit.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      // Not cancelled when `body` ends first: a late `finish` finds the caller resumed.
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
        race.finish(.failure(DeadlineExceeded(description: "\(what): no end within \(limit)")))
      }
      let task = Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        race.finish(result)
      }
      race.work.withLock { $0 = task }
    }
  } onCancel: {
    race.work.withLock { $0 }?.cancel()
  }
}

/// The two sides of ``withDeadline(_:_:_:)``: whichever ends first resumes the caller.
private final class DeadlineRace<T: Sendable>: Sendable {
  let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)
  let work = Mutex<Task<Void, Never>?>(nil)

  func finish(_ result: Result<T, any Error>) {
    guard let continuation = continuation.withLock({ $0.take() }) else { return }
    continuation.resume(with: result)
    if case .failure(let error) = result, error is DeadlineExceeded {
      work.withLock { $0 }?.cancel()
    }
  }
}
