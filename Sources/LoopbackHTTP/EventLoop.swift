#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `poll(2)` loop behind ``LoopbackServer``. Confined to its one thread: not `Sendable`,
/// created and used only inside the thread's closure.
final class EventLoop {
  private enum Phase {
    /// Reading the request, until `deadline` (the absolute read deadline).
    case reading
    /// The handler has the request; no deadline here.
    case awaitingHandler
    /// Writing `output`, until `deadline`.
    case writing
    /// Response sent and write side shut down; discarding input until EOF or `deadline`, so
    /// that closing with unread data does not reset the connection before the client read the
    /// response (a "lingering close").
    case draining
  }

  private struct Connection {
    let fd: Int32
    var parser: HTTPRequestParser
    var phase: Phase = .reading
    var deadline: ContinuousClock.Instant?
    var output: [UInt8] = []
    var written = 0
    var lingerAfterWrite = false
    var sentContinue = false
    var drained = 0
    /// The client shut its side while the handler ran (reported once).
    var peerClosed = false
  }

  private static let lingerLimit = Duration.seconds(1)
  /// `POLLRDHUP`: the peer shut its side down (Linux; `nil` elsewhere).
  #if os(Linux)
    private static let peerClosed: Int16? = 0x2000
  #else
    private static let peerClosed: Int16? = nil
  #endif
  private static let maxDrainBytes = 1 << 20
  private static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  private let listener: Int32
  private let wakeRead: Int32
  private let limits: HTTPLimits
  private let shared: ServerShared
  private let events: AsyncStream<ServerEvent>.Continuation
  private let clock = ContinuousClock()
  private var connections: [UInt64: Connection] = [:]
  private var nextID: UInt64 = 0
  private var acceptPausedUntil: ContinuousClock.Instant?
  private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

  init(
    listener: Int32, wakeRead: Int32, limits: HTTPLimits, shared: ServerShared,
    events: AsyncStream<ServerEvent>.Continuation
  ) {
    self.listener = listener
    self.wakeRead = wakeRead
    self.limits = limits
    self.shared = shared
    self.events = events
  }

