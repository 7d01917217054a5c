import Foundation
import SocialLogin
import SocialLoginTesting
import Synchronization
import Testing

@testable import SocialLoginRedis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Liveness of subscribed connections and the life of their descriptors.
@Suite(.timeLimit(.minutes(2))) struct DescriptorLifeTests {
  @Test func aShutdownIsAllowedUntilTheCloseAndTheCloseHappensOnce() {
    var life = DescriptorLife()
    #expect(life.phase == .open)
    let first = life.shutDown()
    #expect(first)
    #expect(life.phase == .shutDown)
    let second = life.shutDown()
    #expect(second, "shutting down twice is harmless while the descriptor is open")
    let closing = life.close()
    #expect(closing)
    #expect(life.phase == .closed)
    let late = life.shutDown()
    #expect(!late, "never after the close: the number may belong to another socket")
    let again = life.close()
    #expect(!again, "closed once")
    #expect(life.phase == .closed)
  }

  @Test func aSubscribedConnectionTellsPingsAnswerFromMessages() {
    #expect(RedisConnection.isPong(.simpleString("PONG")))
    #expect(RedisConnection.isPong(.array([.bulkString(Array("pong".utf8)), .bulkString([])])))
    #expect(RedisConnection.isPong(.push([.bulkString(Array("pong".utf8)), .bulkString([])])))
    let message = RESPValue.array([
      .bulkString(Array("message".utf8)), .bulkString(Array("ch".utf8)),
      .bulkString(Array("pong".utf8)),
    ])
    #expect(!RedisConnection.isPong(message))
  }
}

