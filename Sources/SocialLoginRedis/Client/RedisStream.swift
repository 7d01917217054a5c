#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one non-blocking read or write on a ``RedisStream`` did.
enum StreamStep {
  /// This many bytes (more than 0) went through.
  case transferred(Int)
  /// Nothing could go through without waiting; `poll(2)` for these events, then try again.
  /// (A TLS read can need the socket writable, and a TLS write readable.)
  case blocked(events: Int16)
}

/// The byte stream under a ``RedisConnection``: the socket itself (``PlainStream``) or a TLS
/// session over it (``TLSSession``). Everything above it (RESP, pipelines, the connection's
/// thread, pub/sub) is the same for both.
///
/// Both are non-blocking; the waiting (with deadlines) is in the extension, written once.
protocol RedisStream: AnyObject, Sendable {
  /// The socket, for `poll(2)` and `shutdown(2)`.
  var fd: Int32 { get }
  /// Writes some of `bytes` without waiting.
  func write(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> StreamStep
  /// Reads what is available, at most `capacity` bytes, without waiting; throws
  /// ``RedisError/Kind/connectionLost`` when the server closed the stream.
  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(RedisError) -> StreamStep
  /// Whether bytes were already read from the socket and are waiting inside the stream, where
  /// `poll(2)` does not see them.
  var hasBufferedInput: Bool { get }
  /// Releases the stream and closes the socket. Called once, when no thread uses it.
  func close()
}

/// The plaintext stream: `send(2)` and `recv(2)` on the socket.
final class PlainStream: RedisStream {
  let fd: Int32

  init(fd: Int32) { self.fd = fd }

  func write(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> StreamStep {
    while true {
      let written = send(fd, bytes.baseAddress, bytes.count, RedisSocket.sendFlags)
      if written > 0 { return .transferred(written) }
      let error = errno
      if written < 0, error == EINTR { continue }
      if written < 0, error == EAGAIN || error == EWOULDBLOCK {
        return .blocked(events: Int16(POLLOUT))
      }
      throw RedisError(.connectionLost, "The connection to Redis broke while sending.")
    }
  }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(RedisError) -> StreamStep {
    while true {
      let received = recv(fd, buffer, capacity, 0)
      if received > 0 { return .transferred(received) }
      if received == 0 { throw RedisError(.connectionLost, "Redis closed the connection.") }
      let error = errno
      if error == EINTR { continue }
      if error == EAGAIN || error == EWOULDBLOCK { return .blocked(events: Int16(POLLIN)) }
      throw RedisError(.connectionLost, "The connection to Redis broke while receiving.")
    }
  }

  var hasBufferedInput: Bool { false }

  func close() { _ = closeDescriptor(fd) }
}

/// What a non-blocking send managed.
enum SendOutcome {
  /// The offset reached: all of the bytes, or as many as the stream took.
  case sent(Int)
  case failed
}

extension RedisStream {
  /// Writes as much of `bytes` (from `start`) as the stream takes without waiting; `.sent`
  /// carries the offset reached.
  func sendAvailable(_ bytes: [UInt8], from start: Int = 0) -> SendOutcome {
    var offset = start
    while offset < bytes.count {
      let step = bytes.withUnsafeBytes { raw -> StreamStep? in
        try? write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
      }
      switch step {
      case .transferred(let count): offset += count
      case .blocked: return .sent(offset)
      case nil: return .failed
      }
    }
    return .sent(offset)
  }

  /// Writes all of `bytes` before `deadline`: what the stream takes at once, then waits for
  /// room and goes on.
  func sendAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(RedisError) {
    var offset = 0
    while offset < bytes.count {
      let attempt = bytes.withUnsafeBytes { raw -> Result<StreamStep, RedisError> in
        Result { () throws(RedisError) in
          try write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
        }
      }
      switch try attempt.get() {
      case .transferred(let count): offset += count
      case .blocked(let events):
        guard try RedisSocket.wait(fd, events: events, deadline: deadline) else {
          throw RedisError(.timedOut, "Sending to Redis timed out.")
        }
      }
    }
  }

  /// Reads what is available (waiting until `deadline` for something; `nil` waits without
  /// limit, for pub/sub) and appends it, using `scratch` (``RedisSocket/scratchSize`` bytes)
  /// as the receive buffer.
  func receive(
    into buffer: inout [UInt8], scratch: UnsafeMutableRawPointer,
    deadline: ContinuousClock.Instant?
  ) throws(RedisError) {
    while true {
      switch try read(into: scratch, capacity: RedisSocket.scratchSize) {
      case .transferred(let count):
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: count))
        if !hasBufferedInput { return }
      case .blocked(let events):
        if let deadline {
          guard try RedisSocket.wait(fd, events: events, deadline: deadline) else {
            throw RedisError(.timedOut, "Redis did not answer in time.")
          }
        } else {
          var descriptor = pollfd(fd: fd, events: events, revents: 0)
          _ = poll(&descriptor, 1, -1)
        }
      }
    }
  }

  /// Appends what is available without waiting; `false` when nothing was.
  func receiveAvailable(into buffer: inout [UInt8], scratch: UnsafeMutableRawPointer)
    throws(RedisError) -> Bool
  {
    var received = false
    while case .transferred(let count) = try read(into: scratch, capacity: RedisSocket.scratchSize)
    {
      buffer.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: count))
      received = true
      if !hasBufferedInput { break }
    }
    return received
  }
}
