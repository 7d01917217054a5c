import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What `/proc` says about a process, for the tests of `RedisTestServer`'s lifetime.
enum ProcessProbe {
  /// The process's command name (`redis-server`), or `nil` when it is gone.
  static func command(_ pid: Int32) -> String? {
    (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether the process no longer runs: gone, or a zombie waiting to be reaped by a parent
  /// that is not this process (init in a container may never reap it).
  static func isDead(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    // `pid (comm) S ...`: the state follows the last parenthesis.
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
  }

  /// Whether no process has this id at all (reaped: no zombie left).
  static func isReaped(_ pid: Int32) -> Bool {
    kill(pid, 0) != 0 && errno == ESRCH
  }

  /// The process's blocked-signal mask (`SigBlk` in `/proc/PID/status`), in hex.
  static func blockedSignals(_ pid: Int32) -> String? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
      .map { $0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces) }
  }

  /// Polls `condition` every 10 ms until it holds or `timeout` passed; whether it held.
  static func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws
    -> Bool
  {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }
}

/// A socket listening on 127.0.0.1, so a port is taken for as long as the test holds it.
final class LoopbackListener {
  let fd: Int32
  let port: UInt16

  /// Listens on `port` (`0`: a port the kernel picks).
  init(port: UInt16 = 0) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RedisTestError("socket failed") }
    // As redis-server does: the port's connections in TIME_WAIT must not stop the bind.
    var on: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard listening else {
      close(fd)
      throw RedisTestError("could not listen on 127.0.0.1:\(port): errno \(errno)")
    }
    self.fd = fd
    self.port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(fd) }
}
