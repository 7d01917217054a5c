/// The live sessions of a ``LoginClient``, by key. A lock, not an actor: lookups are
/// synchronous and never wait behind a refresh.
final class SessionRegistry: Sendable {
  private let sessions = Locked<[SessionKey: SessionActor]>([:])

  subscript(key: SessionKey) -> SessionActor? {
    sessions.withLock { $0[key] }
  }

  var all: [SessionActor] { sessions.withLock { Array($0.values) } }

  var count: Int { sessions.withLock { $0.count } }

  /// The live sessions signed in with `provider`.
  func sessions(of provider: ProviderID) -> [SessionActor] {
    sessions.withLock { sessions in
      sessions.values.filter { $0.key.provider == provider && $0.currentState.isSignedIn }
    }
  }

  func insert(_ session: SessionActor) {
    sessions.withLock { $0[session.key] = session }
  }

  /// Forgets `session` if it is still the one registered for its key.
  func remove(_ key: SessionKey, ifSignedOutWith state: AuthState) {
    sessions.withLock { sessions in
      if let live = sessions[key], live.currentState == state {
        sessions.removeValue(forKey: key)
      }
    }
  }
}
