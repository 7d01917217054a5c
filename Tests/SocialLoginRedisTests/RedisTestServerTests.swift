import Foundation
import SocialLogin
import Testing

@testable import SocialLoginRedis
@testable import SocialLoginTesting

#if canImport(Glibc)
  import Glibc
#endif

/// `SocialLoginTesting.RedisTestServer`, the product users test with: a real server on a free
/// loopback port, ready when `with` calls the body, killed and reaped however the body ends.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisTestServerTests {
  @Test func aServerOnAFreeLoopbackPortAnswersAtItsURL() async throws {
    try await RedisTestServer.with { server in
      #expect(server.host == "127.0.0.1")
      #expect(server.url == "redis://127.0.0.1:\(server.port)")
      let pid = try #require(server.processIdentifier)
      #expect(ProcessProbe.command(pid) == "redis-server")
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      #expect(try await client.send(["PING"]) == .simpleString("PONG"))
      let overSocket = try RedisClient(url: "unix://\(server.unixSocket)")
      defer { overSocket.close() }
      #expect(try await overSocket.send(["PING"]) == .simpleString("PONG"))
    }
  }

  @Test func theServerIsKilledAndReapedWhenTheBodyReturns() async throws {
    let (pid, directory) = try await RedisTestServer.with { server in
      (try #require(server.processIdentifier), server.directory)
    }
    #expect(ProcessProbe.isReaped(pid), "no redis-server, not even a zombie")
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func theServerIsKilledAndReapedWhenTheBodyThrows() async throws {
    struct Failure: Error { var pid: Int32 }
    let error = await #expect(throws: Failure.self) {
      try await RedisTestServer.with { server in
        throw Failure(pid: try #require(server.processIdentifier))
      }
    }
    let pid = try #require(error?.pid)
    #expect(ProcessProbe.isReaped(pid))
  }

  @Test func theServerIsKilledAndReapedWhenTheTestIsCancelled() async throws {
    let started = Locked<Int32?>(nil)
    let task = Task {
      try await RedisTestServer.with { server in
        started.withLock { $0 = server.processIdentifier }
        // Cancellation ends this wait; the deadline only bounds a regression.
        try await Task.sleep(for: .seconds(600))
      }
    }
    #expect(try await ProcessProbe.waitUntil { started.withLock { $0 } != nil })
    let pid = try #require(started.withLock { $0 })
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(ProcessProbe.isReaped(pid))
  }

  /// The newcomer's hang: a server that inherited a blocked SIGTERM never stops on SIGTERM.
  /// The fixture's spawner thread blocks every signal, so this fails unless the child's mask
  /// is reset.
  @Test func theServerStartsWithNoSignalBlockedAndStopsOnSIGTERM() async throws {
    try await RedisTestServer.with { server in
      let pid = try #require(server.processIdentifier)
      #expect(ProcessProbe.blockedSignals(pid) == "0000000000000000")
      #expect(kill(pid, SIGTERM) == 0)
      #expect(
        try await ProcessProbe.waitUntil { ProcessProbe.isDead(pid) },
        "redis-server ignored SIGTERM: \(server.output)")
    }
  }

  @Test func restartComesBackOnTheSamePortWithWhatWasSaved() async throws {
    try await RedisTestServer.with { server in
      let client = try RedisClient(url: server.url)
      _ = try await client.send(["SET", "kept", "yes"])
      _ = try await client.send(["SAVE"])
      client.close()
      let before = try #require(server.processIdentifier)
      try await server.restart {
        #expect(server.processIdentifier == nil)
        #expect(ProcessProbe.isReaped(before))
      }
      #expect(server.processIdentifier != before)
      let again = try RedisClient(url: server.url)
      defer { again.close() }
      #expect(try await again.send(["GET", "kept"]) == .bulkString(Array("yes".utf8)))
    }
  }
}
