@testable import SocialLogin

/// The latest value: a new subscriber gets it first.
struct Latest<Element: Sendable>: BroadcastSnapshot {
  var value: Element
  var replay: [Element] { [value] }
  mutating func apply(_ element: Element) { value = element }
}

/// One session's state stream.
typealias StateBroadcaster<Element: Sendable> = Broadcaster<Latest<Element>>

extension Broadcaster {
  /// A broadcaster of states whose present is `initial`.
  convenience init<Value>(_ initial: Value) where Snapshot == Latest<Value> {
    self.init(snapshot: Latest(value: initial))
  }

  /// The latest published state.
  func current<Value>() -> Value where Snapshot == Latest<Value> { snapshot.value }
}
