import Foundation
import SocialLogin

/// A dedicated connection subscribed to one channel, delivering each message's payload to a
/// handler on its own thread, and reconnecting (with the client's backoff, through
/// ``RedisReconnectLoop``) when it breaks.
///
/// Messages published while it is disconnected are lost (pub/sub has no history), so users of
/// it must also poll; the stores' lease waiters do, with a bounded interval.
///
/// On a Redis Cluster a classic `PUBLISH` reaches the subscribers of every node, so when the
/// URL's node cannot be reached the subscriber listens on another node of the slot map
/// (`alternatives`) instead of going deaf until that one node is back.
final class RedisSubscriber: Sendable {
  let channel: String
  private let connector: RedisConnector
  /// Other nodes that hear the same messages (a cluster's), tried in turn when the
  /// connector's server cannot be reached.
  private let alternatives: @Sendable () -> [RedisConfiguration]
  private var configuration: RedisConfiguration { connector.configuration }
  private let handler: @Sendable ([UInt8]) -> Void
  /// Told `true` each time the subscription is established and `false` each time an
  /// established one is lost, on the listening thread.
  private let onLink: @Sendable (Bool) -> Void
  /// How a silently dropped link is noticed (keepalive and PING bounds).
  private let liveness: RedisLiveness
  private let state = Locked(State())

  private struct State {
    var connection: RedisConnection?
    var subscribed = false
    var stopped = false
    var readyWaiters: [CheckedContinuation<Void, Never>] = []
  }

  init(
    connector: RedisConnector, channel: String,
    alternatives: @escaping @Sendable () -> [RedisConfiguration] = { [] },
    onLink: @escaping @Sendable (Bool) -> Void = { _ in },
    liveness: RedisLiveness = .standard,
    handler: @escaping @Sendable ([UInt8]) -> Void
  ) {
    self.connector = connector
    self.liveness = liveness
    self.alternatives = alternatives
    self.channel = channel
    self.onLink = onLink
    self.handler = handler
  }

  /// Starts the listening thread.
  func start() {
    // A new master: leave the old one (a demoted master still relays what the new one
    // publishes, but a dead one says nothing until the socket times out).
    connector.onSwitch { [weak self] generation in self?.leave(olderThan: generation) }
    let thread = Thread { [self] in run() }
    thread.start()
  }

  /// Whether the subscription is currently established.
  var isSubscribed: Bool { state.withLock { $0.subscribed } }

  /// Waits until subscribed or `timeout` passes (whichever first); never throws.
  func waitUntilSubscribed(timeout: Duration) async {
    let deadline = ContinuousClock.now + timeout
    while !isSubscribed, ContinuousClock.now < deadline, !state.withLock({ $0.stopped }) {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Stops listening and closes the connection.
  ///
  /// The connection may be closed by the listening thread at any moment; its `abort()` shuts
  /// the socket down under the connection's own lock and not at all once it is closed, so a
  /// descriptor number reused meanwhile is never touched.
  func stop() {
    let connection = state.withLock { state -> RedisConnection? in
      state.stopped = true
      return state.connection
    }
    connection?.abort()
  }

  private func leave(olderThan generation: UInt64) {
    let connection = state.withLock { $0.connection }
    if let connection, connection.generation != generation { connection.abort() }
  }

  /// The listening loop (``RedisReconnectLoop``): connect, subscribe, deliver messages until
  /// the link breaks, again with backoff, until stopped.
  private func run() {
    let loop = RedisReconnectLoop(
      backoff: configuration.reconnectBackoff, attemptTimeout: configuration.connectTimeout)
    loop.run(
      isStopped: { state.withLock { $0.stopped } }, onLink: onLink,
      attempt: { turn in
        let connection = try open(deadline: turn.deadline)
        let keep = state.withLock { state -> Bool in
          guard !state.stopped else { return false }
          state.connection = connection
          return true
        }
        guard keep else {
          connection.close()
          return
        }
        liveness.watch(connection)
        defer {
          state.withLock { state in
            state.connection = nil
            state.subscribed = false
          }
          connection.close()
        }
        let reply = try connection.execute(
          RedisCommand(["SUBSCRIBE", channel]).asList, deadline: .now + configuration.commandTimeout
        )
        guard reply.first?.elements?.first?.string?.lowercased() == "subscribe" else {
          throw RedisError(.unexpectedReply, "SUBSCRIBE was not confirmed.")
        }
        state.withLock { $0.subscribed = true }
        turn.established()
        while true {
          let message = try connection.readMessage(liveness: liveness)
          // ["message", channel, payload] (RESP2 array or RESP3 push).
          guard let parts = message.elements, parts.count == 3,
            parts[0].string?.lowercased() == "message", let payload = parts[2].bytes
          else { continue }
          handler(payload)
        }
      })
  }
}

extension RedisSubscriber {
  /// A connection to the connector's server or, when that fails, to the first alternative
  /// that answers; the connector's error when none does.
  fileprivate func open(deadline: ContinuousClock.Instant) throws(RedisError) -> RedisConnection {
    let failure: RedisError
    do {
      return try connector.open(deadline: deadline)
    } catch {
      failure = error
    }
    for node in alternatives() {
      if let connection = try? RedisConnection.open(node, deadline: .now + node.connectTimeout) {
        return connection
      }
    }
    throw failure
  }
}

extension RedisCommand {
  var asList: [RedisCommand] { [self] }
}

/// How a long-lived subscribed connection (the store's subscription, a sentinel's
/// `+switch-master` watch) notices a link that died without FIN or RST — the peer's host
/// vanished, a middlebox dropped the flow — which would otherwise never report anything.
///
/// Two layers: TCP keepalive with short timers and `TCP_USER_TIMEOUT` (the kernel breaks the
/// connection when probes or data go unacknowledged), and an application-level `PING` after
/// ``pingInterval`` of silence, answered within ``pingTimeout`` or the link counts as lost
/// (which also covers a server that is reachable but stalled, and a proxy in between). A
/// lost link is closed, reported (`onLink(false)`, the store's `interrupted`) and
/// re-established. With the standard values a dead link is noticed within
/// `pingInterval + pingTimeout` (6 s) of the last byte received.
struct RedisLiveness: Sendable {
  /// Silence after which the connection sends `PING`.
  var pingInterval: Duration
  /// How long the answer to that `PING` may take.
  var pingTimeout: Duration
  /// TCP keepalive: seconds of silence before the first probe.
  var keepaliveIdle: Int32 = 5
  /// TCP keepalive: seconds between probes.
  var keepaliveInterval: Int32 = 2
  /// TCP keepalive: unanswered probes before the kernel gives up.
  var keepaliveCount: Int32 = 3
  /// `TCP_USER_TIMEOUT`: milliseconds sent data may stay unacknowledged.
  var userTimeout: UInt32 = 10_000

  /// 3 s of silence, then 3 s for the `PING`'s answer; keepalive 5 s / 2 s × 3.
  static let standard = RedisLiveness(pingInterval: .seconds(3), pingTimeout: .seconds(3))

  /// The upper bound on how long a dead link goes unnoticed after the last byte received.
  var bound: Duration { pingInterval + pingTimeout }

  /// Sets the keepalive socket options on `connection`.
  func watch(_ connection: RedisConnection) {
    RedisSocket.enableKeepalive(
      connection.fd, idle: keepaliveIdle, interval: keepaliveInterval, count: keepaliveCount,
      userTimeout: userTimeout)
  }
}
