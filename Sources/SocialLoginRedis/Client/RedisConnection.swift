import Dispatch
import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One open, authenticated connection, used by one caller at a time (the pool hands it out
/// exclusively).
///
/// ## Why commands are sent by the caller and read by the connection's thread
/// A pipeline's request is written by the calling task with one non-blocking `send(2)`, which
/// takes it whole unless the socket buffer is full (then the connection's thread writes the
/// rest). The replies are read by the connection's own thread, which idles in `poll(2)` on the
/// socket: the server's answer is what wakes it, so a command costs the socket's wake-up and
/// the task's resumption, and no hand-off to a sleeping thread before it is even sent (that
/// hand-off was half the client's time in `sociallogin-bench replicas-throughput`). Nothing
/// blocks the cooperative pool: the caller only ever makes calls that cannot block.
///
/// `@unchecked Sendable`: the socket's read side (`reader`) belongs to the thread,
/// its write side (`output`) to the one caller holding the connection; what they share is in
/// `shared`, behind its lock. ``execute(_:deadline:)`` is the synchronous form for the
/// handshake and the pub/sub listener, which never start the thread.
final class RedisConnection: @unchecked Sendable {
  /// The plaintext socket or the TLS session over it.
  let stream: any RedisStream
  var fd: Int32 { stream.fd }
  /// The received bytes and the reply being parsed from them, resumed read after read.
  private var reader: RESPReader
  private var output: [UInt8] = []
  /// When this connection last finished a command, for health checks.
  var lastUsed: ContinuousClock.Instant {
    get { shared.withLock { $0.lastUsed } }
    set { shared.withLock { $0.lastUsed = newValue } }
  }
  /// The generation of the master this connection reached (see `RedisConnector`).
  var generation: UInt64 {
    get { shared.withLock { $0.generation } }
    set { shared.withLock { $0.generation = newValue } }
  }
  /// Set once anything went wrong: a broken connection is closed, never reused.
  var isBroken: Bool {
    get { shared.withLock { $0.broken } }
    set { shared.withLock { $0.broken = newValue } }
  }
  private let scratch = UnsafeMutableRawPointer.allocate(
    byteCount: RedisSocket.scratchSize, alignment: 16)
  private let shared = Locked(Shared())

  /// A pipeline in flight.
  private struct Pending: Sendable {
    var expected: Int
    var deadline: ContinuousClock.Instant
    var continuation: CheckedContinuation<[RESPValue], any Error>
    /// Request bytes the socket did not take at once; the thread writes them.
    var unsent: [UInt8] = []
  }

  private struct Shared: Sendable {
    var pending: Pending?
    var lastUsed = ContinuousClock.now
    var broken = false
    var generation: UInt64 = 0
    var threadState = ThreadState.none
    var closed = false
    /// The descriptor's life: `shutdown(2)` happens only under this lock and only before it
    /// is `.closed`, so it can never hit another socket that reused the number.
    var descriptor = DescriptorLife()
    /// The thread's wake-up pipe (read end, write end), once it runs.
    var wake: (read: Int32, write: Int32)?
  }

  private enum ThreadState: Sendable {
    case none
    case running
    /// It ended (the connection broke); whoever closes the connection closes the socket.
    case exited
  }

  /// How long the thread sleeps in `poll` with no pipeline, before it looks at the shared
  /// state again (a pipeline registered just after it looked has its deadline checked then).
  private static let idlePoll: Int32 = 200

  private init(stream: any RedisStream, limits: RESPLimits) {
    self.stream = stream
    reader = RESPReader(limits: limits)
  }

  deinit {
    scratch.deallocate()
  }

  /// Connects, completes the TLS handshake (`rediss://`), authenticates and selects the
  /// database, all before `deadline`. Nothing is sent over a TLS connection before its
  /// handshake, with the certificate and host-name checks, succeeded.
  static func open(_ configuration: RedisConfiguration, deadline: ContinuousClock.Instant)
    throws(RedisError) -> RedisConnection
  {
    let stream = try openStream(configuration, deadline: deadline)
    let connection = RedisConnection(stream: stream, limits: configuration.limits)
    do throws(RedisError) {
      var handshake: [RedisCommand] = []
      if let password = configuration.password {
        var auth = RedisCommand(["AUTH"])
        if let user = configuration.username { auth.arguments.append(Array(user.utf8)) }
        auth.arguments.append(Array(password.revealed.utf8))
        handshake.append(auth)
      }
      if configuration.database != 0 {
        handshake.append(RedisCommand(["SELECT", String(configuration.database)]))
      }
      // PING checks that something speaking RESP answers, and reveals a server that requires
      // a password we do not have (NOAUTH) at connect time rather than on the first command.
      handshake.append(["PING"])
      let replies = try connection.execute(handshake, deadline: deadline)
      for (command, reply) in zip(handshake, replies) {
        guard case .error(let message) = reply else { continue }
        let code = message.split(separator: " ").first.map(String.init) ?? ""
        if command.name == "AUTH" || ["NOAUTH", "WRONGPASS", "NOPERM"].contains(code) {
          throw RedisError(
            .authenticationFailed,
            configuration.password == nil
              ? "Redis requires a password (set it in the URL or "
                + "\(RedisConfiguration.passwordEnvironmentVariable))."
              : "Redis refused the credentials for user "
                + "\"\(configuration.username ?? "default")\".",
            serverMessage: message)
        }
        throw RedisError(
          .server, "Redis refused \(command.name) while connecting.", serverMessage: message)
      }
      return connection
    } catch {
      connection.close()
      throw error
    }
  }

  /// The socket, wrapped in a TLS session after a successful handshake when the
  /// configuration has ``RedisConfiguration/tls``.
  private static func openStream(
    _ configuration: RedisConfiguration, deadline: ContinuousClock.Instant
  ) throws(RedisError) -> any RedisStream {
    guard let tls = configuration.tls else {
      return PlainStream(
        fd: try RedisSocket.connect(to: configuration.endpoint, deadline: deadline))
    }
    guard case .tcp = configuration.endpoint else {
      throw RedisError(.configuration, "TLS needs a TCP endpoint (rediss://host:port).")
    }
    // Before connecting: a missing OpenSSL or an unreadable CA file fails without a socket.
    let context = try TLSContext.shared(for: tls)
    let fd = try RedisSocket.connect(to: configuration.endpoint, deadline: deadline)
    return try TLSSession.connect(
      fd: fd, context: context, serverName: tls.serverName,
      endpoint: configuration.endpoint.description, deadline: deadline)
  }

  // MARK: - Asynchronous pipelines (the pool's path)

  /// Sends `commands` in one write and returns one reply per command, in order, within
  /// `timeout`. Cancelling the task breaks the connection, which ends the call at once with
  /// `connectionLost`.
  func run(_ commands: [RedisCommand], timeout: Duration) async throws -> [RESPValue] {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        submit(commands, deadline: .now + timeout, continuation)
      }
    } onCancel: {
      abort()
    }
  }

  private func submit(
    _ commands: [RedisCommand], deadline: ContinuousClock.Instant,
    _ continuation: CheckedContinuation<[RESPValue], any Error>
  ) {
    output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
    for command in commands { RESPEncoder.append(command, to: &output) }
    let pending = Pending(expected: commands.count, deadline: deadline, continuation: continuation)
    let refused = shared.withLock { shared -> RedisError? in
      if shared.closed || shared.broken || shared.threadState == .exited {
        return RedisError(.connectionLost, "The connection to Redis is closed.")
      }
      shared.pending = pending
      return nil
    }
    if let refused {
      continuation.resume(throwing: refused)
      return
    }
    guard startThreadIfNeeded() else {
      fail(RedisError(.connectionFailed, "Could not start the connection's reader."))
      return
    }
    switch stream.sendAvailable(output) {
    case .sent(let count) where count == output.count:
      break
    case .sent(let count):
      // The socket buffer is full (a large pipeline): the thread writes the rest.
      let rest = Array(output[count...])
      shared.withLock { $0.pending?.unsent = rest }
      wakeThread()
    case .failed:
      fail(RedisError(.connectionLost, "The connection to Redis broke while sending."))
    }
  }

  /// Fails the pipeline in flight (if any) and marks the connection broken.
  private func fail(_ error: RedisError) {
    let continuation = shared.withLock { shared -> CheckedContinuation<[RESPValue], any Error>? in
      shared.broken = true
      defer { shared.pending = nil }
      return shared.pending?.continuation
    }
    continuation?.resume(throwing: error)
  }

  private func startThreadIfNeeded() -> Bool {
    let start = shared.withLock { shared -> Bool in
      guard shared.threadState == .none else { return false }
      shared.threadState = .running
      return true
    }
    guard start else { return true }
    guard let wake = RedisSocket.makeWakePipe() else {
      shared.withLock { $0.threadState = .exited }
      return false
    }
    shared.withLock { $0.wake = wake }
    Thread { [self] in serve(wake: wake.read) }.start()
    return true
  }

  private func wakeThread() {
    shared.withLock { shared in
      if let wake = shared.wake { RedisSocket.signalWakePipe(wake.write) }
    }
  }

  /// The thread: waits for the socket (and the wake pipe), writes what the caller could not,
  /// reads and parses replies, and resumes the caller once the last one is in.
  private func serve(wake: Int32) {
    var replies: [RESPValue] = []
    defer { threadExit() }
    while true {
      let snapshot = shared.withLock {
        shared -> (closed: Bool, job: Bool, write: Bool, deadline: ContinuousClock.Instant?) in
        (
          shared.closed, shared.pending != nil, shared.pending?.unsent.isEmpty == false,
          shared.pending?.deadline
        )
      }
      if snapshot.closed { return }
      var events = Int16(POLLIN)
      if snapshot.write { events |= Int16(POLLOUT) }
      var descriptors = [
        pollfd(fd: fd, events: events, revents: 0),
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      ]
      let timeout =
        snapshot.deadline.map { min(RedisSocket.milliseconds(until: $0), Int32.max) }
        ?? Self.idlePoll
      let ready = poll(&descriptors, 2, timeout)
      if ready < 0, errno == EINTR || errno == EAGAIN { continue }
      if descriptors[1].revents != 0 { RedisSocket.drainWakePipe(wake) }
      let socketEvents = ready > 0 ? descriptors[0].revents : 0
      // Looked at again: a pipeline may have been registered while we slept.
      let job = shared.withLock {
        shared -> (deadline: ContinuousClock.Instant, expected: Int, unsent: [UInt8])? in
        guard let pending = shared.pending else { return nil }
        return (pending.deadline, pending.expected, pending.unsent)
      }
      guard let job else {
        if socketEvents != 0 {
          // Readable with nothing asked: the server closed the connection (or talks out of
          // turn). Either way it cannot be used again.
          shared.withLock { $0.broken = true }
          return
        }
        continue
      }
      do throws(RedisError) {
        if !job.unsent.isEmpty, socketEvents & Int16(POLLOUT) != 0 {
          if case .sent(let count) = stream.sendAvailable(job.unsent) {
            shared.withLock { $0.pending?.unsent.removeFirst(count) }
          } else {
            throw RedisError(.connectionLost, "The connection to Redis broke while sending.")
          }
        }
        if socketEvents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          _ = try stream.receiveAvailable(into: &reader.buffer, scratch: scratch)
          while replies.count < job.expected, let value = try nextBufferedValue() {
            replies.append(value)
          }
          if replies.count == job.expected {
            let done = replies
            replies = []
            let continuation = shared.withLock {
              shared -> CheckedContinuation<[RESPValue], any Error>? in
              shared.lastUsed = .now
              defer { shared.pending = nil }
              return shared.pending?.continuation
            }
            continuation?.resume(returning: done)
            continue
          }
        }
        if ContinuousClock.now >= job.deadline {
          throw RedisError(.timedOut, "Redis did not answer in time.")
        }
      } catch {
        fail(error)
        return
      }
    }
  }

  private func threadExit() {
    let closeNow = shared.withLock { shared -> (fd: Bool, wake: (read: Int32, write: Int32)?) in
      shared.threadState = .exited
      shared.broken = true
      let wake = shared.wake
      shared.wake = nil
      return (shared.closed && shared.descriptor.close(), wake)
    }
    if let wake = closeNow.wake {
      _ = closeDescriptor(wake.read)
      _ = closeDescriptor(wake.write)
    }
    if closeNow.fd { stream.close() }
    // A pipeline registered as the thread ended has nobody to read it.
    fail(RedisError(.connectionLost, "The connection to Redis was closed."))
  }

  // MARK: - Synchronous use (handshake, pub/sub listener)

  /// Sends every command in one write, then reads one reply per command, in order, on the
  /// calling thread. Only for connections whose thread never started.
  func execute(_ commands: [RedisCommand], deadline: ContinuousClock.Instant)
    throws(RedisError) -> [RESPValue]
  {
    do throws(RedisError) {
      output.removeAll(keepingCapacity: true)
      for command in commands { RESPEncoder.append(command, to: &output) }
      try stream.sendAll(output, deadline: deadline)
      if output.count > 1 << 20 { output = [] }
      var replies: [RESPValue] = []
      replies.reserveCapacity(commands.count)
      while replies.count < commands.count {
        replies.append(try readValue(deadline: deadline))
      }
      lastUsed = .now
      return replies
    } catch {
      isBroken = true
      throw error
    }
  }

  /// Reads the next complete value (`deadline` `nil`: wait without limit, for pub/sub).
  func readValue(deadline: ContinuousClock.Instant?) throws(RedisError) -> RESPValue {
    while true {
      if let value = try nextBufferedValue() { return value }
      try stream.receive(into: &reader.buffer, scratch: scratch, deadline: deadline)
    }
  }

  /// Reads the next value on a subscribed connection (`SUBSCRIBE` confirmed, RESP2), proving
  /// the link alive as it waits: after `liveness.pingInterval` without a byte from the server
  /// it sends `PING`, and throws ``RedisError/Kind/connectionLost`` when nothing arrives within
  /// `liveness.pingTimeout` after that. PING's own answer (`["pong", ""]` in RESP2 subscribed
  /// mode, `+PONG` otherwise) is consumed here, never returned.
  ///
  /// Without it a link that died silently (no FIN, no RST) would be waited on forever and the
  /// messages it should carry — sign-outs elsewhere — lost without anyone knowing.
  func readMessage(liveness: RedisLiveness) throws(RedisError) -> RESPValue {
    var probing = false
    var deadline = ContinuousClock.now + liveness.pingInterval
    while true {
      let value: RESPValue
      do throws(RedisError) {
        value = try readValue(deadline: deadline)
      } catch let error where error.kind == .timedOut {
        guard !probing else {
          isBroken = true
          throw RedisError(
            .connectionLost, "Redis did not answer PING within \(liveness.pingTimeout).")
        }
        probing = true
        output.removeAll(keepingCapacity: true)
        RESPEncoder.append(["PING"], to: &output)
        deadline = .now + liveness.pingTimeout
        try stream.sendAll(output, deadline: deadline)
        continue
      }
      // Anything from the server proves the link; a PING's answer is not a message.
      probing = false
      deadline = .now + liveness.pingInterval
      if Self.isPong(value) { continue }
      return value
    }
  }

  /// Whether `value` is a PING's answer: `+PONG`, or `["pong", …]` on a subscribed connection.
  static func isPong(_ value: RESPValue) -> Bool {
    if case .simpleString(let text) = value { return text.lowercased() == "pong" }
    guard let parts = value.elements, parts.count <= 2 else { return false }
    return parts.first?.string?.lowercased() == "pong"
  }

  /// The next complete value already received, or `nil`.
  private func nextBufferedValue() throws(RedisError) -> RESPValue? {
    try reader.next()
  }

  /// Whether an idle connection looks usable without a round trip.
  var looksHealthy: Bool {
    let state = shared.withLock { ($0.broken, $0.threadState) }
    guard !state.0, state.1 != .exited else { return false }
    // An idle connection has nothing to read: readable means the server closed it (its
    // thread may not have noticed yet).
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  /// Breaks a command in flight on another thread (it then fails with `connectionLost`).
  ///
  /// Safe to call at any time from any thread, also after ``close()``: the shutdown happens
  /// under the lock that guards the descriptor's life, and not at all once it is closed (the
  /// number may already belong to another socket of the process).
  func abort() {
    shared.withLock { shared in
      if shared.descriptor.shutDown() { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }

  /// Closes the connection: at once when no thread uses the socket, otherwise by the thread
  /// as it ends (so the descriptor is never closed under a `poll` and reused meanwhile).
  func close() {
    let closeNow = shared.withLock { shared -> Bool in
      guard !shared.closed else { return false }
      shared.closed = true
      shared.broken = true
      if shared.threadState != .running { return shared.descriptor.close() }
      // The thread closes the descriptor as it ends, which it cannot do before this lock is
      // released: shut down here, not after.
      if shared.descriptor.shutDown() { _ = shutdown(fd, Int32(SHUT_RDWR)) }
      return false
    }
    if closeNow {
      stream.close()
    } else {
      wakeThread()
    }
  }
}

/// The life of a connection's descriptor — open, shut down, closed — kept under the lock of
/// the connection that owns it. Whoever shuts the socket down or closes it asks first, under
/// that lock: a shutdown is allowed until the close begins, the close happens once.
///
/// Without it, a `shutdown(2)` from another thread (a subscriber being stopped, a connector
/// being closed) could land after the descriptor was closed and its number reused by an
/// unrelated socket of the process, cutting that one instead.
struct DescriptorLife: Sendable, Equatable {
  /// Where the descriptor is in its life.
  enum Phase: Sendable, Equatable {
    case open
    case shutDown
    case closed
  }

  private(set) var phase = Phase.open

  /// Moves to `.shutDown`; `true` when the caller may call `shutdown(2)` now (still under
  /// the lock), `false` once the descriptor is closed (or being closed).
  mutating func shutDown() -> Bool {
    guard phase != .closed else { return false }
    phase = .shutDown
    return true
  }

  /// Moves to `.closed`; `true` exactly once, for the caller that must then close the
  /// descriptor. Nothing may shut it down afterwards.
  mutating func close() -> Bool {
    guard phase != .closed else { return false }
    phase = .closed
    return true
  }
}

/// `close(2)`, named apart from ``RedisConnection/close()``.
func closeDescriptor(_ fd: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.close(fd)
  #elseif canImport(Musl)
    Musl.close(fd)
  #else
    Darwin.close(fd)
  #endif
}
