import Foundation
import SocialLogin

/// Opens connections to where the data is: the configured server, or — with
/// ``RedisConfiguration/sentinel`` — the master the sentinels name, checked with `ROLE`.
///
/// Shared by a client's pool, a store's lease subscriber and its lease renewer, so all of them
/// follow the same master. Every connection it opens is stamped with the *generation* of the
/// master it reached; the generation changes when the master does (a `+switch-master` message,
/// or the sentinels naming another address once a `READONLY` or `NOREPLICAS` reply, or a
/// master that cannot be reached or says it is a replica, sent the client back to them), and a
/// connection of an older generation is never reused. The sentinels naming the same address
/// again changes nothing: a master refusing writes while its replica resynchronises must not
/// cut the subscription (and make every session re-read the store) at each refusal. Without sentinels the generation never
/// changes and this is `RedisConnection.open`.
///
/// Discovery (the Redis Sentinel client protocol): ask the sentinels in turn — the one that
/// answered last first — `SENTINEL get-master-addr-by-name <name>`, connect to the answer,
/// and check `ROLE` says `master`; otherwise forget the answer and ask again, with the
/// configuration's backoff, until the connect deadline. Every reply is untrusted input
/// (``SentinelReplies``).
///
/// The decisions — which master, when to ask the sentinels again, when the generation moves,
/// whether a failed attempt is retried — are ``SentinelStateMachine``'s, held under this
/// type's lock; this type does the I/O they call for (connect, `ROLE`, ask the sentinels,
/// watch `+switch-master`, sleep, tell the listeners).
final class RedisConnector: Sendable {
  let configuration: RedisConfiguration
  let state: Locked<State>

  /// The decisions (``SentinelStateMachine``) and what the I/O needs next to them.
  struct State {
    var machine: SentinelStateMachine
    var listeners: [@Sendable (UInt64) -> Void] = []
    var watchConnection: RedisConnection?
  }

  init(configuration: RedisConfiguration) {
    self.configuration = configuration
    state = Locked(
      State(
        machine: SentinelStateMachine(sentinelCount: configuration.sentinel?.endpoints.count ?? 0))
    )
  }

  /// Whether this connector follows a master through sentinels.
  var isFollowing: Bool { configuration.sentinel != nil }

  /// The current generation (see the type's comment).
  var generation: UInt64 { state.withLock { $0.machine.generation } }

  /// The master in use, if known (sentinel configurations only).
  var master: RedisConfiguration.Endpoint? { state.withLock { $0.machine.master } }

  /// How many times the master changed.
  var switches: Int { state.withLock { $0.machine.switches } }

  /// Whether `connection` reached the current master.
  func isCurrent(_ connection: RedisConnection) -> Bool {
    connection.generation == generation
  }

  /// Calls `listener` (on the thread that noticed) with the new generation whenever the master
  /// changes. Listeners live as long as the connector; capture weakly.
  func onSwitch(_ listener: @escaping @Sendable (UInt64) -> Void) {
    state.withLock { $0.listeners.append(listener) }
  }

  /// Opens an authenticated connection to the server (the current master), before `deadline`.
  func open(deadline: ContinuousClock.Instant) throws(RedisError) -> RedisConnection {
    guard let sentinel = configuration.sentinel else {
      do throws(RedisError) {
        let connection = try RedisConnection.open(configuration, deadline: deadline)
        connection.generation = state.withLock { state in
          state.machine.connected()
          return state.machine.generation
        }
        return connection
      } catch {
        // Counted for the pool's next attempt (``beforeAttempt(deadline:)``); the pool decides
        // whether this call tries again (``retriesCall(after:attempt:)``).
        _ = state.withLock { state in
          state.machine.attemptFailed(
            error.kind, generation: state.machine.generation,
            backoff: configuration.reconnectBackoff, now: .now, deadline: deadline)
        }
        throw error
      }
    }
    startWatching()
    while true {
      let action = state.withLock { $0.machine.connectRequested() }
      var generation: UInt64
      do throws(RedisError) {
        let master: RedisConfiguration.Endpoint
        switch action {
        case .connect(let endpoint, let current):
          (master, generation) = (endpoint, current)
        case .discover(let order, let current):
          generation = current
          (master, generation) = try discover(sentinel, order: order, deadline: deadline)
        }
        let connection = try RedisConnection.open(
          configuration.aimed(at: master), deadline: deadline)
        let role: SentinelReplies.Role
        do throws(RedisError) {
          role = try SentinelReplies.role(
            connection.execute([RedisCommand(["ROLE"])], deadline: deadline)[0])
        } catch {
          connection.close()
          throw error
        }
        let isMaster = state.withLock { [generation] in
          $0.machine.roleAnswered(role, generation: generation, at: .now)
        }
        guard isMaster else {
          connection.close()
          throw RedisError(
            .connectionFailed,
            "The sentinels named \(master) as master \"\(sentinel.masterName)\", but it is a "
              + "\(role); asking again.")
        }
        connection.generation = generation
        state.withLock { $0.machine.connected() }
        return connection
      } catch {
        let next = state.withLock { [generation] in
          $0.machine.attemptFailed(
            error.kind, generation: generation, backoff: configuration.reconnectBackoff,
            now: .now, deadline: deadline)
        }
        switch next {
        case .giveUp: throw error
        case .retry(let delay): Thread.sleep(forTimeInterval: Self.seconds(delay))
        }
      }
    }
  }

