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
/// ## Why commands are sent by the caller and read by the process's reader thread
/// A pipeline's request is written by the calling task with one non-blocking `send(2)`, which
/// takes it whole unless the socket buffer is full (then the reader writes the rest). The
/// replies are read by ``RedisPoller``, one thread for every connection of the process, which
/// idles in `poll(2)` on all their sockets: the server's answer is what wakes it, so a command
/// costs the socket's wake-up and the task's resumption, and no hand-off to a sleeping thread
/// before it is even sent (that hand-off was half the client's time in
/// `sociallogin-bench replicas-throughput`); replies that arrive together are collected in one
/// wake-up. Nothing blocks the cooperative pool: the caller only ever makes calls that cannot
/// block.
///
/// `@unchecked Sendable`: the socket's read side (`reader`, `collected`) belongs to the
/// reader thread, its write side (`output`) to the one caller holding the connection; what
/// they share is in `shared`, behind its lock. ``execute(_:deadline:)`` is the synchronous
/// form for the handshake and the pub/sub listener, which never hand the socket to the reader.
final class RedisConnection: @unchecked Sendable {
  /// The plaintext socket or the TLS session over it.
  let stream: any RedisStream
  var fd: Int32 { stream.fd }
  /// The received bytes and the reply being parsed from them, resumed read after read.
  private var reader: RESPReader
  /// Replies of the pipeline in flight read so far (the reader's).
  private var collected: [RESPValue] = []
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
    /// Request bytes the socket did not take at once; the reader writes them.
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
  }

  /// Whether the reader (``RedisPoller``) watches the socket.
  private enum ThreadState: Sendable {
    case none
    case running
    /// It stopped (the connection broke); whoever closes the connection closes the socket.
    case exited
  }

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
      // The socket buffer is full (a large pipeline): the reader writes the rest.
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

  /// Hands the socket to the process's reader (``RedisPoller``) the first time a pipeline
  /// is submitted; `false` when there is none.
  private func startThreadIfNeeded() -> Bool {
    let start = shared.withLock { shared -> Bool in
      guard shared.threadState == .none else { return false }
      shared.threadState = .running
      return true
    }
    guard start else { return true }
    guard let poller = RedisPoller.shared else {
      shared.withLock { $0.threadState = .exited }
      return false
    }
    poller.register(self)
    return true
  }

  /// Tells the reader that there are request bytes to write.
  private func wakeThread() {
    let writing = shared.withLock {
      $0.threadState == .running && $0.pending?.unsent.isEmpty == false
    }
    if writing { RedisPoller.shared?.watch(self, writable: true) }
  }

  /// The poller's handle on this connection (set when it is registered).
  let pollerToken = Locked<UInt64>(0)

  /// The reader's work when the socket is ready (`socketEvents`, `poll(2)` bits; 0 when it
  /// was not): writes what the caller could not, reads and parses replies, and resumes the
  /// caller once the last one is in. `false` when the reader must stop watching the socket
  /// (closed, broken, or readable with nothing asked); then ``readerExit()`` follows.
  func service(socketEvents: Int16) -> Bool {
    let job = shared.withLock {
      shared -> (closed: Bool, deadline: ContinuousClock.Instant, expected: Int, unsent: [UInt8])?
      in
      guard let pending = shared.pending else {
        return shared.closed ? (true, .now, 0, []) : nil
      }
      return (shared.closed, pending.deadline, pending.expected, pending.unsent)
    }
    guard let job else {
      // Readable with nothing asked: the server closed the connection (or talks out of
      // turn). Either way it cannot be used again.
      guard socketEvents == 0 else {
        shared.withLock { $0.broken = true }
        return false
      }
      return true
    }
    if job.closed { return false }
    do throws(RedisError) {
      if !job.unsent.isEmpty, socketEvents & Int16(POLLOUT) != 0 {
        if case .sent(let count) = stream.sendAvailable(job.unsent) {
          let done = shared.withLock { shared -> Bool in
            shared.pending?.unsent.removeFirst(count)
            return shared.pending?.unsent.isEmpty != false
          }
          if done { RedisPoller.shared?.watch(self, writable: false) }
        } else {
          throw RedisError(.connectionLost, "The connection to Redis broke while sending.")
        }
      }
      if socketEvents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        _ = try stream.receiveAvailable(into: &reader.buffer, scratch: scratch)
        while collected.count < job.expected, let value = try nextBufferedValue() {
          collected.append(value)
        }
        if collected.count == job.expected {
          let done = collected
          collected = []
          let continuation = shared.withLock {
            shared -> CheckedContinuation<[RESPValue], any Error>? in
            shared.lastUsed = .now
            defer { shared.pending = nil }
            return shared.pending?.continuation
          }
          continuation?.resume(returning: done)
          return true
        }
      }
      if ContinuousClock.now >= job.deadline {
        throw RedisError(.timedOut, "Redis did not answer in time.")
      }
      return true
    } catch {
      fail(error)
      return false
    }
  }

  /// The reader's periodic look without socket events: `false` once the connection is closed
  /// or its pipeline is past its deadline (which fails it).
  func tick() -> Bool {
    let due = shared.withLock { shared -> Bool? in
      if shared.closed { return nil }
      guard let deadline = shared.pending?.deadline else { return false }
      return ContinuousClock.now >= deadline
    }
    switch due {
    case nil: return false
    case true?:
      fail(RedisError(.timedOut, "Redis did not answer in time."))
      return false
    case false?: return true
    }
  }

  /// The reader stopped watching the socket (the connection broke or was closed).
  func readerExit() {
    let closeNow = shared.withLock { shared -> Bool in
      shared.threadState = .exited
      shared.broken = true
      return shared.closed && shared.descriptor.close()
    }
    if closeNow { stream.close() }
    // A pipeline registered as the reader stopped has nobody to read it.
    fail(RedisError(.connectionLost, "The connection to Redis was closed."))
  }

  // MARK: - Synchronous use (handshake, pub/sub listener)

  /// Sends every command in one write, then reads one reply per command, in order, on the
  /// calling thread. Only for connections never handed to the reader.
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
    // reader may not have noticed yet).
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

  /// Closes the connection: at once when the reader does not watch the socket, otherwise by the
  /// reader as it lets go of it (so the descriptor is never closed under a `poll` and reused
  /// meanwhile).
  func close() {
    let closeNow = shared.withLock { shared -> Bool in
      guard !shared.closed else { return false }
      shared.closed = true
      shared.broken = true
      if shared.threadState != .running { return shared.descriptor.close() }
      // The reader closes the descriptor as it lets go of it, which it cannot do before this
      // lock is released: shut down here, not after (the shutdown is also what tells it).
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

/// The one thread that reads the replies of every connection of the process, waiting on all
/// their sockets at once with one `poll(2)`.
///
/// ## Why one thread for all connections
/// With a reader thread per connection, every reply cost a wake-up of that thread and a
/// switch back out, besides the resumption of the caller's task: on two cores, eight
/// connections sending one command at a time spent most of their time switching threads
/// (`perf`: a third of the samples in the scheduler). One thread collects every reply that
/// arrived while it was busy in one pass, as `redis-benchmark`'s event loop does. The price: a
/// huge reply (up to ``RESPLimits/maximumReplyLength``) being parsed delays the other
/// connections' replies by its parsing time.
///
/// A connection is registered when its first pipeline is submitted and stays until it breaks
/// or is closed; ``RedisConnection/service(socketEvents:)`` does the reading,
/// ``RedisConnection/tick()`` the deadlines (looked at every ``sweepInterval``), and the
/// descriptor leaves the poll set before ``RedisConnection/readerExit()`` may close it (the
/// set is rebuilt from the registry before every `poll`, on this thread).
final class RedisPoller: Sendable {
  /// The process's poller, started on first use; `nil` when its wake-up pipe failed.
  static let shared: RedisPoller? = RedisPoller()
  /// How often deadlines are looked at (and the longest `poll` while any socket is watched),
  /// in milliseconds: a pipeline past its deadline fails at most this much later.
  static let sweepInterval: Int32 = 50
  private let wake: (read: Int32, write: Int32)
  private let registry = Locked(Registry())

  private struct Registry {
    var entries: [UInt64: Entry] = [:]
    var next: UInt64 = 1
    /// A byte is in the wake-up pipe.
    var signalled = false
    /// Jobs of tasks that prefer this thread (``RedisPollerExecutor``), run between polls.
    var jobs: [UnownedJob] = []
  }

  /// This thread as a task executor (see ``RedisPollerExecutor``).
  let executor = RedisPollerExecutor()
  /// The poller thread, once it runs: jobs enqueued from it need no wake-up.
  private let thread = Locked<pthread_t?>(nil)

  private struct Entry {
    let connection: RedisConnection
    var writable = false
  }

  private init?() {
    guard let wake = RedisSocket.makeWakePipe() else { return nil }
    self.wake = wake
    Thread { [self] in run() }.start()
  }

  /// Starts watching `connection`'s socket for replies.
  func register(_ connection: RedisConnection) {
    let token = registry.withLock { registry -> UInt64 in
      let token = registry.next
      registry.next += 1
      registry.entries[token] = Entry(connection: connection)
      return token
    }
    connection.pollerToken.withLock { $0 = token }
    signal()
  }

  /// Watches `connection`'s socket for room to write too (`writable`), or no longer.
  func watch(_ connection: RedisConnection, writable: Bool) {
    let token = connection.pollerToken.withLock { $0 }
    let changed = registry.withLock { registry -> Bool in
      guard registry.entries[token]?.writable == !writable else { return false }
      registry.entries[token]?.writable = writable
      return true
    }
    if changed { signal() }
  }

  /// Queues a job of a task that prefers this thread; it runs after the current poll pass.
  /// Enqueued from the poller thread itself (a reply resuming its caller), that is all it
  /// costs: no wake-up, no other thread.
  func enqueue(_ job: UnownedJob) {
    registry.withLock { $0.jobs.append(job) }
    if !isCurrentThread { signal() }
  }

  /// Whether the caller runs on the poller thread.
  var isCurrentThread: Bool {
    thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
  }

  /// Runs the queued jobs (and those they queue) on this thread; `true` when more came in
  /// than one pass may run, so the next `poll` must not wait.
  private func runJobs(on executor: UnownedTaskExecutor) -> Bool {
    for _ in 0..<64 {
      let jobs = registry.withLock { registry -> [UnownedJob] in
        defer { registry.jobs.removeAll(keepingCapacity: true) }
        return registry.jobs
      }
      if jobs.isEmpty { return false }
      for job in jobs { job.runSynchronously(on: executor) }
    }
    return registry.withLock { !$0.jobs.isEmpty }
  }

  /// Wakes the thread so it rebuilds its poll set.
  private func signal() {
    let write = registry.withLock { registry -> Bool in
      defer { registry.signalled = true }
      return !registry.signalled
    }
    if write { RedisSocket.signalWakePipe(wake.write) }
  }

  private func run() {
    thread.withLock { $0 = pthread_self() }
    let executor = self.executor.asUnownedTaskExecutor()
    var descriptors: [pollfd] = []
    var watched: [(token: UInt64, connection: RedisConnection)] = []
    var lastSweep = ContinuousClock.now
    while true {
      let busy = runJobs(on: executor)
      descriptors.removeAll(keepingCapacity: true)
      watched.removeAll(keepingCapacity: true)
      descriptors.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
      registry.withLock { registry in
        for (token, entry) in registry.entries {
          let events = Int16(POLLIN) | (entry.writable ? Int16(POLLOUT) : 0)
          descriptors.append(pollfd(fd: entry.connection.fd, events: events, revents: 0))
          watched.append((token, entry.connection))
        }
      }
      // Nothing to watch: sleep until a registration's wake-up (no timer while idle).
      let timeout = busy ? 0 : watched.isEmpty ? -1 : Self.sweepInterval
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready > 0, descriptors[0].revents != 0 {
        RedisSocket.drainWakePipe(wake.read)
        registry.withLock { $0.signalled = false }
      }
      if ready > 0 {
        for index in watched.indices where descriptors[index + 1].revents != 0 {
          let (token, connection) = watched[index]
          if !connection.service(socketEvents: descriptors[index + 1].revents) {
            retire(token, connection)
          }
        }
      }
      let now = ContinuousClock.now
      guard now - lastSweep >= .milliseconds(Int(Self.sweepInterval)) else { continue }
      lastSweep = now
      for (token, connection) in watched where !connection.tick() {
        retire(token, connection)
      }
    }
  }

  /// Stops watching (the next poll set leaves it out) and lets the connection end.
  private func retire(_ token: UInt64, _ connection: RedisConnection) {
    let removed = registry.withLock { $0.entries.removeValue(forKey: token) != nil }
    if removed { connection.readerExit() }
  }
}

/// The thread that reads every connection's replies (``RedisPoller``), as a task executor.
///
/// ## Why
/// A caller waiting for a reply is resumed by the poller thread; on the default executor that
/// resumption is a hand-off to another thread (a futex wake-up and a context switch per
/// reply, most of the client's own time in `sociallogin-bench replicas-unpipelined`). A task
/// that prefers this executor (``RedisClient/executor``) is resumed on the poller thread
/// itself, right after its reply was parsed, and its next command is sent from there: one
/// thread does the whole exchange, as `redis-benchmark`'s event loop does.
///
/// The price: while such a task runs, no other reply is read. Only tasks that do little
/// between commands, and never block, should prefer it.
final class RedisPollerExecutor: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    // Only reachable through `RedisPoller.shared.executor`, so the poller exists.
    RedisPoller.shared?.enqueue(UnownedJob(job))
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
