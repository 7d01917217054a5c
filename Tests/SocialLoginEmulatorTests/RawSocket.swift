import Foundation
import SocialLoginTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sends raw bytes to 127.0.0.1:port and reads the answer until the server closes, on a
/// thread of its own with socket timeouts, so a fuzz case can neither hang the test nor depend
/// on an HTTP client's quirks.
enum RawSocket {
  /// What came back: the bytes read, and whether reading stopped because the socket timeout
  /// expired (rather than the server closing). A timeout is the test's deadline, not the
  /// server's answer: on a loaded 2-core machine a request can wait seconds for a thread.
  struct Exchange {
    var bytes: [UInt8]
    var timedOut: Bool
  }

  static func exchange(port: UInt16, _ bytes: [UInt8]) async -> [UInt8] {
    await exchange(port: port, bytes, timeoutSeconds: 5).bytes
  }

  static func exchange(port: UInt16, _ bytes: [UInt8], timeoutSeconds: Int) async -> Exchange {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: blockingExchange(port: port, bytes, timeoutSeconds: timeoutSeconds))
      }.start()
    }
  }

  private static func blockingExchange(port: UInt16, _ bytes: [UInt8], timeoutSeconds: Int)
    -> Exchange
  {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return Exchange(bytes: [], timedOut: false) }
    defer { close(fd) }
    guard
      LoopbackTransport.connectToLoopback(
        fd, port: port, timeout: timeval(tv_sec: timeoutSeconds, tv_usec: 0))
    else { return Exchange(bytes: [], timedOut: false) }
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(fd, Int32(SHUT_WR))
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while answer.count < 4_000_000 {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        return Exchange(bytes: answer, timedOut: true)
      }
      if count <= 0 { break }
      answer += buffer[..<count]
    }
    return Exchange(bytes: answer, timedOut: false)
  }

  /// The status code of an HTTP/1.1 answer, or `nil`.
  static func status(_ answer: [UInt8]) -> Int? {
    let head = String(decoding: answer.prefix(32), as: UTF8.self)
    let parts = head.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
    return Int(parts[1])
  }
}
