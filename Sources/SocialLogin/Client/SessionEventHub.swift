import Synchronization

/// Fans every session's state changes out to the client's event streams.
///
/// Like ``StateBroadcaster`` it registers subscribers synchronously under the same lock that
/// publishing takes: a new stream first gets the current state of every live session, then
/// every change, with no gap and no reordering.
final class SessionEventHub: Sendable {
  private struct State {
    var current: [SessionKey: AuthState] = [:]
    var subscribers: [UInt64: AsyncStream<SessionEvent>.Continuation] = [:]
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  func subscribe() -> AsyncStream<SessionEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
    state.withLock { state in
      for (key, value) in state.current.sorted(by: { $0.key < $1.key }) {
        continuation.yield(SessionEvent(key: key, state: value))
      }
      let id = state.nextID
      state.nextID += 1
      state.subscribers[id] = continuation
      continuation.onTermination = { [weak self] _ in self?.remove(id) }
    }
    return stream
  }

  func publish(_ event: SessionEvent) {
    state.withLock { state in
      if case .signedOut = event.state {
        state.current.removeValue(forKey: event.key)
      } else {
        state.current[event.key] = event.state
      }
      for continuation in state.subscribers.values { continuation.yield(event) }
    }
  }

  private func remove(_ id: UInt64) {
    _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
  }
}
