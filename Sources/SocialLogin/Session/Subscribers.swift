/// The open streams of one broadcast, kept inside its owner's lock: a ``Broadcaster`` keeps
/// them beside its snapshot, a ``SessionActor`` beside its cached token (one lock for all that
/// callers outside the actor see of a session).
///
/// Registering, yielding and finishing happen under the owner's lock, so no element can fall
/// between "read the present" and "start receiving changes", and every subscriber sees the
/// publish order.
struct Subscribers<Element: Sendable>: Sendable {
  typealias Continuation = AsyncStream<Element>.Continuation

  private var continuations: [UInt64: Continuation] = [:]
  private var nextID: UInt64 = 0
  /// Set by ``finish()``: later subscribers get the replay and an ended stream.
  private(set) var finished = false

  /// The number of live subscribers (for tests and leak checks).
  var count: Int { continuations.count }

  /// Yields `replay` to `continuation` and registers it; `remove` runs (outside the lock) when
  /// its consumer stops listening. Returns `false` when the broadcast has finished: the caller
  /// then finishes `continuation` outside the lock.
  mutating func subscribe(
    _ continuation: Continuation, replay: [Element],
    remove: @escaping @Sendable (UInt64) -> Void
  ) -> Bool {
    for element in replay { continuation.yield(element) }
    guard !finished else { return false }
    let id = nextID
    nextID += 1
    continuations[id] = continuation
    continuation.onTermination = { _ in remove(id) }
    return true
  }

  /// Forgets the subscriber `id` (its stream ended).
  mutating func remove(_ id: UInt64) {
    continuations.removeValue(forKey: id)
  }

  /// Delivers `element` to every subscriber.
  func yield(_ element: Element) {
    for continuation in continuations.values { continuation.yield(element) }
  }

  /// Delivers `element` as the last one: marks the broadcast finished and hands back the
  /// streams, which the caller finishes outside the lock (finishing runs `onTermination`,
  /// which takes it).
  mutating func finish(with element: Element) -> [Continuation] {
    finished = true
    let all = Array(continuations.values)
    continuations.removeAll()
    for continuation in all { continuation.yield(element) }
    return all
  }
}
