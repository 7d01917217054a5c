#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One open, authenticated connection. Used by one thread at a time (the pool hands it out
/// exclusively); only ``abort()`` may be called from another thread, to cancel a command.
///
/// `@unchecked Sendable`: the pool moves a connection between threads but never shares it;
/// the descriptor is only closed by ``close()`` after its last use, and ``abort()`` only calls
/// `shutdown(2)`, which is safe concurrently with a blocked `poll`/`recv`.
final class RedisConnection: @unchecked Sendable {
  let fd: Int32
  private let parser: RESPParser
  private var buffer: [UInt8] = []
  private var readIndex = 0
  private var output: [UInt8] = []
  /// When this connection last finished a command, for health checks.
  var lastUsed = ContinuousClock.now
  /// Set once anything went wrong: a broken connection is closed, never reused.
  var isBroken = false
  private let scratch = UnsafeMutableRawPointer.allocate(
    byteCount: RedisSocket.scratchSize, alignment: 16)

  private init(fd: Int32, limits: RESPLimits) {
    self.fd = fd
    parser = RESPParser(limits: limits)
  }

  deinit {
    scratch.deallocate()
  }

  /// Connects, authenticates and selects the database, all before `deadline`.
  static func open(_ configuration: RedisConfiguration, deadline: ContinuousClock.Instant)
    throws(RedisError) -> RedisConnection
  {
    let fd = try RedisSocket.connect(to: configuration.endpoint, deadline: deadline)
    let connection = RedisConnection(fd: fd, limits: configuration.limits)
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

  /// Sends every command in one write, then reads one reply per command, in order.
  func execute(_ commands: [RedisCommand], deadline: ContinuousClock.Instant)
    throws(RedisError) -> [RESPValue]
  {
    do throws(RedisError) {
      output.removeAll(keepingCapacity: true)
      for command in commands { RESPEncoder.append(command, to: &output) }
      try RedisSocket.sendAll(fd, output, deadline: deadline)
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
      if readIndex < buffer.count, let (value, end) = try parser.parse(buffer, from: readIndex) {
        readIndex = end
        if readIndex == buffer.count {
          buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
          readIndex = 0
        }
        return value
      }
      if readIndex > 0 {
        buffer.removeFirst(readIndex)
        readIndex = 0
      }
      try RedisSocket.receive(fd, into: &buffer, scratch: scratch, deadline: deadline)
    }
  }

  /// Whether an idle connection looks usable without a round trip: an idle connection has
  /// nothing to read, so readable means the server closed it (or sent something unasked).
  var looksHealthy: Bool {
    guard !isBroken else { return false }
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  /// Breaks a command in flight on another thread (it then fails with `connectionLost`).
  func abort() {
    _ = shutdown(fd, Int32(SHUT_RDWR))
  }

  func close() {
    isBroken = true
    _ = SocialLoginRedis.closeDescriptor(fd)
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
