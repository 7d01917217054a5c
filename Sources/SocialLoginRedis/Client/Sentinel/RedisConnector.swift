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
final class RedisConnector: Sendable {
  let configuration: RedisConfiguration
  let state = Locked(State())

  struct State {
    /// The master in use; `nil`: ask the sentinels.
    var master: RedisConfiguration.Endpoint?
    /// The master in use before the last ``invalidate(_:)``: the generation moves on only when
    /// the sentinels name another one.
    var previous: RedisConfiguration.Endpoint?
    var generation: UInt64 = 1
    /// The sentinel that answered last.
    var preferredSentinel = 0
    /// How many replicas the master had, when that was learnt, and of which generation.
    var replicas: (count: Int, at: ContinuousClock.Instant, generation: UInt64)?
    var listeners: [@Sendable (UInt64) -> Void] = []
    var watching = false
    var watchConnection: RedisConnection?
    var closed = false
    /// How many times the master changed under a live client (for tests and metrics).
    var switches = 0
  }

  init(configuration: RedisConfiguration) {
    self.configuration = configuration
  }

  /// Whether this connector follows a master through sentinels.
  var isFollowing: Bool { configuration.sentinel != nil }

  /// The current generation (see the type's comment).
  var generation: UInt64 { state.withLock { $0.generation } }

  /// The master in use, if known (sentinel configurations only).
  var master: RedisConfiguration.Endpoint? { state.withLock { $0.master } }

  /// How many times the master changed.
  var switches: Int { state.withLock { $0.switches } }

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
      let connection = try RedisConnection.open(configuration, deadline: deadline)
      connection.generation = generation
      return connection
    }
    startWatching()
    var failures = 0
    while true {
      let known = state.withLock { ($0.master, $0.generation) }
      var generation = known.1
      do throws(RedisError) {
        let master: RedisConfiguration.Endpoint
        if let endpoint = known.0 {
          master = endpoint
        } else {
          (master, generation) = try discover(sentinel, deadline: deadline)
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
        guard case .master(let replicas) = role else {
          connection.close()
          throw RedisError(
            .connectionFailed,
            "The sentinels named \(master) as master \"\(sentinel.masterName)\", but it is a "
              + "\(role); asking again.")
        }
        connection.generation = generation
        noteReplicas(replicas, generation: generation)
        return connection
      } catch {
        let permanent = Self.permanentKinds.contains(error.kind)
        invalidate(generation)
        if permanent { throw error }
        let delay = configuration.reconnectBackoff.delay(attempt: failures)
        failures = min(failures + 1, 30)
        if ContinuousClock.now + delay >= deadline || state.withLock({ $0.closed }) {
          throw error
        }
        Thread.sleep(forTimeInterval: Self.seconds(delay))
      }
    }
  }

  /// Errors that asking again cannot cure: thrown at once, with their own kind.
  static let permanentKinds: [RedisError.Kind] = [
    .authenticationFailed, .configuration, .topologyOutsidePattern, .tlsUnavailable,
    .tlsUntrustedCertificate,
    .tlsHostNameMismatch, .tlsCertificateExpired, .tlsClientCertificateRefused,
  ]

  /// Asks the sentinels in turn for the master's address.
  private func discover(_ sentinel: RedisConfiguration.Sentinel, deadline: ContinuousClock.Instant)
    throws(RedisError) -> (RedisConfiguration.Endpoint, UInt64)
  {
    let preferred = state.withLock { $0.preferredSentinel }
    var lastError: RedisError?
    for index in SentinelReplies.order(count: sentinel.endpoints.count, preferred: preferred) {
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
        return adopt(master, sentinel: index)
      } catch {
        lastError = error
      }
    }
    // Refused credentials or a certificate that fails verification at every sentinel: retrying
    // until the deadline would only hide the reason.
    if let lastError, Self.permanentKinds.contains(lastError.kind) { throw lastError }
    throw RedisError(
      .connectionFailed,
      "No sentinel (\(sentinel.endpoints.map(\.description).joined(separator: ", "))) named "
        + "the master \"\(sentinel.masterName)\""
        + (lastError.map { "; the last said: \($0.message)" } ?? "."))
  }

  /// Takes `master` as the one to use, as sentinel `index` said.
  private func adopt(_ master: RedisConfiguration.Endpoint, sentinel index: Int)
    -> (RedisConfiguration.Endpoint, UInt64)
  {
    let (generation, listeners) = state.withLock {
      state -> (UInt64, [@Sendable (UInt64) -> Void]) in
      state.preferredSentinel = index
      let known = state.master ?? state.previous
      state.master = master
      guard let known, known != master else { return (state.generation, []) }
      state.generation += 1
      state.switches += 1
      return (state.generation, state.listeners)
    }
    for listener in listeners { listener(generation) }
    return (master, generation)
  }

  /// The sentinels announced (or a sentinel answered) `master`: use it from now on, unless
  /// its host is outside ``RedisConfiguration/topologyHosts`` (then the announcement is
  /// ignored: nothing is sent there, and the next connection asks the sentinels again).
  func switchTo(_ master: RedisConfiguration.Endpoint) {
    do throws(RedisError) {
      try configuration.checkTopologyHost(master, namedBy: "A sentinel's +switch-master")
    } catch {
      return
    }
    let (generation, listeners) = state.withLock {
      state -> (UInt64, [@Sendable (UInt64) -> Void]) in
      let known = state.master ?? state.previous
      state.master = master
      guard known != master else { return (state.generation, []) }
      state.generation += 1
      state.switches += 1
      return (state.generation, state.listeners)
    }
    for listener in listeners { listener(generation) }
  }

  /// The master of `generation` failed us (unreachable, `READONLY`, `NOREPLICAS`, not a
  /// master): ask the sentinels again before the next connection. The generation changes once
  /// they name another master (``adopt(_:sentinel:)``). Does nothing when the master changed
  /// since, or without sentinels.
  func invalidate(_ generation: UInt64) {
    guard isFollowing else { return }
    state.withLock { state in
      guard state.generation == generation, let master = state.master else { return }
      state.previous = master
      state.master = nil
    }
  }

  /// Stops following (the watcher's connection is closed).
  ///
  /// The watcher may close that connection at any moment; `abort()` shuts its socket down
  /// under the connection's own lock, and not at all once it is closed, so a descriptor number
  /// reused meanwhile is never touched.
  func close() {
    let connection = state.withLock { state -> RedisConnection? in
      state.closed = true
      return state.watchConnection
    }
    connection?.abort()
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
