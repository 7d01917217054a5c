import Foundation
import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An `HTTPTransport` for plain `http://` servers on 127.0.0.1 (a `RotatingTokenServer`, the
/// provider emulator), for benches that measure what happens around a provider call.
///
/// Foundation's `URLSession` on Linux (swift-corelibs-foundation over libcurl, as shipped with
/// Swift 6.3) keeps a dispatch write source armed on the socket while a request waits for its
/// answer; the socket is always writable, so one thread spins a whole core for as long as the
/// provider takes (`strace`: `epoll_wait` → `EPOLLOUT` → `poll(fd, POLLIN, 0)` → re-arm, a
/// thousand times per 0.5 s wait). On a two-core machine running four replicas that spinning
/// core is half the machine. This transport blocks one thread in `recv(2)` instead, so a bench
/// can tell the SDK's own coordination cost from the transport's.
///
/// One request per connection (HTTP/1.1 with `Connection: close`), answers with
/// `Content-Length` or ending at the close; chunked answers and anything but loopback `http`
/// are refused with `AuthError.Code.network`. Not for production: it has no TLS.
public final class LoopbackTransport: HTTPTransport {
  /// The least time a request is given, whatever its own timeout asks.
  public let minimumTimeout: Duration

  /// Creates the transport.
  ///
  /// - Parameter minimumTimeout: The least time any request is given: a suite of tests on a
  ///   loaded two-core machine gives the emulator's answers this long even when the SDK's
  ///   request asks for less (its key-set fetches ask for 10 s). Tests of the SDK's own
  ///   timeouts use a `StubTransport` or leave this at zero, the default.
  public init(minimumTimeout: Duration = .zero) {
    self.minimumTimeout = minimumTimeout
  }

  /// Sends `request` on a connection of its own, on a thread of its own.
  public func send(_ request: TransportRequest) async throws -> TransportResponse {
    try Task.checkCancellation()
    guard request.url.scheme == "http", let host = request.url.host,
      ["127.0.0.1", "localhost"].contains(host), let port = request.url.port,
      let portNumber = UInt16(exactly: port)
    else {
      throw AuthError(.network, "LoopbackTransport only sends http://127.0.0.1:<port> requests.")
    }
    let bytes = Self.encode(request)
    let fd = Locked<Int32>(-1)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        Thread {
          continuation.resume(
            with: Result {
              try Self.exchange(
                port: portNumber, bytes, timeout: max(request.timeout, self.minimumTimeout),
                maxBytes: request.maxResponseBytes, fd: fd)
            })
        }.start()
      }
    } onCancel: {
      fd.withLock { if $0 >= 0 { _ = shutdown($0, Int32(SHUT_RDWR)) } }
    }
  }

  static func encode(_ request: TransportRequest) -> [UInt8] {
    var target = request.url.path.isEmpty ? "/" : request.url.path
    if let query = request.url.query { target += "?" + query }
    var head = "\(request.method) \(target) HTTP/1.1\r\n"
    head += "Host: \(request.url.host ?? "127.0.0.1"):\(request.url.port ?? 80)\r\n"
    head += "Connection: close\r\n"
    for field in request.headers where field.name.lowercased() != "content-length" {
      head += "\(field.name): \(field.value)\r\n"
    }
    if let body = request.body {
      head += "Content-Length: \(body.count)\r\n\r\n"
      return Array(head.utf8) + Array(body)
    }
    return Array((head + "\r\n").utf8)
  }

  private static func exchange(
    port: UInt16, _ bytes: [UInt8], timeout: Duration, maxBytes: Int, fd shared: Locked<Int32>
  ) throws -> TransportResponse {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw AuthError(.network, "LoopbackTransport: no socket.") }
    shared.withLock { $0 = fd }
    defer {
      shared.withLock { $0 = -1 }
      close(fd)
    }
    let deadline = ContinuousClock.now + timeout
    let (seconds, attoseconds) = timeout.components
    var limit = timeval(
      tv_sec: max(0, Int(seconds)), tv_usec: Int(attoseconds / 1_000_000_000_000))
    if limit.tv_sec == 0 && limit.tv_usec == 0 { limit.tv_usec = 1000 }
    var noDelay: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    guard connectToLoopback(fd, port: port, timeout: limit) else {
      throw AuthError(.network, "LoopbackTransport: could not connect to port \(port).")
    }
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { sendBytes(fd, $0) }
      guard count > 0 else { throw AuthError(.network, "LoopbackTransport: the send failed.") }
      sent += count
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    var parsed: (status: Int, headers: HTTPHeaderFields, bodyStart: Int, length: Int?)?
    while true {
      if let head = parsed, let length = head.length, answer.count - head.bodyStart >= length {
        break
      }
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      let failure = count < 0 ? errno : 0
      if failure == EINTR { continue }
      // The socket timeout bounds each wait; the deadline bounds the whole exchange (a server
      // trickling bytes never lets one wait expire).
      if failure == EAGAIN || failure == EWOULDBLOCK || ContinuousClock.now >= deadline {
        throw AuthError(
          .timedOut, "LoopbackTransport: no answer within \(timeout).", answerLost: true)
      }
      if count < 0 {
        throw AuthError(.network, "LoopbackTransport: the connection broke.", answerLost: true)
      }
      if count == 0 { break }
      answer += buffer[..<count]
      if parsed == nil { parsed = try parseHead(answer) }
      if let head = parsed, answer.count - head.bodyStart > maxBytes {
        throw AuthError(
          .responseTooLarge, "LoopbackTransport: the answer exceeds \(maxBytes) bytes.")
      }
    }
    guard let head = parsed else {
      throw AuthError(
        .network, "LoopbackTransport: the server closed without an answer.", answerLost: true)
    }
    var body = answer[head.bodyStart...]
    if let length = head.length {
      guard body.count >= length else {
        throw AuthError(
          .network, "LoopbackTransport: the answer was cut short.", answerLost: true)
      }
      body = body.prefix(length)
    }
    return TransportResponse(status: head.status, headers: head.headers, body: Data(body))
  }

  /// Sets `fd`'s send and receive timeouts to `timeout` and connects it to 127.0.0.1:`port`
  /// (blocking); whether it connected. Shared with the tests' raw-socket client.
  package static func connectToLoopback(_ fd: Int32, port: UInt16, timeout: timeval) -> Bool {
    var limit = timeout
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: in_addr_t(0x7f00_0001).bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return connected == 0
  }

  private static func sendBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
      Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
      Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
    #endif
  }

  /// The status, headers and where the body starts, once the whole head is in; `nil` before.
  package static func parseHead(_ bytes: [UInt8]) throws -> (
    status: Int, headers: HTTPHeaderFields, bodyStart: Int, length: Int?
  )? {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard bytes.count >= 4,
      let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }
      )
    else { return nil }
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ", maxSplits: 2)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."),
      let status = Int(statusParts[1]), (100...599).contains(status)
    else { throw AuthError(.network, "LoopbackTransport: not an HTTP/1.1 answer.") }
    var headers = HTTPHeaderFields()
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        throw AuthError(.network, "LoopbackTransport: a malformed header line.")
      }
      headers[String(line[..<colon])] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    if headers["Transfer-Encoding"] != nil {
      throw AuthError(.network, "LoopbackTransport: chunked answers are not supported.")
    }
    var length: Int?
    if let value = headers["Content-Length"] {
      guard let parsedLength = Int(value), parsedLength >= 0 else {
        throw AuthError(.network, "LoopbackTransport: a malformed Content-Length.")
      }
      length = parsedLength
    }
    return (status, headers, end + 4, length)
  }
}
