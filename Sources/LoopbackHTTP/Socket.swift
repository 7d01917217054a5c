#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX socket calls. Every descriptor is close-on-exec (a CLI that
/// launches a browser must not leak its listener into the child) and non-blocking.
package enum Socket {
  #if canImport(Glibc) || canImport(Musl)
    static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
  #endif

  enum AcceptResult {
    case connection(fd: Int32, remoteAddress: String)
    case wouldBlock
    case retry
    case resourcesExhausted
    case failed(errno: Int32)
  }

  /// Calls `body` with the `sockaddr` for `address` (127.0.0.1 or ::1) and `port`, and its
  /// length: the one place that builds loopback addresses, for `bind` here and `connect` in
  /// the package's tests and test peers.
  package static func withSocketAddress<Result>(
    _ address: LoopbackAddress, port: UInt16,
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result {
    switch address {
    case .ipv4:
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = port.bigEndian
      socketAddress.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
      return withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    case .ipv6:
      var socketAddress = sockaddr_in6()
      socketAddress.sin6_family = sa_family_t(AF_INET6)
      socketAddress.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0[15] = 1 }  // ::1
      return withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    }
  }

  /// Creates, binds and starts listening on the loopback socket. Returns it and its port.
  static func makeListener(
    on address: LoopbackAddress, port: UInt16
  ) throws(LoopbackServerError) -> (fd: Int32, port: UInt16) {
    let family = address == .ipv4 ? AF_INET : AF_INET6
    let fd = socket(family, streamType, 0)
    guard fd >= 0 else {
      let error = errno
      if error == EAFNOSUPPORT { throw .addressUnavailable(address) }
      throw .socketFailed(errno: error)
    }
    var succeeded = false
    defer { if !succeeded { closeDescriptor(fd) } }
    #if !(canImport(Glibc) || canImport(Musl))
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #endif
    // SO_REUSEADDR lets a second login bind the same fixed port while the first one's
    // connections sit in TIME_WAIT. On Linux it does not allow two live listeners on one port.
    guard setOption(fd, SOL_SOCKET, SO_REUSEADDR) else { throw .socketFailed(errno: errno) }
    if address == .ipv6 {
      guard setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY) else {
        throw .socketFailed(errno: errno)
      }
    }
    let bound = withSocketAddress(address, port: port) { bind(fd, $0, $1) }
    guard bound == 0 else {
      let error = errno
      switch error {
      case EADDRINUSE: throw .addressInUse(port: port)
      case EADDRNOTAVAIL, EAFNOSUPPORT: throw .addressUnavailable(address)
      case EACCES: throw .permissionDenied(port: port)
      default: throw .bindFailed(errno: error)
      }
    }
    guard listen(fd, SOMAXCONN) == 0 else { throw .listenFailed(errno: errno) }
    guard setNonBlocking(fd) else { throw .socketFailed(errno: errno) }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let named = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw .socketFailed(errno: errno) }
    succeeded = true
    return (fd, describe(storage).port)
  }

  /// A non-blocking, close-on-exec socket pair used as a pipe to wake the event loop (Glibc
  /// does not export `pipe2`; `socketpair` takes the flags atomically).
  static func makeWakePipe() throws(LoopbackServerError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc) || canImport(Musl)
      let type = streamType | Int32(SOCK_NONBLOCK.rawValue)
    #else
      let type = streamType
    #endif
    guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw .socketFailed(errno: errno) }
    #if !(canImport(Glibc) || canImport(Musl))
      for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = setNonBlocking(fd)
      }
    #endif
    return (fds[0], fds[1])
  }

  static func acceptConnection(_ listener: Int32) -> AcceptResult {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let fd = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
    }
    guard fd >= 0 else {
      let error = errno
      switch error {
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      // accept(2) on Linux: already-pending network errors are reported here; retry.
      case EINTR, ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, EHOSTUNREACH,
        EOPNOTSUPP, ENETUNREACH, EPERM:
        return .retry
      case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .resourcesExhausted
      default: return .failed(errno: error)
      }
    }
    // Glibc does not export accept4(2), and accepted sockets inherit neither flag. The short
    // window before FD_CLOEXEC is set only matters if another thread spawns a process in it.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    guard setNonBlocking(fd) else {
      closeDescriptor(fd)
      return .retry
    }
    #if canImport(Darwin)
      _ = setOption(fd, SOL_SOCKET, SO_NOSIGPIPE)
    #endif
    let peer = describe(storage)
    return .connection(fd: fd, remoteAddress: peer.host.isEmpty ? "" : "\(peer.host):\(peer.port)")
  }

  /// Writes once; returns bytes written, or `-errno`.
  static func sendBytes(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
    let written = bytes.withUnsafeBytes { buffer in
      send(fd, buffer.baseAddress, buffer.count, sendFlags)
    }
    return written >= 0 ? written : -Int(errno)
  }

  /// Reads once into `buffer`; returns bytes read (0 at end of stream), or `-errno`.
  static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return count >= 0 ? count : -Int(errno)
  }

  static func shutdownWrite(_ fd: Int32) {
    _ = shutdown(fd, Int32(SHUT_WR))
  }

  /// Closes `fd` once. EINTR is not retried: on Linux the descriptor is already released.
  static func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
  }

  /// Names the calling thread for `ps`, `top` and `/proc/<pid>/task/*/comm`. Linux keeps at
  /// most 15 bytes, so callers keep names short ("loopback:65535"). Foundation's `Thread.name`
  /// does not reach the kernel on Linux, and Glibc's module does not export
  /// `pthread_setname_np`; the kernel's own file for the name is written instead.
  static func nameCurrentThread(_ name: String) {
    #if os(Linux)
      let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { return }
      let bytes = Array(name.utf8.prefix(15))
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
    #elseif canImport(Darwin)
      _ = pthread_setname_np(name)
    #endif
  }

  /// Writes one byte to the wake pipe; a full pipe already guarantees a wake-up.
  static func wake(_ fd: Int32) {
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
  }

  /// Empties the wake pipe.
  static func drain(_ fd: Int32) {
    var buffer = [UInt8](repeating: 0, count: 64)
    while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
  }

  private static func setOption(_ fd: Int32, _ level: Int32, _ option: Int32) -> Bool {
    var one: Int32 = 1
    return setsockopt(fd, level, option, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
  }

  private static func setNonBlocking(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
  }

  /// The numeric host (IPv6 in brackets) and port of an IPv4 or IPv6 socket address.
  private static func describe(_ storage: sockaddr_storage) -> (host: String, port: UInt16) {
    var storage = storage
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
          var raw = address.pointee.sin_addr
          let port = UInt16(bigEndian: address.pointee.sin_port)
          guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else {
            return ("", port)
          }
          return (String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self), port)
        }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
          var raw = address.pointee.sin6_addr
          let port = UInt16(bigEndian: address.pointee.sin6_port)
          guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else {
            return ("", port)
          }
          let host = String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
          return ("[\(host)]", port)
        }
      }
    default:
      return ("", 0)
    }
  }
}
