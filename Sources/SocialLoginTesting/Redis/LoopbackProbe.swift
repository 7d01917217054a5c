import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loopback TCP for the Redis fixture: a port the kernel hands out, and whether a server on a
/// port answers `PING`.
enum LoopbackProbe {
  /// A port the kernel just handed out (bound to 127.0.0.1, then closed): free unless another
  /// process takes it before the server binds it, which the fixture detects and retries.
  static func freePort() throws(RedisTestServerError) -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw failure("socket") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw failure("bind") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Whether a server on 127.0.0.1:`port` answers an inline `PING` within `timeout`: `+PONG`,
  /// or an error such as `-NOAUTH` from a server with a password, which is up all the same.
  static func answersPing(port: UInt16, timeout: Duration = .seconds(2)) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var limit = timeval(
      tv_sec: Int(timeout.components.seconds),
      tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
    for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
      _ = setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else { return false }
    let ping = Array("PING\r\n".utf8)
    guard send(fd, ping, ping.count, Int32(MSG_NOSIGNAL)) == ping.count else { return false }
    var reply = [UInt8](repeating: 0, count: 64)
    let count = recv(fd, &reply, reply.count, 0)
    return count > 0 && (reply[0] == UInt8(ascii: "+") || reply[0] == UInt8(ascii: "-"))
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    return address
  }

  private static func failure(_ call: String) -> RedisTestServerError {
    RedisTestServerError(
      .spawnFailed, "no free loopback port: \(call) failed: \(String(cString: strerror(errno)))")
  }
}
