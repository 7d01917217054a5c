import Synchronization

/// The tasks running the refreshes of a client's sessions, until each has ended (its outcome
/// applied, its lease given back), for ``SessionActor/finishRefreshes()``.
///
/// Kept by the environment the sessions share rather than by each session: an idle session
/// then pays nothing for it (a stored task per session would cost every one of 100,000 idle
/// sessions 16 bytes).
final class RunningFlights: Sendable {
  private struct State {
    var next: UInt64 = 0
    var running: [ObjectIdentifier: [UInt64: Task<Void, Never>]] = [:]
    /// Tasks that ended before they were listed (so they never are).
    var endedEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  /// A number for the next refresh task: list it under it (``list(_:number:of:)``), and the
  /// task calls ``ended(_:of:)`` with it as its last step.
  func reserve() -> UInt64 {
    state.withLock { state in
      defer { state.next += 1 }
      return state.next
    }
  }

  /// Lists `task`, a refresh of `session`, until it ends (unless it ended already).
  func list(_ task: Task<Void, Never>, number: UInt64, of session: ObjectIdentifier) {
    state.withLock { state in
      if state.endedEarly.remove(number) == nil {
        state.running[session, default: [:]][number] = task
      }
    }
  }

  /// The task numbered `number` ended.
  func ended(_ number: UInt64, of session: ObjectIdentifier) { remove(number, of: session) }

  private func remove(_ number: UInt64, of session: ObjectIdentifier) {
    state.withLock { state in
      guard state.running[session]?.removeValue(forKey: number) != nil else {
        state.endedEarly.insert(number)
        return
      }
      if state.running[session]?.isEmpty == true { state.running[session] = nil }
    }
  }

  /// The tasks of `session` running now.
  func tasks(of session: ObjectIdentifier) -> [Task<Void, Never>] {
    state.withLock { Array(($0.running[session] ?? [:]).values) }
  }
}
