import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// `rediss://` against a real redis-server with `--tls-port`, with a CA and certificates made
/// in the test: the store keeps its contract over TLS, mutual TLS works and a missing client
/// certificate is refused, each certificate failure has its own typed error, and nothing is
/// sent before the handshake succeeded.
@Suite(redisTLSAvailable, .timeLimit(.minutes(3))) struct RedisTLSTests {
  func client(_ url: String, environment: [String: String] = [:]) throws -> RedisClient {
    var configuration = try RedisConfiguration(url: url, environment: environment)
    configuration.connectAttempts = 1
    configuration.connectTimeout = .seconds(30)
    configuration.commandTimeout = .seconds(30)
    return RedisClient(configuration: configuration)
  }

  /// The error the first command on `url` fails with.
  func failure(_ url: String, environment: [String: String] = [:]) async throws -> RedisError {
    let client = try client(url, environment: environment)
    defer { client.close() }
    do {
      let reply = try await client.send(["PING"])
      Issue.record("PING over \(url) answered \(reply) instead of failing")
      throw RedisTestError("no failure")
    } catch let error as RedisError {
      return error
    }
  }

  @Test func theStoreKeepsItsContractOverTLS() async throws {
    try await TLSRedisServer.withOwn { server in
      for check in SessionStoreContract.allCases {
        var configuration = try RedisConfiguration(url: server.url(), environment: [:])
        configuration.commandTimeout = .seconds(30)
        configuration.connectTimeout = .seconds(30)
        let store = RedisSessionStore(
          client: RedisClient(configuration: configuration), sealing: TestSealing.sealing,
          options: RedisSessionStore.Options(
            keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(120),
            leasePollInterval: .milliseconds(50)))
        defer { store.client.close() }
        do {
          try await check.run(on: store)
        } catch {
          Issue.record("\(check) over TLS: \(error)")
        }
      }
    }
  }

  @Test func pipelinesLargerThanATLSRecordRoundTrip() async throws {
    try await TLSRedisServer.withOwn { server in
      let client = try client(server.url())
      defer { client.close() }
      // 300 KB values: many 16 KB records each way, and more than one socket buffer.
      let value = String(repeating: "v", count: 300_000)
      let replies = try await client.pipeline(
        (0..<4).map { RedisCommand(["SET", "big\($0)", value]) }
          + (0..<4).map { RedisCommand(["GET", "big\($0)"]) })
      #expect(replies.suffix(4).allSatisfy { $0.string == value })
    }
  }

  @Test func mutualTLSWorksWithAClientCertificateAndIsRefusedWithoutOne() async throws {
    try await TLSRedisServer.withOwn(authClients: true) { server in
      let certificates = server.certificates
      let environment = [
        RedisConfiguration.certificateFileEnvironmentVariable: certificates.client.certificate,
        RedisConfiguration.keyFileEnvironmentVariable: certificates.client.key,
      ]
      let withCertificate = try client(server.url(), environment: environment)
      #expect(try await withCertificate.send(["PING"]).string == "PONG")
      withCertificate.close()
      let inURL = try client(
        server.url(
          extra: "cert=\(certificates.client.certificate)&key=\(certificates.client.key)"))
      #expect(try await inURL.send(["PING"]).string == "PONG")
      inURL.close()
      let error = try await failure(server.url())
      #expect(error.kind == .tlsClientCertificateRefused, "\(error)")
      #expect(error.message.contains("requires a client certificate"))
    }
  }

  @Test func aServerCertificateFromAnUnknownCAIsUntrusted() async throws {
    try await TLSRedisServer.withOwn { server in
      // Neither the system's roots nor another CA file vouch for the test CA.
      for ca: String? in [nil, server.certificates.otherCA] {
        let error = try await failure(server.url(ca: .some(ca)))
        #expect(error.kind == .tlsUntrustedCertificate, "\(error)")
      }
      // The environment's CA file applies to a rediss:// URL without ca=.
      let fromEnvironment = try client(
        server.url(ca: .some(nil)),
        environment: [RedisConfiguration.caFileEnvironmentVariable: server.certificates.ca])
      #expect(try await fromEnvironment.send(["PING"]).string == "PONG")
      fromEnvironment.close()
    }
  }

  @Test func aCertificateForAnotherHostIsAHostNameMismatch() async throws {
    try await TLSRedisServer.withOwn(pair: \.wrongHost) { server in
      for host in ["127.0.0.1", "localhost"] {
        let error = try await failure(server.url(host: host))
        #expect(error.kind == .tlsHostNameMismatch, "\(host): \(error)")
      }
    }
    // The valid certificate names both.
    try await TLSRedisServer.withOwn { server in
      for host in ["127.0.0.1", "localhost"] {
        let client = try client(server.url(host: host))
        #expect(try await client.send(["PING"]).string == "PONG")
        client.close()
      }
    }
  }

  @Test func anExpiredCertificateIsRefused() async throws {
    try await TLSRedisServer.withOwn(pair: \.expired) { server in
      let error = try await failure(server.url())
      #expect(error.kind == .tlsCertificateExpired, "\(error)")
    }
  }

  @Test func aPlaintextRedisPortTimesOutInTheHandshakeAndSaysWhy() async throws {
    try await TLSRedisServer.withOwn { server in
      // Redis reads a TLS hello as the start of an inline command and waits for its end.
      var configuration = try RedisConfiguration(
        url: "rediss://127.0.0.1:\(server.server.port)?ca=\(server.certificates.ca)",
        environment: [:])
      configuration.connectAttempts = 1
      configuration.connectTimeout = .milliseconds(500)
      let client = RedisClient(configuration: configuration)
      defer { client.close() }
      let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
      #expect(error?.kind == .timedOut, "\(String(describing: error))")
      #expect(error?.message.contains("plaintext") == true)
    }
  }

  @Test func nothingButATLSClientHelloIsSentBeforeTheHandshake() async throws {
    let listener = try RecordingListener(answer: Array("+OK\r\n-ERR garbage\r\n".utf8))
    defer { listener.stop() }
    let error = try await failure(
      "rediss://app:hunter2-secret@127.0.0.1:\(listener.port)/3",
      environment: [RedisConfiguration.passwordEnvironmentVariable: "unused"])
    #expect(error.kind == .tlsHandshakeFailed, "\(error)")
    let received = try #require(listener.received(waitingUntil: .now + .seconds(10)))
    // A TLS record: handshake (22), version 3.x, then a ClientHello (1).
    #expect(received.count > 5)
    #expect(received.first == 0x16 && received.dropFirst().first == 0x03)
    #expect(received.count > 5 && received[5] == 0x01)
    let text = String(decoding: received, as: UTF8.self)
    for clear in ["AUTH", "HELLO", "PING", "SELECT", "hunter2"] {
      #expect(!text.contains(clear), "\(clear) was sent in clear")
    }
  }

  /// OpenSSL writes with `write(2)`: writing to a server that is gone must give a typed error,
  /// not a SIGPIPE that ends the process. (On the stream itself: the pool would notice the
  /// closed connection before writing.)
  @Test func aServerGoneWhileWritingIsATypedErrorNotASIGPIPE() async throws {
    try await TLSRedisServer.withOwn { server in
      var configuration = try RedisConfiguration(url: server.url(), environment: [:])
      configuration.connectTimeout = .seconds(30)
      let connection = try RedisConnection.open(configuration, deadline: .now + .seconds(30))
      defer { connection.close() }
      server.server.process.stop()
      let bytes = [UInt8](repeating: 0x2A, count: 1 << 20)
      let error = #expect(throws: RedisError.self) {
        for _ in 0..<64 { try connection.stream.sendAll(bytes, deadline: .now + .seconds(30)) }
      }
      #expect(error?.kind == .connectionLost, "\(String(describing: error))")
    }
  }

  @Test func aCAFileThatCannotBeReadIsAConfigurationError() async throws {
    let error = try await failure("rediss://127.0.0.1:1?ca=/nonexistent/ca.pem")
    #expect(error.kind == .configuration, "\(error)")
    #expect(error.message.contains("/nonexistent/ca.pem"))
  }
}

