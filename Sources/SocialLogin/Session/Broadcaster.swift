/// What a ``Broadcaster`` remembers: enough to replay the present to a new subscriber.
protocol BroadcastSnapshot: Sendable {
  associatedtype Element: Sendable
  /// What a new subscriber receives first, before any change.
  var replay: [Element] { get }
  /// Takes `element` into account.
  mutating func apply(_ element: Element)
}

/// Hands out streams that replay the present and then deliver every published element, in order.
///
/// Subscribing is synchronous and takes the same lock as publishing, so no element can fall
/// between "read the present" and "start receiving changes". Publishing yields to every stream
/// inside the lock, which keeps every subscriber's order equal to the publish order. Streams are
/// unbounded unless the subscriber chooses a buffering policy: by default a slow consumer never
/// loses an element. Ending a loop or cancelling the consuming task unsubscribes.
///
/// Used for all sessions' events (``LiveSessions``); a session keeps its own streams beside its
/// cached token (``SessionMirror``), with the same ``Subscribers``.
final class Broadcaster<Snapshot: BroadcastSnapshot>: Sendable {
  typealias Element = Snapshot.Element

  private struct State {
    var snapshot: Snapshot
    var subscribers = Subscribers<Element>()
  }

  private let state: Locked<State>

  init(snapshot: Snapshot) {
    state = Locked(State(snapshot: snapshot))
  }

  /// The present, as remembered.
  var snapshot: Snapshot { state.withLock { $0.snapshot } }

  /// The number of live subscribers (for tests and leak checks).
  var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  /// A new stream: the replay of the present, then every published element, buffered for a
  /// slow consumer as `bufferingPolicy` says.
  func subscribe(
    bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: bufferingPolicy)
    let registered = state.withLock { state in
      state.subscribers.subscribe(continuation, replay: state.snapshot.replay) {
        [weak self] id in self?.remove(id)
      }
    }
    if !registered { continuation.finish() }
    return stream
  }

  /// Applies `element` and delivers it to every subscriber.
  func publish(_ element: Element) {
    state.withLock { state in
      state.snapshot.apply(element)
      state.subscribers.yield(element)
    }
  }

  /// Publishes `element` and ends every stream; later subscribers get the replay and an ended
  /// stream.
  func finish(with element: Element) {
    let continuations = state.withLock { state in
      state.snapshot.apply(element)
      return state.subscribers.finish(with: element)
    }
    for continuation in continuations { continuation.finish() }
  }

  private func remove(_ id: UInt64) {
    state.withLock { $0.subscribers.remove(id) }
  }
}
