import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Four OS processes (`sociallogin-bench replicas-follower`), each a `LoginClient` on one
/// Redis holding the same session: one signs out, and the others' `freshAccessToken()` throw
/// `signedOut(userInitiated)` within 100 ms, without anyone asking them: the change reached
/// them through the store's channel. The same after a Redis restart.
@Suite(.redisAvailable, .serialized, .timeLimit(.minutes(3)))
struct SignOutEverywhereProcessTests {
  static let propagationBound: Int64 = 100_000

  func seed(url: String, prefix: String, subject: String) async throws {
    let store = try await RedisSessionStore.connect(
      url: url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix), environment: [:])
    _ = try await store.save(
      StoredSession(
        key: SessionKey(provider: .twitter, subject: subject),
        credential: Credential(
          accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date().addingTimeInterval(3600)),
        signedInAt: Date()),
      expectedVersion: nil)
    store.client.close()
  }

  func followers(url: String, prefix: String, subject: String) async throws -> [WorkerProcess] {
    let workers = try (0..<4).map { _ in
      try WorkerProcess(
        command: "replicas-follower",
        arguments: ["--redis", url, "--prefix", prefix])
    }
    for worker in workers { _ = try await worker.waitForLine("ready") }
    return workers
  }

  /// Signs out on the first worker and checks every other one ended with the same reason,
  /// within the bound of the sign-out's start; returns the propagation times in µs.
  func signOutAndWatch(_ workers: [WorkerProcess], subject: String) async throws -> [Int64] {
    workers[0].send("signout \(subject)")
    let started = try await workers[0].waitForLine("signing-out \(subject) ")
    let start = try #require(Int64(started.split(separator: " ")[2]))
    _ = try await workers[0].waitForLine("signed-out \(subject)")
    var delays: [Int64] = []
    for worker in workers {
      let ended = try await worker.waitForLine("ended \(subject) ", timeout: .seconds(30))
      let fields = ended.split(separator: " ").map(String.init)
      try #require(fields.count == 5)
      #expect(fields[2] == "userInitiated", "the reason of the sign-out elsewhere")
      #expect(fields[4] == "userInitiated", "freshAccessToken() throws signedOut(userInitiated)")
      delays.append(try #require(Int64(fields[3])) - start)
    }
    for delay in delays.dropFirst() {
      #expect(delay <= Self.propagationBound, "propagation took \(delay) µs")
    }
    return Array(delays.dropFirst())
  }

  @Test func aSignOutOnOneProcessEndsTheSessionOnTheOthers() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      try await seed(url: server.url, prefix: prefix, subject: "follower")
      let workers = try await followers(url: server.url, prefix: prefix, subject: "follower")
      let delays = try await signOutAndWatch(workers, subject: "follower")
      print("sign-out propagation µs: \(delays.sorted())")
      for worker in workers { worker.send("exit") }
    }
  }

  @Test func theSameAcrossARedisRestart() async throws {
    try await RedisFixture.withOwn { server in
      let prefix = uniquePrefix()
      try await seed(url: server.url, prefix: prefix, subject: "follower")
      let workers = try await followers(url: server.url, prefix: prefix, subject: "follower")
      try await server.restart()
      // Every replica's subscription is back (its feed says so) before the sign-out.
      for worker in workers {
        _ = try await worker.waitForLine("feed resumed", timeout: .seconds(30))
      }
      let delays = try await signOutAndWatch(workers, subject: "follower")
      print("sign-out propagation after a restart µs: \(delays.sorted())")
      for worker in workers { worker.send("exit") }
    }
  }
}