/// A TCP listener on loopback that records the first bytes a client sends and answers them
/// with `answer` (garbage to a TLS client), then closes.
final class RecordingListener: @unchecked Sendable {
  let port: UInt16
  private let fd: Int32
  private let bytes = Locked<[UInt8]?>(nil)

  init(answer: [UInt8]) throws {
    let (fd, port) = try FakeRedisServer.loopbackListener()
    self.fd = fd
    self.port = port
    let recorded = bytes
    Thread {
      let connection = accept(fd, nil, nil)
      guard connection >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 16 << 10)
      let count = recv(connection, &buffer, buffer.count, 0)
      recorded.withLock { $0 = Array(buffer.prefix(max(0, count))) }
      _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      // Whatever else the client sends before giving up is recorded too.
      while true {
        let more = recv(connection, &buffer, buffer.count, 0)
        guard more > 0 else { break }
        recorded.withLock { $0?.append(contentsOf: buffer.prefix(more)) }
      }
      close(connection)
    }.start()
  }

  /// What the client sent, once it sent something (polled until `deadline`).
  func received(waitingUntil deadline: ContinuousClock.Instant) -> [UInt8]? {
    while ContinuousClock.now < deadline {
      if let bytes = bytes.withLock({ $0 }) { return bytes }
      usleep(2000)
    }
    return nil
  }

  func stop() {
    shutdown(fd, Int32(SHUT_RDWR))
    close(fd)
  }
}
