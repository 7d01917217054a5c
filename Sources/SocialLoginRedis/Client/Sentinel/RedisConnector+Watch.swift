import Foundation
import SocialLogin

extension RedisConnector {
  /// Starts, once, the thread that follows `+switch-master` on a sentinel.
  func startWatching() {
    guard let sentinel = configuration.sentinel else { return }
    let start = state.withLock { $0.machine.watchRequested() }
    guard start else { return }
    Thread { [self] in watch(sentinel) }.start()
  }

  /// The watcher: subscribes to `+switch-master` on one sentinel after asking it for the
  /// master (which catches up on a switch missed while no subscription was up), switches to
  /// each new master announced for our name, and moves to the next sentinel, with backoff,
  /// when its connection breaks (or goes silent: ``RedisLiveness``). A message that is not well
  /// formed is ignored. The reconnecting is ``RedisReconnectLoop``'s.
  private func watch(_ sentinel: RedisConfiguration.Sentinel) {
    guard !sentinel.endpoints.isEmpty else { return }
    let loop = RedisReconnectLoop(
      backoff: configuration.reconnectBackoff, attemptTimeout: configuration.connectTimeout)
    loop.run(
      isStopped: { state.withLock { $0.machine.closed } },
      attempt: { turn in
        // A sentinel that worked is asked again after a break; one that failed, the next.
        let index = state.withLock { $0.machine.watchAttempt() }
        let endpoint = sentinel.endpoints[index]
        let connection = try RedisConnection.open(
          configuration.sentinelConnection(to: endpoint, of: sentinel), deadline: turn.deadline)
        let keep = state.withLock { state -> Bool in
          guard !state.machine.closed else { return false }
          state.watchConnection = connection
          return true
        }
        guard keep else {
          connection.close()
          return
        }
        RedisLiveness.standard.watch(connection)
        defer {
          state.withLock { $0.watchConnection = nil }
          connection.close()
        }
        let replies = try connection.execute(
          [
            RedisCommand(["SENTINEL", "get-master-addr-by-name", sentinel.masterName]),
            RedisCommand(["SUBSCRIBE", "+switch-master"]),
          ], deadline: .now + configuration.commandTimeout)
        guard replies.count == 2,
          replies[1].elements?.first?.string?.lowercased() == "subscribe"
        else {
          throw RedisError(.unexpectedReply, "The sentinel did not confirm SUBSCRIBE.")
        }
        if let master = try SentinelReplies.masterAddress(replies[0]) {
          watchAnswered(master)
        }
        turn.established()
        state.withLock { $0.machine.watchSubscribed(to: index) }
        while true {
          // PINGs the sentinel after a silence: a watch on a vanished sentinel must move to
          // the next one instead of missing every switch from then on.
          let message = try connection.readMessage(liveness: RedisLiveness.standard)
          // ["message", "+switch-master", payload] (RESP2 array or RESP3 push).
          guard let parts = message.elements, parts.count == 3,
            parts[0].string?.lowercased() == "message", let payload = parts[2].bytes
          else { continue }
          if let master = try? SentinelReplies.switchMaster(
            payload, masterName: sentinel.masterName)
          {
            switchTo(master)
          }
        }
      })
  }
}
