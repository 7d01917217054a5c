import Synchronization

/// Holds a current value and hands out streams that replay it and then every change, in order.
///
/// Subscribing is synchronous and takes the same lock as publishing, so no change can fall
/// between "read the current value" and "start receiving changes". Publishing yields to every
/// stream inside the lock, which is what keeps every subscriber's order equal to the publish
/// order. Streams are unbounded: a slow consumer never loses a state.
final class StateBroadcaster<Element: Sendable>: Sendable {
  private struct State {
    var current: Element
    var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
    var nextID: UInt64 = 0
    var finished = false
  }

  private let state: Mutex<State>

  init(_ initial: Element) {
    state = Mutex(State(current: initial))
  }

  /// The latest published value.
  var current: Element { state.withLock { $0.current } }

  /// The number of live subscribers (for tests and leak checks).
  var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  /// A new stream that yields the current value first, then every published value.
  func subscribe() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let registered = state.withLock { state -> Bool in
      continuation.yield(state.current)
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

  /// Makes `value` current and delivers it to every subscriber.
  func publish(_ value: Element) {
    state.withLock { state in
      state.current = value
      for continuation in state.subscribers.values { continuation.yield(value) }
    }
  }

  /// Publishes `value` and ends every stream; later subscribers get `value` and an ended stream.
  func finish(with value: Element) {
    let continuations = state.withLock { state -> [AsyncStream<Element>.Continuation] in
      state.current = value
      state.finished = true
      let all = Array(state.subscribers.values)
      state.subscribers.removeAll()
      for continuation in all { continuation.yield(value) }
      return all
    }
    // `finish()` runs `onTermination`, which takes the lock: call it outside.
    for continuation in continuations { continuation.finish() }
  }

  private func remove(_ id: UInt64) {
    _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
  }
}
