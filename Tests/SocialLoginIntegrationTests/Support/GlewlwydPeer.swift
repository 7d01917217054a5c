import Foundation
import SocialLogin
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real Glewlwyd OpenID provider on 127.0.0.1, started once per test process by
/// `Fixtures/glewlwyd-peer.sh` with a fresh database. It stops when this process exits.
struct GlewlwydPeer: Sendable {
  let baseURL: URL
  let redirectPort: UInt16

  var rsIssuer: URL { baseURL.appendingPathComponent("api/oidc") }
  var esIssuer: URL { baseURL.appendingPathComponent("api/oidc-es") }
  var redirectURI: String { "http://127.0.0.1:\(redirectPort)/callback" }

  static let publicClient = "pub-client"
  static let confidentialClient = "conf-client"
  static let confidentialSecret = "conf-secret-xyz"
  static let user = "alice"
  static let password = "alice-pass-123"
  static let email = "alice@example.test"

  /// In CI a missing server is a failure; elsewhere the suite skips when glewlwyd is absent.
  static var shouldRun: Bool {
    isInstalled || ProcessInfo.processInfo.environment["CI"] == "true"
  }

  static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/glewlwyd")
  }

  static let shared = Task<GlewlwydPeer, any Error> { try await start() }

  private static func start() async throws -> GlewlwydPeer {
    guard
      let script = Bundle.module.url(
        forResource: "glewlwyd-peer", withExtension: "sh", subdirectory: "Fixtures")
    else { throw PeerError("glewlwyd-peer.sh is missing from the test bundle") }
    let port = try freeLoopbackPort()
    let redirectPort = try freeLoopbackPort()
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("sociallogin-glewlwyd-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      script.path, state.path, String(port), String(ProcessInfo.processInfo.processIdentifier),
      "http://127.0.0.1:\(redirectPort)/callback",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let line = try await readLine(from: output.fileHandleForReading, timeout: 60)
    guard line.hasPrefix("READY "), let url = URL(string: String(line.dropFirst(6))) else {
      throw PeerError("glewlwyd did not start: \(line)")
    }
    return GlewlwydPeer(baseURL: url, redirectPort: redirectPort)
  }

  private static func readLine(from handle: FileHandle, timeout: TimeInterval) async throws
    -> String
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        var buffer = Data()
        var lines: [String] = []
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty {
            continuation.resume(
              throwing: PeerError("glewlwyd-peer.sh exited: \(lines.joined(separator: " | "))"))
            return
          }
          buffer.append(chunk)
          while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if line.hasPrefix("READY") || line.hasPrefix("MISSING") || line.hasPrefix("FAILED") {
              continuation.resume(returning: line)
              // Keep draining so the script never blocks on a full pipe.
              while !handle.availableData.isEmpty {}
              return
            }
            lines.append(line)
          }
        }
      }
    }
  }

  /// Binds port 0 on 127.0.0.1, reads the port the kernel chose, and closes the socket.
  static func freeLoopbackPort() throws -> UInt16 {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw PeerError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
      }
    }
    guard bound else { throw PeerError("bind() failed") }
    return UInt16(bigEndian: address.sin_port)
  }
}

struct PeerError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
