import Foundation
import Testing

@testable import SocialLoginRedis

/// A "cluster node" that answers with canned bytes (``FakeRedisServer``): a hostile or broken
/// `CLUSTER SLOTS` reply or redirect is a typed ``RedisError``, never a crash or a loop.
@Suite(.timeLimit(.minutes(3))) struct FakeClusterNodeTests {
  func client(_ server: FakeRedisServer) throws -> RedisClient {
    var configuration = try RedisConfiguration(
      url: "redis://127.0.0.1:\(server.port)", environment: [:])
    configuration.connectAttempts = 1
    // Hang guards, not speed checks: a redirected command's redirects, map reads and retries
    // all count against its timeout, and the whole suite loads two cores.
    configuration.commandTimeout = .seconds(90)
    configuration.connectTimeout = .seconds(90)
    return RedisClient(configuration: configuration)
  }

  /// The whole slot range on the fake itself.
  static let selfMap = "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:{port}\r\n"

  @Test(arguments: [
    ":7\r\n",
    "*1\r\n*3\r\n:9\r\n:3\r\n*2\r\n$1\r\nh\r\n:1\r\n",
    "*1\r\n*3\r\n:0\r\n:99999\r\n*2\r\n$1\r\nh\r\n:1\r\n",
    "*1\r\n*3\r\n:0\r\n:10\r\n*2\r\n$1\r\nh\r\n:0\r\n",
    "*1\r\n*3\r\n:0\r\n:10\r\n*2\r\n$3\r\na b\r\n:1\r\n",
    "*1\r\n*3\r\n:0\r\n:10\r\n:5\r\n",
    // Overlapping ranges (of nodes by address: a name is outside an address URL's pattern).
    "*2\r\n*3\r\n:0\r\n:10\r\n*2\r\n$3\r\n::1\r\n:1\r\n*3\r\n:5\r\n:20\r\n*2\r\n$3\r\n::1\r\n:2\r\n",
  ])
  func aHostileSlotsReplyIsATypedError(reply: String) async throws {
    let server = try FakeRedisServer(replies: ["+PONG\r\n", reply])
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .unexpectedReply)
  }

  @Test(arguments: [
    "-MOVED 3999 garbage\r\n", "-MOVED 3999 127.0.0.1:0\r\n", "-MOVED 99999 127.0.0.1:1\r\n",
    "-ASK x 127.0.0.1:1\r\n", "-MOVED 1 bad\u{7f}host:1\r\n",
  ])
  func aRedirectToGarbageIsATypedError(redirect: String) async throws {
    let server = try FakeRedisServer(replies: ["+PONG\r\n", Self.selfMap, redirect])
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .unexpectedReply)
  }

  @Test func aNodeThatRedirectsToItselfForeverEndsWithItsError() async throws {
    let moved = "-MOVED 12539 127.0.0.1:{port}\r\n"
    let server = try FakeRedisServer(
      replies: ["+PONG\r\n", Self.selfMap, moved] + [String](repeating: moved, count: 20),
      closeAfterReplies: false)
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    let error = await #expect(throws: RedisError.self) { try await client.send(["GET", "k"]) }
    #expect(error?.kind == .server)
    #expect(error?.serverCode == "MOVED")
  }

  @Test func aServerWithoutClusterSupportIsASingleNode() async throws {
    let server = try FakeRedisServer(
      replies: ["+PONG\r\n", "-ERR This instance has cluster support disabled\r\n", "$1\r\nv\r\n"])
    defer { server.stop() }
    let client = try client(server)
    defer { client.close() }
    #expect(try await client.send(["GET", "k"]).string == "v")
    #expect(!client.isCluster)
  }
}
