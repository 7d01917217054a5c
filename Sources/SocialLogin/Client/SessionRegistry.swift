/// The live sessions of a ``LoginClient``, by key, and the loads of sessions it does not hold
/// yet. A lock, not an actor: lookups are synchronous and never wait behind a refresh.
///
/// A key maps to one actor for that actor's life: a live actor is never replaced (a caller
/// may hold it, and a replaced actor would miss every later change, such as a sign-out
/// everywhere), only one that has signed out.
final class SessionRegistry: Sendable {
  /// One load of a session from the store, shared by every caller that asks for the key
  /// while it runs.
  private struct Load {
    let task: Task<SessionActor?, any Error>
    /// The changes for the key that arrived while the load ran (the record it read may be
    /// older than they are).
    var missed = MissedChanges()
  }

  private struct State {
    var sessions: [SessionKey: SessionActor] = [:]
    var loads: [SessionKey: Load] = [:]
  }

  private let state = Locked(State())

  subscript(key: SessionKey) -> SessionActor? {
    state.withLock { $0.sessions[key] }
  }

  var all: [SessionActor] { state.withLock { Array($0.sessions.values) } }

  var count: Int { state.withLock { $0.sessions.count } }

  /// The live sessions signed in with `provider`.
  func sessions(of provider: ProviderID) -> [SessionActor] {
    state.withLock { state in
      state.sessions.values.filter { $0.key.provider == provider && $0.currentState.isSignedIn }
    }
  }

  /// Registers `session` unless a live actor already holds its key; returns the actor that
  /// holds the key afterwards and whether it is `session`.
  func insert(_ session: SessionActor) -> (holder: SessionActor, inserted: Bool) {
    state.withLock { state in
      if let live = state.sessions[session.key], live.currentState.isSignedIn {
        return (live, false)
      }
      state.sessions[session.key] = session
      return (session, true)
    }
  }

  /// Forgets `session` if it is still the one registered for its key.
  func remove(_ key: SessionKey, ifSignedOutWith state: AuthState) {
    self.state.withLock { registry in
      if let live = registry.sessions[key], live.currentState == state {
        registry.sessions.removeValue(forKey: key)
      }
    }
  }

  /// Where a change the store reported for `key` goes: the actor holding the key, if any;
  /// otherwise a load of the key that is running keeps `change` for the session it registers
  /// (the record it read may be older than the change), and the change goes nowhere else.
  func route(_ change: SessionStoreChange, for key: SessionKey) -> SessionActor? {
    state.withLock { state in
      if let session = state.sessions[key] { return session }
      state.loads[key]?.missed.append(change)
      return nil
    }
  }

  /// Whether the load of `key` running now has missed a change (for tests).
  func loadMissedChange(_ key: SessionKey) -> Bool {
    state.withLock { !($0.loads[key]?.missed.isEmpty ?? true) }
  }

  /// Every load running learns it missed changes it cannot know (the store's feed was cut).
  func loadsMissedChanges() {
    state.withLock { state in
      for key in state.loads.keys { state.loads[key]?.missed.forget() }
    }
  }

  /// Runs `load` for `key` unless one is already running, and returns its result: a thousand
  /// callers asking for a session this client does not hold cost one store read. The load
  /// runs in its own task, so one caller's cancellation never fails the others.
  func load(
    _ key: SessionKey, _ load: @escaping @Sendable () async throws -> SessionActor?
  ) async throws -> SessionActor? {
    let task = state.withLock { state in
      if let running = state.loads[key] { return running.task }
      let task = Task { try await load() }
      state.loads[key] = Load(task: task)
      return task
    }
    return try await task.value
  }

  /// Ends the load of `key` (the task's last step, whatever its outcome): registers
  /// `session` as ``insert(_:)`` does, in the same critical section as the load is
  /// forgotten, so a change is either routed to the holder or recorded as missed.
  func finishLoad(_ key: SessionKey, with session: SessionActor?) -> (
    holder: SessionActor?, inserted: Bool, missed: MissedChanges
  ) {
    state.withLock { state in
      let missed = state.loads.removeValue(forKey: key)?.missed ?? MissedChanges()
      guard let session else { return (state.sessions[key], false, missed) }
      if let live = state.sessions[key], live.currentState.isSignedIn {
        return (live, false, missed)
      }
      state.sessions[key] = session
      return (session, true, missed)
    }
  }
}

/// The changes a load of one session missed while it read the store: handed to the session
/// it registers, in order, as the change feed would have; past a few, or after the feed was
/// cut, only the fact that something was missed (the session then reads the store again).
struct MissedChanges: Sendable {
  /// How many changes are kept before only the fact is.
  static let limit = 8

  private(set) var changes: [SessionStoreChange] = []
  /// Changes were missed that are not in ``changes``.
  private(set) var lostTrack = false

  var isEmpty: Bool { changes.isEmpty && !lostTrack }

  mutating func append(_ change: SessionStoreChange) {
    guard !lostTrack else { return }
    guard changes.count < Self.limit else {
      forget()
      return
    }
    changes.append(change)
  }

  /// Keeps only the fact that changes were missed.
  mutating func forget() {
    lostTrack = true
    changes = []
  }
}
