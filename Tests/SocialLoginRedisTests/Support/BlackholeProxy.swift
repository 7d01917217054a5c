import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP proxy in front of a real server that can stop forwarding in both directions
/// without closing anything (``blackhole()``): to the client the link looks like one whose
/// peer vanished — no FIN, no RST, no answer — which is what a liveness check must detect, and
/// what cannot otherwise be staged without root (packet filters) on loopback.
final class BlackholeProxy: Sendable {
  /// The port the proxy listens on (127.0.0.1).
  let port: UInt16
  private let target: UInt16
  private let state = Mutex(State())

  private struct State {
    var blackholed = false
    var stopped = false
    var threads = 0
  }

  init(target: UInt16) throws {
    self.target = target
    let listener = socket(AF_INET, Self.streamType, 0)
    guard listener >= 0 else { throw RedisTestError("proxy: socket() failed") }
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      _ = close(listener)
      throw RedisTestError("proxy: bind/listen failed")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    port = UInt16(bigEndian: address.sin_port)
    state.withLock { $0.threads += 1 }
    Thread { [self] in acceptLoop(listener) }.start()
  }

  /// Stops forwarding on every connection, open or future, without closing any.
  func blackhole() { state.withLock { $0.blackholed = true } }

  /// Forwards again (connections opened from now on, and the silent ones, which then deliver
  /// what was held back).
  func resume() { state.withLock { $0.blackholed = false } }

  /// Closes every connection and the listener; waits (at most 5 s) for the threads to end.
  func stop() {
    state.withLock { $0.stopped = true }
    let deadline = ContinuousClock.now + .seconds(5)
    while state.withLock({ $0.threads }) > 0, ContinuousClock.now < deadline {
      var none = pollfd(fd: -1, events: 0, revents: 0)
      _ = poll(&none, 1, 10)
    }
  }

  private var stopped: Bool { state.withLock { $0.stopped } }
  private var blackholed: Bool { state.withLock { $0.blackholed } }

  private func acceptLoop(_ listener: Int32) {
    defer {
      _ = close(listener)
      state.withLock { $0.threads -= 1 }
    }
    while !stopped {
      var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 20) > 0 else { continue }
      let client = accept(listener, nil, nil)
      guard client >= 0 else { continue }
      let server = socket(AF_INET, Self.streamType, 0)
      var address = Self.loopback(port: target)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard server >= 0, connected == 0 else {
        _ = close(client)
        if server >= 0 { _ = close(server) }
        continue
      }
      state.withLock { $0.threads += 1 }
      Thread { [self] in pump(client, server) }.start()
    }
  }

  /// Copies bytes both ways until either side closes or the proxy stops; while blackholed it
  /// reads nothing (what is sent stays in the kernel's buffers, unanswered).
  private func pump(_ a: Int32, _ b: Int32) {
    defer {
      _ = close(a)
      _ = close(b)
      state.withLock { $0.threads -= 1 }
    }
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while !stopped {
      if blackholed {
        var none = pollfd(fd: -1, events: 0, revents: 0)
        _ = poll(&none, 1, 20)
        continue
      }
      var descriptors = [
        pollfd(fd: a, events: Int16(POLLIN), revents: 0),
        pollfd(fd: b, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&descriptors, 2, 20) > 0 else { continue }
      for (from, to) in [(0, b), (1, a)] where descriptors[from].revents != 0 {
        let count = read(descriptors[from].fd, &buffer, buffer.count)
        guard count > 0 else { return }
        var offset = 0
        while offset < count {
          let written = buffer.withUnsafeBytes { raw in
            send(to, raw.baseAddress.map { $0 + offset }, count - offset, Int32(MSG_NOSIGNAL))
          }
          guard written > 0 else { return }
          offset += written
        }
      }
    }
  }

  private static let streamType = Int32(SOCK_STREAM.rawValue)

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
