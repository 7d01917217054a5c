import Dispatch
import Foundation
import SocialLogin

/// A bounded set of connections to one server, handed out one command (or pipeline) at a time.
///
/// - At most ``RedisConfiguration/maximumConnections`` are open; a caller beyond that waits
///   (until its command deadline) for one to come back.
/// - Before reuse, an idle connection is checked without a round trip (a closed socket is
///   readable) and, when it was idle longer than ``RedisConfiguration/healthCheckInterval``,
///   with `PING`. Broken connections are closed, never reused.
/// - Connecting retries with exponential backoff and jitter; consecutive failures across calls
///   grow the delay, and a success resets it.
/// - Nothing blocks the cooperative pool: a request is written with one non-blocking send,
///   replies are read by each connection's own thread (see `RedisConnection`), connects run on
///   a short-lived thread. Never on Dispatch's width-limited global threads either, where a
///   busy process (other blocking work, many commands in flight) would queue them behind each
///   other until they time out.
final class RedisConnectionPool: Sendable {
  let configuration: RedisConfiguration
  /// Where connections go: the server, or the master the sentinels name.
  let connector: RedisConnector
  private let state = Locked(State())
  /// Only for timers (waiters' deadlines), which never block.
  static let queue = DispatchQueue(label: "SocialLoginRedis.timers")

  private enum Handoff: Sendable {
    case connection(RedisConnection)
    /// A slot freed by a closed connection: the waiter opens its own.
    case slot
  }

  private struct Waiter {
    var id: UInt64
    var continuation: CheckedContinuation<Handoff, any Error>
  }

  private struct State {
    var idle: [RedisConnection] = []
    var open = 0
    var waiters: [Waiter] = []
    var nextWaiterID: UInt64 = 0
    var closed = false
  }

  init(configuration: RedisConfiguration) {
    self.configuration = configuration
    connector = RedisConnector(configuration: configuration)
    connector.onSwitch { [weak self] generation in self?.closeIdle(olderThan: generation) }
  }

  /// Runs `commands` on one connection and returns their replies in order.
  func execute(_ commands: [RedisCommand], timeout: Duration? = nil) async throws -> [RESPValue] {
    let timeout = timeout ?? configuration.commandTimeout
    let deadline = ContinuousClock.now + timeout
    var refusals = 0
    while true {
      let connection = try await checkOut(deadline: deadline)
      let replies: [RESPValue]
      do {
        replies = try await connection.run(
          commands,
          timeout: refusals > 0 ? ContinuousClock.now.duration(to: deadline) : timeout)
      } catch {
        discard(connection)
        throw error
      }
      // During a failover the old master refuses writes (READONLY once demoted, NOREPLICAS
      // while cut off from its replicas), and a refused pipeline wrote nothing: ask the
      // sentinels again and send it to the master they name, with backoff, until the deadline.
      if connector.isFollowing, replies.contains(where: SentinelReplies.refusesWrites) {
        connector.invalidate(connection.generation)
        discard(connection)
        let delay = configuration.reconnectBackoff.delay(attempt: refusals)
        refusals += 1
        guard ContinuousClock.now + delay < deadline else { return replies }
        try await Task.sleep(for: delay)
        continue
      }
      checkIn(connection)
      return replies
    }
  }

  /// The master changed: idle connections to the old one are closed now.
  private func closeIdle(olderThan generation: UInt64) {
    let stale = state.withLock { state -> [RedisConnection] in
      let stale = state.idle.filter { $0.generation != generation }
      state.idle.removeAll { $0.generation != generation }
      return stale
    }
    for connection in stale { discard(connection) }
  }

  /// Closes idle connections and refuses new commands. Commands in flight finish.
  func close() {
    connector.close()
    let (idle, waiters) = state.withLock { state in
      state.closed = true
      defer {
        state.idle = []
        state.waiters = []
      }
      return (state.idle, state.waiters)
    }
    for connection in idle { connection.close() }
    for waiter in waiters {
      waiter.continuation.resume(throwing: RedisError(.closed, "The Redis client was closed."))
    }
  }

  private func checkOut(deadline: ContinuousClock.Instant) async throws -> RedisConnection {
    while true {
      try Task.checkCancellation()
      enum Next {
        case reuse(RedisConnection)
        case connect
        case wait
        case closed
      }
      let next = state.withLock { state -> Next in
        if state.closed { return .closed }
        if let connection = state.idle.popLast() { return .reuse(connection) }
        if state.open < configuration.maximumConnections {
          state.open += 1
          return .connect
        }
        return .wait
      }
      switch next {
      case .closed:
        throw RedisError(.closed, "The Redis client was closed.")
      case .reuse(let connection):
        if try await isUsable(connection, deadline: deadline) { return connection }
        discard(connection)
      case .connect:
        return try await connect(deadline: deadline)
      case .wait:
        switch try await waitForHandoff(deadline: deadline) {
        case .connection(let connection):
          if try await isUsable(connection, deadline: deadline) { return connection }
          discard(connection)
        case .slot:
          return try await connect(deadline: deadline)
        }
      }
    }
  }