  /// What a caller about to open a connection must do first: go ahead, wait out the backoff
  /// of the failures in a row so far (by any caller), or give up before `deadline`
  /// (``SentinelStateMachine/beforeAttempt(backoff:now:deadline:)``).
  func beforeAttempt(deadline: ContinuousClock.Instant) -> SentinelStateMachine.FailureAction {
    state.withLock {
      $0.machine.beforeAttempt(
        backoff: configuration.reconnectBackoff, now: .now, deadline: deadline)
    }
  }

  /// Whether a call that made `attempt` attempts, the last failing with `kind`, may make
  /// another (``SentinelStateMachine/retriesCall(after:attempt:maximumAttempts:)``).
  func retriesCall(after kind: RedisError.Kind, attempt: Int) -> Bool {
    state.withLock {
      $0.machine.retriesCall(
        after: kind, attempt: attempt, maximumAttempts: configuration.connectAttempts)
    }
  }

  /// Asks the sentinels in turn for the master's address.
  private func discover(
    _ sentinel: RedisConfiguration.Sentinel, order: [Int], deadline: ContinuousClock.Instant
  ) throws(RedisError) -> (RedisConfiguration.Endpoint, UInt64) {
    var lastError: RedisError?
    for index in order where sentinel.endpoints.indices.contains(index) {
      let endpoint = sentinel.endpoints[index]
      let sentinelDeadline = min(deadline, ContinuousClock.now + configuration.commandTimeout)
      do throws(RedisError) {
        let connection = try RedisConnection.open(
          configuration.sentinelConnection(to: endpoint, of: sentinel),
          deadline: sentinelDeadline)
        defer { connection.close() }
        let reply = try connection.execute(
          [RedisCommand(["SENTINEL", "get-master-addr-by-name", sentinel.masterName])],
          deadline: sentinelDeadline)[0]
        guard let master = try SentinelReplies.masterAddress(reply) else {
          lastError = RedisError(
            .connectionFailed,
            "The sentinel at \(endpoint) does not know master \"\(sentinel.masterName)\".")
          continue
        }
        // Checked before anything is sent there: the master gets the password.
        try configuration.checkTopologyHost(master, namedBy: "The sentinel at \(endpoint)")
        let adoption = state.withLock { $0.machine.sentinelNamed(master, by: index) }
        announce(adoption)
        return (master, adoption.generation)
      } catch {
        lastError = error
      }
    }
    // Refused credentials or a certificate that fails verification at every sentinel: retrying
    // until the deadline would only hide the reason.
    if let lastError, SentinelStateMachine.permanentKinds.contains(lastError.kind) {
      throw lastError
    }
    throw RedisError(
      .connectionFailed,
      "No sentinel (\(sentinel.endpoints.map(\.description).joined(separator: ", "))) named "
        + "the master \"\(sentinel.masterName)\""
        + (lastError.map { "; the last said: \($0.message)" } ?? "."))
  }

  /// Tells the listeners the generation moved, if it did (outside the lock: they close
  /// connections).
  private func announce(_ adoption: SentinelStateMachine.Adoption) {
    guard adoption.moved else { return }
    let listeners = state.withLock { $0.listeners }
    for listener in listeners { listener(adoption.generation) }
  }

  /// The sentinels announced (or a sentinel answered) `master`: use it from now on, unless
  /// its host is outside ``RedisConfiguration/topologyHosts`` (then the announcement is
  /// ignored: nothing is sent there, and the next connection asks the sentinels again).
  func switchTo(_ master: RedisConfiguration.Endpoint) {
    guard let master = checked(master, namedBy: "A sentinel's +switch-master") else { return }
    announce(state.withLock { $0.machine.switchAnnounced(master) })
  }

  /// The watch's sentinel named `master` on (re)subscribing: taken only while a master is in
  /// use (``SentinelStateMachine/watchAnswered(_:)``), and only inside the allowed hosts.
  func watchAnswered(_ master: RedisConfiguration.Endpoint) {
    guard let master = checked(master, namedBy: "The watched sentinel") else { return }
    if let adoption = state.withLock({ $0.machine.watchAnswered(master) }) { announce(adoption) }
  }

  /// `master`, if its host is inside ``RedisConfiguration/topologyHosts``.
  private func checked(_ master: RedisConfiguration.Endpoint, namedBy source: String)
    -> RedisConfiguration.Endpoint?
  {
    do throws(RedisError) {
      try configuration.checkTopologyHost(master, namedBy: source)
      return master
    } catch {
      return nil
    }
  }

  /// The master of `generation` failed us (unreachable, `READONLY`, `NOREPLICAS`, not a
  /// master): ask the sentinels again before the next connection. The generation changes once
  /// they name another master (``SentinelStateMachine/sentinelNamed(_:by:)``). Does nothing when the master changed
  /// since, or without sentinels.
  func invalidate(_ generation: UInt64) {
    guard isFollowing else { return }
    state.withLock { $0.machine.masterFailed(generation: generation) }
  }

  /// Stops following (the watcher's connection is closed).
  ///
  /// The watcher may close that connection at any moment; `abort()` shuts its socket down
  /// under the connection's own lock, and not at all once it is closed, so a descriptor number
  /// reused meanwhile is never touched.
  func close() {
    let connection = state.withLock { state -> RedisConnection? in
      state.machine.closeRequested()
      return state.watchConnection
    }
    connection?.abort()
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
