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
/// Used for one session's states (``Latest``) and for all sessions' events (``LiveSessions``).
final class Broadcaster<Snapshot: BroadcastSnapshot>: Sendable {
  typealias Element = Snapshot.Element

  private struct State {
    var snapshot: Snapshot
    var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
    var nextID: UInt64 = 0
    var finished = false
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
    let registered = state.withLock { state -> Bool in
      for element in state.snapshot.replay { continuation.yield(element) }
      guard !state.finished else { return false }
      let id = state.nextID
      state.nextID += 1
      state.subscribers[id] = continuation
      continuation.onTermination = { [weak self] _ in self?.remove(id) }
      return true
    }
    if !registered { continuation.finish() }
    return stream
  }

  /// Applies `element` and delivers it to every subscriber.
  func publish(_ element: Element) {
    state.withLock { state in
      state.snapshot.apply(element)
      for continuation in state.subscribers.values { continuation.yield(element) }
    }
  }

  /// Publishes `element` and ends every stream; later subscribers get the replay and an ended
  /// stream.
  func finish(with element: Element) {
    let continuations = state.withLock { state -> [AsyncStream<Element>.Continuation] in
      state.snapshot.apply(element)
      state.finished = true
      let all = Array(state.subscribers.values)
      state.subscribers.removeAll()
      for continuation in all { continuation.yield(element) }
      return all
    }
    // `finish()` runs `onTermination`, which takes the lock: call it outside.
    for continuation in continuations { continuation.finish() }
  }

  private func remove(_ id: UInt64) {
    _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
  }
}