  private func isUsable(_ connection: RedisConnection, deadline: ContinuousClock.Instant)
    async throws -> Bool
  {
    guard connection.looksHealthy, connector.isCurrent(connection) else { return false }
    guard connection.lastUsed.duration(to: .now) > configuration.healthCheckInterval else {
      return true
    }
    do {
      let reply = try await connection.run(
        [RedisCommand(["PING"])], timeout: configuration.commandTimeout)
      return reply.first == RESPValue.simpleString("PONG")
    } catch let error as RedisError where error.kind == .connectionLost {
      return false
    }
  }

  /// Opens a connection for a slot this caller holds; gives the slot back on failure.
  ///
  /// The failures in a row are the connector's one count (``SentinelStateMachine``), which
  /// every failed attempt adds to (here or inside a sentinel discovery) and every success
  /// resets; the decisions — wait, give up, try again — are the state machine's.
  private func connect(deadline: ContinuousClock.Instant) async throws -> RedisConnection {
    let configuration = self.configuration
    let connector = self.connector
    var attempt = 0
    while true {
      switch connector.beforeAttempt(deadline: deadline) {
      case .giveUp:
        releaseSlot()
        throw RedisError(
          .connectionFailed, "Redis at \(configuration.endpoint) is unreachable; retrying later.")
      case .retry(let delay) where delay > .zero:
        do {
          try await Task.sleep(for: delay)
        } catch {
          releaseSlot()
          throw error
        }
      case .retry:
        break
      }
      do {
        return try await withCheckedThrowingContinuation {
          (continuation: CheckedContinuation<RedisConnection, any Error>) in
          Thread {
            do {
              let connectDeadline = ContinuousClock.now + configuration.connectTimeout
              continuation.resume(
                returning: try connector.open(deadline: connectDeadline))
            } catch {
              continuation.resume(throwing: error)
            }
          }.start()
        }
      } catch let error as RedisError {
        attempt += 1
        // Wrong credentials, a refused SELECT or a certificate that fails verification do not
        // get better by retrying.
        if !connector.retriesCall(after: error.kind, attempt: attempt) || Task.isCancelled {
          releaseSlot()
          throw error
        }
      }
    }
  }

  private func checkIn(_ connection: RedisConnection) {
    let waiter = state.withLock { state -> Waiter? in
      if !state.waiters.isEmpty { return state.waiters.removeFirst() }
      if state.closed {
        state.open -= 1
        return nil
      }
      state.idle.append(connection)
      return nil
    }
    if let waiter {
      waiter.continuation.resume(returning: Handoff.connection(connection))
    } else if state.withLock({ $0.closed }) {
      connection.close()
    }
  }

  private func discard(_ connection: RedisConnection) {
    connection.close()
    releaseSlot()
  }

  private func releaseSlot() {
    let waiter = state.withLock { state -> Waiter? in
      if !state.waiters.isEmpty { return state.waiters.removeFirst() }
      state.open -= 1
      return nil
    }
    waiter?.continuation.resume(returning: Handoff.slot)
  }

  private func waitForHandoff(deadline: ContinuousClock.Instant) async throws -> Handoff {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiterID += 1
      return state.nextWaiterID
    }
    let timeout = ContinuousClock.now.duration(to: deadline)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Decided to wait under an earlier lock: a connection may have come back since.
        // Re-check under the lock that registers the waiter, or that wake-up would be lost.
        let immediate = state.withLock { state -> Result<Handoff, RedisError>? in
          guard !state.closed else {
            return .failure(RedisError(.closed, "The Redis client was closed."))
          }
          if let connection = state.idle.popLast() { return .success(.connection(connection)) }
          if state.open < configuration.maximumConnections {
            state.open += 1
            return .success(.slot)
          }
          state.waiters.append(Waiter(id: id, continuation: continuation))
          return nil
        }
        if let immediate {
          continuation.resume(with: immediate.mapError { $0 as any Error })
          return
        }
        let nanoseconds = max(
          0,
          Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000))
        Self.queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
          resumeWaiter(
            id,
            throwing: RedisError(
              .timedOut, "Every Redis connection stayed busy until the command timeout."))
        }
      }
    } onCancel: {
      resumeWaiter(id, throwing: CancellationError())
    }
  }

  private func resumeWaiter(_ id: UInt64, throwing error: any Error) {
    let waiter = state.withLock { state -> Waiter? in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiters.remove(at: index)
    }
    waiter?.continuation.resume(throwing: error)
  }
}