@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisLivenessTests {
  /// A pair of connected Unix sockets standing for an unrelated socket of the process.
  struct Victim {
    let ends: (Int32, Int32)

    init?() {
      var fds: [Int32] = [-1, -1]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { return nil }
      ends = (fds[0], fds[1])
    }

    /// Whether either end was shut down behind its back: nothing was written, so a readable
    /// end means end-of-file.
    var wasShutDown: Bool {
      var descriptors = [
        pollfd(fd: ends.0, events: Int16(POLLIN), revents: 0),
        pollfd(fd: ends.1, events: Int16(POLLIN), revents: 0),
      ]
      return poll(&descriptors, 2, 0) != 0
    }

    func close() {
      _ = closeDescriptor(ends.0)
      _ = closeDescriptor(ends.1)
    }
  }

  @Test func abortAfterCloseLeavesASocketThatReusedTheNumberAlone() async throws {
    try await RedisFixture.with { server in
      let configuration = try RedisConfiguration(url: server.url, environment: [:])
      var checked = 0
      for _ in 0..<20 {
        let connection = try RedisConnection.open(configuration, deadline: .now + .seconds(10))
        let number = connection.fd
        connection.close()
        // The lowest free number is handed out first: the pair normally takes the closed one
        // (another test's socket may beat it to it; then this round proves nothing).
        guard let victim = Victim() else { continue }
        defer { victim.close() }
        guard victim.ends.0 == number || victim.ends.1 == number else { continue }
        connection.abort()
        #expect(!victim.wasShutDown, "abort() shut down an unrelated socket")
        checked += 1
      }
      #expect(checked > 0, "the closed descriptor's number was never reused")
    }
  }

  @Test func stoppingSubscribersWhileTheyCloseNeverShutsDownAnotherSocket() async throws {
    try await RedisFixture.with { server in
      let configuration = try RedisConfiguration(url: server.url, environment: [:])
      let deadline = ContinuousClock.now + .seconds(60)
      var cycles = 0
      while cycles < 300, ContinuousClock.now < deadline {
        cycles += 1
        let subscriber = RedisSubscriber(
          connector: RedisConnector(configuration: configuration), channel: uniquePrefix(),
          handler: { _ in })
        subscriber.start()
        await subscriber.waitUntilSubscribed(timeout: .seconds(10))
        // Meanwhile new sockets take every free number.
        let victims = Mutex<[Victim]>([])
        let done = Mutex(false)
        let maker = Thread {
          while !done.withLock({ $0 }) {
            guard let victim = Victim() else { return }
            victims.withLock { $0.append(victim) }
            if victims.withLock({ $0.count }) > 400 { return }
          }
        }
        maker.start()
        // Stops hammered from two threads race each other and the listening thread, which
        // closes the connection as soon as the first one breaks it.
        let hammers = (0..<2).map { _ in
          Thread {
            for _ in 0..<2_000 where !done.withLock({ $0 }) { subscriber.stop() }
          }
        }
        for hammer in hammers { hammer.start() }
        try await WaitTimeout.yieldUntil("victims", timeout: .seconds(10)) {
          victims.withLock { $0.count } > 400
        }
        done.withLock { $0 = true }
        let all = victims.withLock { $0 }
        #expect(
          all.allSatisfy { !$0.wasShutDown }, "cycle \(cycles): a reused number was shut down")
        for victim in all { victim.close() }
      }
    }
  }

  @Test func aDroppedSubscriptionIsReportedAsInterruptedWithinTheKeepaliveBound() async throws {
    try await RedisFixture.with { server in
      let proxy = try BlackholeProxy(target: server.port)
      defer { proxy.stop() }
      var configuration = try RedisConfiguration(
        url: "redis://127.0.0.1:\(proxy.port)/\(server.database)", environment: [:])
      configuration.reconnectBackoff = BackoffPolicy(
        baseDelay: .milliseconds(50), multiplier: 1, maximumDelay: .milliseconds(50))
      let liveness = RedisLiveness(
        pingInterval: .milliseconds(300), pingTimeout: .milliseconds(700))
      let links = Mutex<[Bool]>([])
      let heard = Mutex<[String]>([])
      let channel = uniquePrefix()
      let subscriber = RedisSubscriber(
        connector: RedisConnector(configuration: configuration), channel: channel,
        onLink: { up in links.withLock { $0.append(up) } }, liveness: liveness,
        handler: { payload in
          heard.withLock { $0.append(String(decoding: payload, as: UTF8.self)) }
        })
      subscriber.start()
      defer { subscriber.stop() }
      try await WaitTimeout.yieldUntil("the subscription", timeout: .seconds(20)) {
        links.withLock { $0 } == [true]
      }
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      _ = try await client.send(["PUBLISH", channel, "before"])
      try await WaitTimeout.yieldUntil("the first message", timeout: .seconds(20)) {
        heard.withLock { $0 } == ["before"]
      }
      proxy.blackhole()
      // Nothing closes: only the missing answer to a PING can tell. The bound is 1 s here.
      try await WaitTimeout.yieldUntil("the lost link", timeout: liveness.bound * 5) {
        links.withLock { $0 } == [true, false]
      }
      proxy.resume()
      try await WaitTimeout.yieldUntil("the new subscription", timeout: .seconds(20)) {
        links.withLock { $0.last } == true
      }
      #expect(links.withLock { $0 }.filter { !$0 }.count >= 1)
      _ = try await client.send(["PUBLISH", channel, "after"])
      try await WaitTimeout.yieldUntil("the message after", timeout: .seconds(20)) {
        heard.withLock { $0 }.last == "after"
      }
    }
  }

  @Test func aSilentSentinelWatchIsLeftWithinThePingBound() async throws {
    try await RedisTestSentinels.with { deployment in
      let proxy = try BlackholeProxy(target: deployment.sentinels[0].port)
      defer { proxy.stop() }
      var configuration = try RedisConfiguration(
        url: "redis-sentinel://127.0.0.1:\(proxy.port)#\(RedisTestSentinels.masterName)",
        environment: [:])
      configuration.connectTimeout = .seconds(30)
      // The watch's SUBSCRIBE waits for the sentinel's answer up to the command timeout, and
      // the watch connection is visible before it is sent: on a loaded machine the silence
      // can begin inside that wait, which the command timeout (not the PING) ends. 5 s keeps
      // that well inside the bound below; 30 s outlasted it (CI, load 4–6).
      configuration.commandTimeout = .seconds(5)
      let connector = RedisConnector(configuration: configuration)
      defer { connector.close() }
      try connector.open(deadline: .now + .seconds(30)).close()
      try await WaitTimeout.yieldUntil("the watch", timeout: .seconds(30)) {
        connector.state.withLock { $0.watchConnection } != nil
      }
      let watch = try #require(connector.state.withLock { $0.watchConnection })
      proxy.blackhole()
      // The sentinel says nothing while no master switches: only a missing PING answer can
      // tell that the link is gone.
      try await WaitTimeout.yieldUntil(
        "the watch to leave the silent sentinel", timeout: RedisLiveness.standard.bound * 5
      ) {
        connector.state.withLock { $0.watchConnection } !== watch
      }
    }
  }
}
