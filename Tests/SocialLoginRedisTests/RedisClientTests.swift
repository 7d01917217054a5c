import Foundation
import SocialLogin
import SocialLoginTesting
import TestPacing
import Testing

@testable import SocialLoginRedis

@Suite(.redisAvailable, .timeLimit(.minutes(2))) struct RedisClientTests {
  @Test func commandsAndPipelinesRoundTripBinarySafeValues() async throws {
    try await RedisFixture.with { server in
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      let blob: [UInt8] = [0, 13, 10, 255, 36, 42]
      try await client.send(RedisCommand(arguments: [Array("SET".utf8), Array("k".utf8), blob]))
      #expect(try await client.send(["GET", "k"]) == .bulkString(blob))
      let replies = try await client.pipeline(
        (0..<1000).map { _ in RedisCommand(["INCR", "counter"]) } + [["GET", "missing"], ["NOPE"]])
      #expect(replies.count == 1002)
      #expect(replies[999] == .integer(1000))
      #expect(replies[1000].isNull)
      guard case .error = replies[1001] else {
        Issue.record("an unknown command is an error value in its slot")
        return
      }
      let refused = await #expect(throws: RedisError.self) { try await client.send(["NOPE"]) }
      #expect(refused?.kind == .server)
    }
  }

  @Test func passwordAndACLUserAuthenticateAndWrongOnesAreTypedErrors() async throws {
    try await RedisFixture.withOwn(arguments: ["--requirepass", "s3cret"]) { server in
      let good = try RedisClient(url: "redis://:s3cret@127.0.0.1:\(server.port)")
      try await good.send(["ACL", "SETUSER", "svc", "on", ">svc-pass", "~*", "&*", "+@all"])
      #expect(try await good.send(["PING"]) == .simpleString("PONG"))
      good.close()

      let user = try RedisClient(url: "redis://svc:svc-pass@127.0.0.1:\(server.port)")
      #expect(try await user.send(["ACL", "WHOAMI"]).string == "svc")
      user.close()

      for url in [
        "redis://:wrong@127.0.0.1:\(server.port)", "redis://svc:wrong@127.0.0.1:\(server.port)",
        "redis://127.0.0.1:\(server.port)",
      ] {
        let client = try RedisClient(
          configuration: RedisConfiguration(url: url, environment: [:]))
        let error = await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
        #expect(error?.kind == .authenticationFailed, "\(url)")
        #expect(error?.description.contains("wrong") == false, "never echoes the password")
        client.close()
      }

      let storeError = await #expect(throws: AuthError.self) {
        _ = try await RedisSessionStore.connect(
          url: "redis://:wrong@127.0.0.1:\(server.port)", sealing: TestSealing.sealing)
      }
      #expect(storeError?.code == .configuration)
      #expect((storeError?.underlying as? RedisError)?.kind == .authenticationFailed)
    }
  }

  @Test func selectKeepsDatabasesApartAndUnixSocketsWork() async throws {
    try await RedisFixture.withOwn { server in
      let zero = try RedisClient(url: server.url + "/0")
      let five = try RedisClient(url: "unix://\(server.unixSocket)?db=5")
      defer {
        zero.close()
        five.close()
      }
      try await zero.send(["SET", "k", "zero"])
      try await five.send(["SET", "k", "five"])
      #expect(try await zero.send(["GET", "k"]).string == "zero")
      #expect(try await five.send(["GET", "k"]).string == "five")
    }
  }

  @Test func scriptsRunBySHAAndReloadAfterTheCacheIsFlushed() async throws {
    try await RedisFixture.withOwn { server in
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      let script = RedisScript(name: "echo", source: "return ARGV[1] .. KEYS[1]")
      #expect(try await client.evaluate(script, keys: ["k"], arguments: [[97]]).string == "ak")
      try await client.send(["SCRIPT", "FLUSH"])
      #expect(try await client.evaluate(script, keys: ["z"], arguments: [[98]]).string == "bz")
      let loaded = try await client.send(["SCRIPT", "EXISTS", script.sha1])
      #expect(loaded.elements == [.integer(1)])
    }
  }

  @Test func afterNOSCRIPTTheAlongsideCommandsAreResentOnlyWhenAsked() async throws {
    try await RedisFixture.withOwn { server in
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      let script = RedisScript(name: "echo", source: "return ARGV[1]")
      // Not resent: the alongside INCR ran with the refused EVALSHA, and only once.
      _ = try await client.evaluate(
        script, keys: [], arguments: [[97]], alongside: [["INCR", "once"]])
      #expect(try await client.send(["GET", "once"]).string == "1")
      // Resent: the caller needs the alongside replies of the EVAL (as the store's WAIT).
      try await client.send(["SCRIPT", "FLUSH"])
      let replies = try await client.evaluateReturningAll(
        script, keys: [], arguments: [[98]], alongside: [["INCR", "twice"]])
      #expect(replies.count == 2)
      #expect(replies.first?.string == "b")
      #expect(replies.last == .integer(2), "the INCR ran with the EVALSHA and again with the EVAL")
    }
  }

  @Test func thePoolNeverOpensMoreThanItsBound() async throws {
    try await RedisFixture.withOwn { server in
      var configuration = try RedisConfiguration(url: server.url, environment: [:])
      configuration.maximumConnections = 3
      // Queueing for a connection counts against the command timeout: a hang guard for a
      // loaded machine (200 commands through 3 connections), not a speed check.
      configuration.commandTimeout = .seconds(120)
      let client = RedisClient(configuration: configuration)
      let observer = try RedisClient(url: server.url)
      defer {
        client.close()
        observer.close()
      }
      try await withThrowingDiscardingTaskGroup { group in
        for index in 0..<200 {
          group.addTask { try await client.send(["SET", "k\(index)", "v"]) }
        }
      }
      let clients = try await observer.send(["CLIENT", "LIST"]).string ?? ""
      let count = clients.split(separator: "\n").count
      #expect(count <= 3 + 1, "pool connections plus the observer: \(count)")
      #expect(try await client.send(["DBSIZE"]) == .integer(200))
    }
  }

  @Test func aRestartedServerIsReconnectedAfterTheDeadConnectionsAreDropped() async throws {
    try await RedisFixture.withOwn { server in
      let client = try RedisClient(url: server.url)
      defer { client.close() }
      try await client.send(["SET", "k", "v"])
      try await server.restart()
      // The pooled connection is dead; the health check drops it and the command reconnects.
      #expect(try await client.send(["GET", "k"]).string == "v")
    }
  }

  @Test func anUnreachableServerFailsFastWithATypedError() async throws {
    let port = try RedisTestServer.freePort()
    var configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(port)", environment: [:])
    configuration.connectAttempts = 2
    let client = RedisClient(configuration: configuration)
    defer { client.close() }
    // No hang and no endless retries: the deadline turns either into a failure.
    let error = await #expect(throws: RedisError.self) {
      try await withDeadline(.seconds(60), "PING to a port nobody listens on") {
        try await client.send(["PING"])
      }
    }
    #expect(error?.kind == .connectionFailed)
  }
}
