import Foundation
import LoopbackHTTP
import SocialLogin

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real Glewlwyd OpenID provider (Debian package `glewlwyd`) on 127.0.0.1 with a fresh
/// database, for integration tests and benchmarks that need an independent OpenID provider.
///
/// Test support only (the `GlewlwydTestPeer` target is no product: it holds a test user's
/// password). `start(script:)` runs `glewlwyd-peer.sh`, next to this file, which configures an RS256 issuer, an ES256
/// issuer, the user ``user``, a public and a confidential client, and stops the server when
/// this process exits.
///
/// ```swift
/// let peer = try await GlewlwydPeer.start(script: scriptURL)
/// let provider = OIDCProvider(id: "glewlwyd", configuration: .init(
///   issuer: peer.rsIssuer, clientID: GlewlwydPeer.publicClient))
/// ```
public struct GlewlwydPeer: Sendable {
  /// The server's base URL, `http://127.0.0.1:<port>`.
  public let baseURL: URL
  /// A free loopback port registered as a redirect URI (`http://127.0.0.1:<port>/callback`).
  public let redirectPort: UInt16

  /// The RS256 issuer.
  public var rsIssuer: URL { baseURL.appendingPathComponent("api/oidc") }
  /// The ES256 issuer.
  public var esIssuer: URL { baseURL.appendingPathComponent("api/oidc-es") }
  /// A registered redirect URI that nothing listens on (for headless agents).
  public var redirectURI: String { "http://127.0.0.1:\(redirectPort)/callback" }

  /// The public client (PKCE required, no secret).
  public static let publicClient = "pub-client"
  /// The public client of device logins (RFC 8628).
  public static let deviceClient = "device-client"
  /// The confidential client (Basic or post authentication).
  public static let confidentialClient = "conf-client"
  /// The confidential client's secret.
  public static let confidentialSecret = "conf-secret-xyz"
  /// The user's login name.
  public static let user = "alice"
  /// The user's password.
  public static let password = "alice-pass-123"
  /// The user's email address, as userinfo reports it.
  public static let email = "alice@example.test"

  /// `glewlwyd-peer.sh` in the checkout, next to this file.
  public static var defaultScript: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("glewlwyd-peer.sh")
  }

  /// Whether the tests run in CI: `CI` set to anything but empty, `0` or `false` (any case),
  /// as CI services set it (`true`, `1`, `yes`, a service name). In CI a missing Glewlwyd is a
  /// failure, not a skip.
  public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces) else { return false }
    return !["", "0", "false"].contains(value.lowercased())
  }

  /// Whether `/usr/bin/glewlwyd` is installed.
  public static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/glewlwyd")
  }

  /// Starts a fresh server with `script` (`glewlwyd-peer.sh`) and waits until it is configured.
  ///
  /// - Parameters:
  ///   - script: The fixture script.
  ///   - stateDirectory: Where the server's database, keys and log go (the script empties it
  ///     first); defaults to a new folder in the temporary directory. Benchmarks pass one on a
  ///     tmpfs: Glewlwyd's SQLite database syncs to disk on every login.
  public static func start(script: URL, stateDirectory: URL? = nil) async throws -> GlewlwydPeer {
    let port = try freeLoopbackPort()
    let redirectPort = try freeLoopbackPort()
    let state =
      stateDirectory
      ?? FileManager.default.temporaryDirectory
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

  /// Reads the script's output until its `READY`/`MISSING`/`FAILED` line, or throws after
  /// `timeout` seconds (a hung setup fails the test run instead of hanging it).
  static func readLine(from handle: FileHandle, timeout: TimeInterval) async throws -> String {
    let once = ResumeOnce()
    return try await withCheckedThrowingContinuation { continuation in
      once.set(continuation)
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        once.resume(
          with: .failure(PeerError("glewlwyd-peer.sh printed no READY line within \(timeout) s")))
      }
      Thread.detachNewThread {
        var buffer = Data()
        var lines: [String] = []
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty {
            once.resume(
              with: .failure(
                PeerError("glewlwyd-peer.sh exited: \(lines.joined(separator: " | "))")))
            return
          }
          buffer.append(chunk)
          while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if line.hasPrefix("READY") || line.hasPrefix("MISSING") || line.hasPrefix("FAILED") {
              once.resume(with: .success(line))
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

  /// A port that was free a moment ago: bound on 127.0.0.1 by the system's choice, then
  /// released (the loopback server sets `SO_REUSEADDR`, so it can be bound again at once).
  public static func freeLoopbackPort() throws -> UInt16 {
    let server = try LoopbackServer(port: 0)
    defer { server.close() }
    return server.port
  }
}

/// Resumes a continuation once: the first of the reader and the deadline wins.
final class ResumeOnce: Sendable {
  private let state = Locked<CheckedContinuation<String, any Error>?>(nil)

  func set(_ continuation: CheckedContinuation<String, any Error>) {
    state.withLock { $0 = continuation }
  }

  func resume(with result: Result<String, any Error>) {
    let continuation = state.withLock { value -> CheckedContinuation<String, any Error>? in
      defer { value = nil }
      return value
    }
    continuation?.resume(with: result)
  }
}

/// Why a test peer could not be started or driven.
public struct PeerError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
