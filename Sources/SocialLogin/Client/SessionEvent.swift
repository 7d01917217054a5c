/// A state change of one session, as delivered by ``LoginClient/events``.
public struct SessionEvent: Hashable, Sendable {
  /// The session that changed.
  public var key: SessionKey
  /// Its new state.
  public var state: AuthState

  /// Creates an event.
  public init(key: SessionKey, state: AuthState) {
    self.key = key
    self.state = state
  }
}
