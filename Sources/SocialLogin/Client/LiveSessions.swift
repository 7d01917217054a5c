/// The state of every live session: a new subscriber gets one event per session, in key order.
struct LiveSessions: BroadcastSnapshot {
  var states: [SessionKey: AuthState] = [:]

  var replay: [SessionEvent] {
    states.sorted { $0.key < $1.key }.map { SessionEvent(key: $0.key, state: $0.value) }
  }

  mutating func apply(_ event: SessionEvent) {
    if case .signedOut = event.state {
      states.removeValue(forKey: event.key)
    } else {
      states[event.key] = event.state
    }
  }
}
