import Foundation
import LoopbackHTTP
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs blocking work on its own thread so tests never block the cooperative pool (2 cores).
func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

/// Starts `server.run(handler)`, runs `body`, then closes the server and waits for `run`.
func withRunningServer(
  _ server: LoopbackServer,
  handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse,
  _ body: (LoopbackServer) async throws -> Void
) async throws {
  let serving = Task { try await server.run(handler) }
  do {
    try await body(server)
  } catch {
    server.close()
    try await serving.value
    throw error
  }
  server.close()
  try await serving.value
}

/// An echo handler: `METHOD path [name=value,...] body`.
@Sendable func echo(_ request: HTTPRequest) async -> HTTPResponse {
  let items = request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
  let body = String(decoding: request.body, as: UTF8.self)
  return .text("\(request.method) \(request.path) [\(items)] \(body)")
}

/// A counter shared with `@Sendable` handlers.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)
  func increment() { value.add(1, ordering: .relaxed) }
  var count: Int { value.load(ordering: .relaxed) }
}

/// A URLSession that never uses a proxy or caches.
let testSession: URLSession = {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.connectionProxyDictionary = [:]
  // Generous: the full test run saturates both cores (thousands of tasks, RSA vectors), and
  // this is a safety net against hangs, not a timing assertion.
  configuration.timeoutIntervalForRequest = 60
  configuration.urlCache = nil
  return URLSession(configuration: configuration)
}()

func fetch(
  _ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
) async throws -> (status: Int, headers: [AnyHashable: Any], body: String) {
  var request = URLRequest(url: try #require(URL(string: url)))
  request.httpMethod = method
  request.httpBody = body
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  let (data, response) = try await testSession.data(for: request)
  let http = try #require(response as? HTTPURLResponse)
  return (http.statusCode, http.allHeaderFields, String(decoding: data, as: UTF8.self))
}

/// A blocking raw TCP client for sending malformed requests.
struct RawClient {
  let fd: Int32

  /// Connects to the loopback address and port; `nil` on failure.
  init?(port: UInt16, address: LoopbackAddress = .ipv4, receiveTimeout: Duration = .seconds(30)) {
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let fd = socket(address == .ipv4 ? AF_INET : AF_INET6, type, 0)
    guard fd >= 0 else { return nil }
    let connected = Socket.withSocketAddress(address, port: port) { connect(fd, $0, $1) }
    guard connected == 0 else {
      _ = Glibc.close(fd)
      return nil
    }
    let (seconds, attoseconds) = receiveTimeout.components
    var timeout = timeval(
      tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    self.fd = fd
  }

  /// Sends all bytes; `false` if the peer is gone.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Whether data (or EOF) is readable within `timeout`.
  func readable(within timeout: Duration) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds =
      Int32(timeout.components.seconds * 1000)
      + Int32(timeout.components.attoseconds / 1_000_000_000_000_000)
    return poll(&descriptor, 1, milliseconds) > 0
  }

  /// Reads until EOF, reset or the receive timeout.
  func readAll() -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return result }
      result += buffer[..<count]
    }
  }

  /// Reads until `marker` appears, EOF or the receive timeout.
  func read(until marker: String) -> String {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1)
    let needle = Array(marker.utf8)
    while !result.ends(with: needle) {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      result.append(buffer[0])
    }
    return String(decoding: result, as: UTF8.self)
  }

  func close() { _ = Glibc.close(fd) }

  /// Connects, sends `request`, returns everything the server sent before closing.
  static func exchange(port: UInt16, _ request: [UInt8], address: LoopbackAddress = .ipv4)
    async -> String
  {
    await offThread {
      guard let client = RawClient(port: port, address: address) else { return "<no connect>" }
      defer { client.close() }
      client.send(request)
      return String(decoding: client.readAll(), as: UTF8.self)
    }
  }

  static func exchange(port: UInt16, _ request: String, address: LoopbackAddress = .ipv4)
    async -> String
  {
    await exchange(port: port, Array(request.utf8), address: address)
  }
}

extension Array where Element: Equatable {
  func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

/// Process-wide resource counts from /proc (Linux only).
enum ProcessResources {
  /// Socket descriptors this process holds whose local TCP port is `port` (listening or
  /// accepted), found by matching /proc/self/fd inodes against /proc/net/tcp{,6}.
  static func socketsOwned(onPort port: UInt16) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      guard let text = readWhole(table) else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let columns = line.split(separator: " ")
        guard columns.count > 9 else { continue }
        let local = columns[1].split(separator: ":")
        if let last = local.last, UInt16(last, radix: 16) == port {
          inodes.insert(String(columns[9]))
        }
      }
    }
    return openSocketInodes().intersection(inodes).count
  }

  /// All of a /proc file, read until end of file: procfs files report a size of 0, and a
  /// reader that trusts a size or stops at its first buffer sees only the first part of a
  /// long table (another suite's Redis cluster leaves hundreds of sockets in it).
  static func readWhole(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The inode of a socket descriptor ("socket:[123]" → "123"), or nil if it is not a socket.
  static func socketInode(ofDescriptor fd: Int32) -> String? {
    guard
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(fd)"),
      target.hasPrefix("socket:[")
    else { return nil }
    return String(target.dropFirst(8).dropLast())
  }

  /// Inodes of every socket this process holds open.
  static func openSocketInodes() -> Set<String> {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return Set(entries.compactMap { Int32($0) }.compactMap(socketInode(ofDescriptor:)))
  }

  /// The names (`comm`) of this process's live threads.
  static func threadNames() -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(
      tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines)
      })
  }

  /// Polls `condition` until it holds or `timeout` passes (for thread exits, which the kernel
  /// reports a moment after the thread's last Swift code ran).
  static func eventually(
    within timeout: Duration = .seconds(2), _ condition: () -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }
}

/// Whether the host can bind ::1.
let ipv6LoopbackAvailable: Bool = {
  guard let server = try? LoopbackServer(bindTo: .ipv6) else { return false }
  server.close()
  return true
}()
