import Foundation

/// The part of a session's state that exists only after a failure: tokens waiting to be
/// persisted and the transient-failure backoff. Allocated on first need, dropped on recovery.
final class RecoveryState {
  var unpersisted: Credential?
  var failureCount = 0
  var retryAt: Date?
  var lastTransientError: AuthError?

  var isEmpty: Bool {
    unpersisted == nil && failureCount == 0 && retryAt == nil && lastTransientError == nil
  }
}

extension SessionActor {
  /// Tokens the provider issued that could not be persisted yet. They are not published until
  /// a write succeeds, and they are never thrown away while the session lives.
  var unpersisted: Credential? {
    get { recovery?.unpersisted }
    set {
      updateRecovery { $0.unpersisted = newValue }
      updateFastPath()
    }
  }

  /// Consecutive transient failures (the backoff attempt number).
  var failureCount: Int {
    get { recovery?.failureCount ?? 0 }
    set { updateRecovery { $0.failureCount = newValue } }
  }

  /// When the next attempt is allowed while degraded.
  var retryAt: Date? {
    get { recovery?.retryAt }
    set { updateRecovery { $0.retryAt = newValue } }
  }

  /// The error callers get while degraded and before `retryAt`.
  var lastTransientError: AuthError? {
    get { recovery?.lastTransientError }
    set { updateRecovery { $0.lastTransientError = newValue } }
  }

  private func updateRecovery(_ change: (RecoveryState) -> Void) {
    let state = recovery ?? RecoveryState()
    change(state)
    recovery = state.isEmpty ? nil : state
  }
}
