/// The fan-out a store uses to implement ``SessionStore/changes()``: each call to
/// ``subscribe()`` gets its own stream, and ``publish(_:)`` delivers a change to every one,
/// in order.
///
/// ```swift
/// let feed = SessionStoreChangeFeed()
/// func changes() -> AsyncStream<SessionStoreChange>? { feed.subscribe() }
/// // after a successful write:
/// feed.publish(.written(stored))
/// ```
public final class SessionStoreChangeFeed: Sendable {
  private let broadcaster = Broadcaster(snapshot: NoReplay())

  /// Creates a feed with no subscribers.
  public init() {}

  /// A new stream of every change published from now on. Ending the loop over it, or
  /// cancelling the task that runs the loop, unsubscribes.
  public func subscribe() -> AsyncStream<SessionStoreChange> { broadcaster.subscribe() }

  /// Delivers `change` to every subscriber.
  public func publish(_ change: SessionStoreChange) { broadcaster.publish(change) }

  /// Whether anyone listens: a store skips decoding changes nobody would read.
  public var hasSubscribers: Bool { broadcaster.subscriberCount > 0 }
}

/// A feed replays nothing: a new subscriber reads the store for the present.
private struct NoReplay: BroadcastSnapshot {
  var replay: [SessionStoreChange] { [] }
  mutating func apply(_ element: SessionStoreChange) {}
}