  /// Runs until the server is closed (`nil`) or the listener fails. Closes every connection
  /// before returning; the listener and the pipe are closed by the caller.
  func run() -> LoopbackServerError? {
    defer {
      for connection in connections.values { Socket.closeDescriptor(connection.fd) }
      connections = [:]
    }
    let pollIn = Int16(POLLIN)
    let pollOut = Int16(POLLOUT)
    while true {
      let now = clock.now
      expireDeadlines(now: now)
      if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }

      var descriptors = [pollfd(fd: wakeRead, events: pollIn, revents: 0)]
      let accepting = connections.count < max(1, limits.maxConnections) && acceptPausedUntil == nil
      descriptors.append(pollfd(fd: accepting ? listener : -1, events: pollIn, revents: 0))
      var polledIDs: [UInt64] = []
      var earliest = acceptPausedUntil
      for (id, connection) in connections {
        let events: Int16
        switch connection.phase {
        case .reading, .draining: events = pollIn
        case .writing: events = pollOut
        case .awaitingHandler:
          // Watched only for the client closing its side (its handler is then cancelled), once.
          // Without POLLRDHUP (not Linux) a close cannot be told from more data: not watched.
          guard let peerClosed = Self.peerClosed, !connection.peerClosed else { continue }
          events = peerClosed
        }
        polledIDs.append(id)
        descriptors.append(pollfd(fd: connection.fd, events: events, revents: 0))
        if let deadline = connection.deadline {
          earliest = min(earliest ?? deadline, deadline)
        }
      }
      let timeout = earliest.map { Self.milliseconds(from: now, to: $0) } ?? -1

      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready < 0 {
        let error = errno
        if error == EINTR || error == EAGAIN { continue }
        return .pollFailed(errno: error)
      }
      if ready == 0 { continue }

      if descriptors[0].revents != 0 {
        Socket.drain(wakeRead)
        let (closing, responses) = shared.takeResponses()
        if closing { return nil }
        for response in responses {
          startWriting(response.id, bytes: response.bytes, linger: nil)
        }
      }
      if descriptors[1].revents != 0, let failure = acceptConnections() {
        return failure
      }
      for (offset, id) in polledIDs.enumerated() where descriptors[offset + 2].revents != 0 {
        if connections[id]?.phase == .awaitingHandler {
          // The client closed its side while its request was being handled: a killed client
          // (or one that only half-closed, which cannot be told apart) — the handler is told
          // by cancellation and may stop what it does for it. Whatever it still answers is
          // written as usual (a half-closed client reads it; a dead one resets the write).
          connections[id]?.peerClosed = true
          events.yield(.clientGone(id))
        } else {
          service(id)
        }
      }
    }
  }

  // MARK: - Accepting

  private func acceptConnections() -> LoopbackServerError? {
    while connections.count < max(1, limits.maxConnections) {
      switch Socket.acceptConnection(listener) {
      case .connection(let fd, let remoteAddress):
        let id = nextID
        nextID &+= 1
        connections[id] = Connection(
          fd: fd, parser: HTTPRequestParser(limits: limits, remoteAddress: remoteAddress),
          deadline: clock.now.advanced(by: limits.readTimeout))
      case .wouldBlock:
        return nil
      case .retry:
        continue
      case .resourcesExhausted:
        // Out of descriptors: back off instead of spinning on a readable listener.
        acceptPausedUntil = clock.now.advanced(by: .milliseconds(100))
        return nil
      case .failed(let error):
        return .acceptFailed(errno: error)
      }
    }
    return nil
  }

  // MARK: - Connections

  private func service(_ id: UInt64) {
    guard let phase = connections[id]?.phase else { return }
    switch phase {
    case .reading: readRequest(id)
    case .writing: writeOutput(id)
    case .draining: drainInput(id)
    case .awaitingHandler: break
    }
  }

  private func readRequest(_ id: UInt64) {
    while var connection = connections[id], connection.phase == .reading {
      let count = Socket.receive(connection.fd, into: &readBuffer)
      if count == -Int(EINTR) { continue }
      if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) { return }
      guard count > 0 else {
        // The peer closed (or reset) before sending a complete request: nobody to answer.
        closeConnection(id)
        return
      }
      let result = connection.parser.feed(readBuffer[..<count])
      switch result {
      case .needMore:
        if connection.parser.isAwaitingContinue && !connection.sentContinue {
          connection.sentContinue = true
          // Fits in an empty send buffer; a partial write would corrupt the stream.
          if Socket.sendBytes(connection.fd, Self.continueBytes[...]) != Self.continueBytes.count {
            closeConnection(id)
            return
          }
        }
        connections[id] = connection
      case .complete(let request, let leftover):
        connection.phase = .awaitingHandler
        connection.deadline = nil
        connection.lingerAfterWrite = !leftover.isEmpty
        connections[id] = connection
        events.yield(.request(id, request))
        return
      case .error(let error):
        connections[id] = connection
        startWriting(
          id, bytes: HTTPResponse.wireBytes(for: .error(error), method: "GET"), linger: true)
        return
      }
    }
  }

  /// Switches the connection to writing `bytes` and writes what the socket takes right away.
  /// - Parameter linger: Whether to drain input after writing; `nil` keeps the current choice.
  private func startWriting(_ id: UInt64, bytes: [UInt8], linger: Bool?) {
    guard var connection = connections[id] else { return }
    connection.phase = .writing
    connection.output = bytes
    connection.written = 0
    connection.deadline = clock.now.advanced(by: limits.writeTimeout)
    if let linger { connection.lingerAfterWrite = linger }
    connections[id] = connection
    writeOutput(id)
  }

  private func writeOutput(_ id: UInt64) {
    guard var connection = connections[id], connection.phase == .writing else { return }
    while connection.written < connection.output.count {
      let count = Socket.sendBytes(connection.fd, connection.output[connection.written...])
      if count == -Int(EINTR) { continue }
      if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) {
        connections[id] = connection
        return
      }
      guard count > 0 else {
        closeConnection(id)
        return
      }
      connection.written += count
    }
    shared.answered(id)
    guard connection.lingerAfterWrite else {
      closeConnection(id)
      return
    }
    Socket.shutdownWrite(connection.fd)
    connection.phase = .draining
    connection.output = []
    connection.deadline = clock.now.advanced(by: min(Self.lingerLimit, limits.readTimeout))
    connections[id] = connection
    drainInput(id)
  }

  private func drainInput(_ id: UInt64) {
    guard var connection = connections[id], connection.phase == .draining else { return }
    while true {
      let count = Socket.receive(connection.fd, into: &readBuffer)
      if count == -Int(EINTR) { continue }
      if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) {
        connections[id] = connection
        return
      }
      connection.drained += max(count, 0)
      if count <= 0 || connection.drained > Self.maxDrainBytes {
        closeConnection(id)
        return
      }
    }
  }

  private func expireDeadlines(now: ContinuousClock.Instant) {
    for (id, connection) in connections {
      guard let deadline = connection.deadline, deadline <= now else { continue }
      if connection.phase == .reading && connection.parser.hasPartialRequest {
        startWriting(
          id, bytes: HTTPResponse.wireBytes(for: .error(.timedOut), method: "GET"), linger: true)
      } else {
        // Idle connections (browser preconnects) are closed without a response, like nginx.
        closeConnection(id)
      }
    }
  }

  private func closeConnection(_ id: UInt64) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    Socket.closeDescriptor(connection.fd)
    shared.answered(id)
  }

  /// Milliseconds from `now` to `deadline`, rounded up, clamped to `0...Int32.max`.
  static func milliseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant)
    -> Int32
  {
    let remaining = now.duration(to: deadline)
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let total = seconds.multipliedReportingOverflow(by: 1000)
    guard !total.overflow else { return Int32.max }
    let milliseconds = total.partialValue + (attoseconds + perMillisecond - 1) / perMillisecond
    return Int32(clamping: milliseconds)
  }
}
