import SocialLogin

/// On a Redis Cluster, one more subscription to the store's channel on each master, so a
/// message reaches this store straight from the master that published it.
///
/// A classic `PUBLISH` reaches every node's subscribers, but the copies other nodes deliver
/// cross the cluster bus, which adds 30–40 ms to some of them (Redis 7.0's bus links send
/// without `TCP_NODELAY`; redis/redis#11869, valkey-io/valkey#1758): a lease waiter
/// subscribed on the URL's node then wakes that much after the leader's write on another
/// master. Listening on every master, each message also arrives without the bus; the store's
/// own subscription stays and still hears everything, so a listener that is down costs only
/// speed. The copies the bus still delivers are handled once (``RedisMessageCopies``).
///
/// The set follows the slot map: ``follow()`` (called on every message, on each subscription
/// and before each lease wait) starts a listener for a new master and stops one for a node
/// that is no longer one, at the cost of one lock and an array comparison when nothing moved.
final class MasterListeners: Sendable {
  /// The client whose slot map is followed (``RedisClient/clusterMasters()``).
  private let client: RedisClient
  private let channel: String
  private let handler: @Sendable ([UInt8]) -> Void
  private let state = Locked(State())

  private struct State {
    var masters: [RedisConfiguration.Endpoint] = []
    var listeners: [RedisConfiguration.Endpoint: RedisSubscriber] = [:]
    var stopped = false
  }

  init(client: RedisClient, channel: String, handler: @escaping @Sendable ([UInt8]) -> Void) {
    self.client = client
    self.channel = channel
    self.handler = handler
  }

  /// The masters listened on (tests).
  var endpoints: Set<RedisConfiguration.Endpoint> {
    state.withLock { Set($0.listeners.keys) }
  }

  /// Whether every listener is subscribed (tests).
  var allSubscribed: Bool {
    state.withLock { Array($0.listeners.values) }.allSatisfy(\.isSubscribed)
  }

  /// Starts and stops listeners so there is one on each master of the current map; does
  /// nothing on a single server or before the cluster is known.
  func follow() {
    let masters = client.clusterMasters()
    guard !masters.isEmpty else { return }
    let (started, stopped) = state.withLock {
      state -> ([RedisSubscriber], [RedisSubscriber]) in
      guard !state.stopped, state.masters != masters else { return ([], []) }
      state.masters = masters
      let wanted = Set(masters)
      var stopped: [RedisSubscriber] = []
      for (endpoint, listener) in state.listeners where !wanted.contains(endpoint) {
        stopped.append(listener)
        state.listeners[endpoint] = nil
      }
      var started: [RedisSubscriber] = []
      for endpoint in masters where state.listeners[endpoint] == nil {
        guard let node = client.clusterNode(endpoint) else { continue }
        let listener = RedisSubscriber(
          connector: RedisConnector(configuration: node), channel: channel, handler: handler)
        state.listeners[endpoint] = listener
        started.append(listener)
      }
      return (started, stopped)
    }
    for listener in stopped { listener.stop() }
    for listener in started { listener.start() }
  }

  /// Stops every listener; ``follow()`` starts none afterwards.
  func stop() {
    let listeners = state.withLock { state -> [RedisSubscriber] in
      state.stopped = true
      defer { state.listeners = [:] }
      return Array(state.listeners.values)
    }
    for listener in listeners { listener.stop() }
  }
}
