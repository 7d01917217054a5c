#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX calls of one client connection: connect (TCP through `getaddrinfo`, or a Unix
/// socket) with a deadline, and the `poll(2)` waits that keep every send and receive (see
/// ``RedisStream``) within its deadline. Descriptors are non-blocking and close-on-exec.
enum RedisSocket {
  #if canImport(Glibc) || canImport(Musl)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
  #endif

  /// Milliseconds from now until `deadline`, at least 0, for `poll`.
  static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
    return Int32(clamping: total)
  }

  /// Waits until `fd` is ready for `events`; `false` on timeout.
  static func wait(_ fd: Int32, events: Int16, deadline: ContinuousClock.Instant)
    throws(RedisError) -> Bool
  {
    while true {
      var descriptor = pollfd(fd: fd, events: events, revents: 0)
      let result = poll(&descriptor, 1, milliseconds(until: deadline))
      if result > 0 { return true }
      if result == 0 { return false }
      if errno == EINTR { continue }
      throw RedisError(.connectionLost, "poll failed (errno \(errno)).")
    }
  }

  static func connect(to endpoint: RedisConfiguration.Endpoint, deadline: ContinuousClock.Instant)
    throws(RedisError) -> Int32
  {
    switch endpoint {
    case .unix(let path): return try connectUnix(path, deadline: deadline)
    case .tcp(let host, let port): return try connectTCP(host, port, deadline: deadline)
    }
  }

  private static func connectTCP(_ host: String, _ port: UInt16, deadline: ContinuousClock.Instant)
    throws(RedisError) -> Int32
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw RedisError(.connectionFailed, "Cannot resolve the Redis host \(host).")
    }
    defer { freeaddrinfo(first) }
    var lastError: RedisError = RedisError(.connectionFailed, "No address for \(host).")
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      entry = current.pointee.ai_next
      guard let address = current.pointee.ai_addr else { continue }
      do {
        let fd = try connectAddress(
          family: current.pointee.ai_family, address: address,
          length: current.pointee.ai_addrlen, deadline: deadline,
          describe: "\(host):\(port)")
        var one: Int32 = 1
        _ = setsockopt(
          fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  private static func connectUnix(_ path: String, deadline: ContinuousClock.Instant)
    throws(RedisError) -> Int32
  {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw RedisError(.configuration, "The Unix socket path is longer than \(capacity - 1) bytes.")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
      raw[bytes.count] = 0
    }
    return try withUnsafePointer(to: &address) { (pointer) throws(RedisError) -> Int32 in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        (raw) throws(RedisError) -> Int32 in
        try connectAddress(
          family: AF_UNIX, address: raw, length: socklen_t(MemoryLayout<sockaddr_un>.size),
          deadline: deadline, describe: path)
      }
    }
  }

  private static func connectAddress(
    family: Int32, address: UnsafePointer<sockaddr>, length: socklen_t,
    deadline: ContinuousClock.Instant, describe: String
  ) throws(RedisError) -> Int32 {
    let fd = socket(family, streamType, 0)
    guard fd >= 0 else { throw RedisError(.connectionFailed, "socket() failed (errno \(errno)).") }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    if posixConnect(fd, address, length) == 0 { return fd }
    let error = errno
    guard error == EINPROGRESS || error == EAGAIN || error == EINTR else {
      close(fd)
      throw RedisError(.connectionFailed, "Cannot connect to \(describe) (errno \(error)).")
    }
    let ready: Bool
    do {
      ready = try wait(fd, events: Int16(POLLOUT), deadline: deadline)
    } catch {
      close(fd)
      throw error
    }
    guard ready else {
      close(fd)
      throw RedisError(.timedOut, "Connecting to \(describe) timed out.")
    }
    var soError: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &size)
    guard soError == 0 else {
      close(fd)
      throw RedisError(.connectionFailed, "Cannot connect to \(describe) (errno \(soError)).")
    }
    return fd
  }

  /// Turns on TCP keepalive with short timers, and a bound on unacknowledged data, for a
  /// connection that may stay silent for hours (a subscription): without them a link whose
  /// peer vanished without FIN or RST (its host lost power, a NAT dropped the mapping) is
  /// never noticed. After `idle` seconds of silence the kernel probes every `interval` seconds
  /// and gives up after `count` unanswered probes; data unacknowledged for `userTimeout`
  /// milliseconds breaks the connection too. Failures are ignored (a Unix socket has no TCP
  /// options; the application-level PING of ``RedisLiveness`` still applies).
  static func enableKeepalive(
    _ fd: Int32, idle: Int32, interval: Int32, count: Int32, userTimeout: UInt32
  ) {
    func set(_ level: Int32, _ name: Int32, _ value: Int32) {
      var value = value
      _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
    set(SOL_SOCKET, SO_KEEPALIVE, 1)
    #if canImport(Glibc) || canImport(Musl)
      set(Int32(IPPROTO_TCP), TCP_KEEPIDLE, idle)
      set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, interval)
      set(Int32(IPPROTO_TCP), TCP_KEEPCNT, count)
      set(Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, Int32(clamping: userTimeout))
    #elseif canImport(Darwin)
      set(Int32(IPPROTO_TCP), TCP_KEEPALIVE, idle)
      set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, interval)
      set(Int32(IPPROTO_TCP), TCP_KEEPCNT, count)
    #endif
  }

  /// A non-blocking, close-on-exec pipe that wakes a thread out of `poll`.
  static func makeWakePipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return (ends[0], ends[1])
  }

  static func signalWakePipe(_ fd: Int32) {
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
  }

  static func drainWakePipe(_ fd: Int32) {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(fd, &bytes, bytes.count) > 0 {}
  }

  /// The size of a connection's receive buffer.
  static let scratchSize = 64 << 10
}

/// `connect(2)`, under a name that the enum's own `connect(to:deadline:)` does not shadow.
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
  -> Int32
{
  connect(fd, address, length)
}
