import Foundation
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#endif

/// A socket server that answers every read with canned bytes: what a broken or hostile
/// "Redis" could send. Runs on its own thread; one connection at a time. `{port}` in a reply
/// is replaced by the server's port (a cluster node naming itself).
final class FakeRedisServer: @unchecked Sendable {
  let port: UInt16
  private let fd: Int32
  private let replies: [[UInt8]]
  private let closeAfterReplies: Bool

  /// A listening socket on 127.0.0.1 and the port the kernel chose.
  static func loopbackListener() throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RedisTestError("socket failed") }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 8) == 0 else {
      close(fd)
      throw RedisTestError("bind or listen failed")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  init(replies: [String], closeAfterReplies: Bool = true) throws {
    let (fd, port) = try Self.loopbackListener()
    self.fd = fd
    self.port = port
    self.replies = replies.map {
      Array($0.replacingOccurrences(of: "{port}", with: String(port)).utf8)
    }
    self.closeAfterReplies = closeAfterReplies
    let listener = fd
    let canned = self.replies
    let closing = closeAfterReplies
    Thread {
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for reply in canned {
          guard recv(connection, &buffer, buffer.count, 0) > 0 else { break }
          _ = reply.withUnsafeBytes {
            send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
        }
        if closing {
          close(connection)
        } else {
          while recv(connection, &buffer, buffer.count, 0) > 0 {}
          close(connection)
        }
      }
    }.start()
  }

  func stop() {
    shutdown(fd, Int32(SHUT_RDWR))
    close(fd)
  }
}

@Suite(.timeLimit(.minutes(1))) struct FakeRedisServerTests {
  func client(_ server: FakeRedisServer) throws -> RedisClient {
    var configuration = try RedisConfiguration(
      url: "redis://127.0.0.1:\(server.port)", environment: [:])
    configuration.connectAttempts = 1
    configuration.commandTimeout = .seconds(2)
    configuration.connectTimeout = .seconds(2)
    configuration.limits = RESPLimits(maximumBulkLength: 1024)
    return RedisClient(configuration: configuration)
  }

  @Test(arguments: [
    ("HTTP/1.1 400 Bad Request\r\n\r\n", RedisError.Kind.protocolViolation),
    ("$99999999\r\n", .replyTooLarge),
    ("*1048577\r\n", .replyTooLarge),
    (":notanumber\r\n", .protocolViolation),
    (String(repeating: "*1\r\n", count: 100) + ":1\r\n", .protocolViolation),
    ("$10\r\nshort", .connectionLost),
  ])
  func malformedRepliesFailTheHandshakeWithATypedError(reply: String, kind: RedisError.Kind)
    async throws
  {
    let server = try FakeRedisServer(replies: [reply])
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
    #expect(error?.kind == kind)
  }

  @Test func aServerThatNeverAnswersTimesOut() async throws {
    let server = try FakeRedisServer(replies: [], closeAfterReplies: false)
    defer { server.stop() }
    var configuration = try RedisConfiguration(
      url: "redis://127.0.0.1:\(server.port)", environment: [:])
    configuration.connectAttempts = 1
    configuration.connectTimeout = .milliseconds(300)
    let client = RedisClient(configuration: configuration)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
    #expect(error?.kind == .timedOut)
  }

  @Test func aMalformedReplyToACommandIsTypedAndTheNextCommandReconnects() async throws {
    // Handshake PING answered, then garbage for GET; the second connection answers properly.
    let server = try FakeRedisServer(replies: ["+PONG\r\n", "&what\r\n"])
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .protocolViolation)
    let again = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(again?.kind == .protocolViolation, "a fresh connection, the same garbage")
  }
}
