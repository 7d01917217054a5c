import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Four OS processes (`sociallogin-bench events-worker`), each a `LoginClient` with a
/// `ProviderEventReceiver` on one Redis, hold the same session: a back-channel logout delivered
/// to one of them ends it in all four, with its reason, through the store's change feed; the
/// same logout token replayed to another process (its `jti` in the Redis nonce store) is
/// refused and ends nothing, not even the account's new login.
@Suite(.redisAvailable, .serialized, .timeLimit(.minutes(3)))
struct ProviderEventsProcessTests {
  static let secret = Array("four-process-events-test-key-32b!!".utf8)
  static let issuer = "https://op.example"
  let key = SessionKey(provider: "corp", subject: "alice")

  func seed(url: String, prefix: String, accessToken: String) async throws {
    let store = try await RedisSessionStore.connect(
      url: url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix), environment: [:])
    defer { store.client.close() }
    _ = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: Secret(accessToken), expiresAt: Date().addingTimeInterval(3600)),
        signedInAt: Date()),
      expectedVersion: try await store.load(key)?.version)
  }

  /// The form body of a logout token for alice, base64url for the worker's line protocol.
  static func logoutBody(jti: String) throws -> String {
    let now = Date().timeIntervalSince1970.rounded(.down)
    let token = try JWSSigner.hs256(secret: secret, keyID: "k1").signJWT(claims: [
      "iss": .string(issuer), "aud": "rp-1", "iat": .number(now), "jti": .string(jti),
      "sub": "alice", "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
    ])
    return Base64URL.encode(Array(FormEncoding.encode([("logout_token", token)]).utf8))
  }

  /// Every worker holds alice's stored session (`held TAG alice signedIn`).
  func hold(_ workers: [WorkerProcess], tag: String) async throws {
    for worker in workers { worker.send("hold \(tag) alice") }
    for worker in workers {
      let line = try await worker.waitForLine("held \(tag) alice ", timeout: .seconds(45))
      #expect(line == "held \(tag) alice signedIn")
    }
  }

  @Test func aLogoutToOneProcessEndsTheSessionInTheOthersAndItsReplayNothing() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      try await seed(url: server.url, prefix: prefix, accessToken: "at-1")
      let workers = try (0..<4).map { _ in
        try WorkerProcess(
          command: "events-worker",
          arguments: [
            "--redis", server.url, "--prefix", prefix, "--key", Base64URL.encode(Self.secret),
          ])
      }
      defer { for worker in workers { worker.send("exit") } }
      for worker in workers { _ = try await worker.waitForLine("ready", timeout: .seconds(45)) }
      try await hold(workers, tag: "1")

      let body = try Self.logoutBody(jti: "bl-\(prefix)")
      workers[0].send("deliver 1 \(body)")
      #expect(
        try await workers[0].waitForLine("delivered 1 ", timeout: .seconds(45)) == "delivered 1 200"
      )
      for worker in workers {
        let ended = try await worker.waitForLine("ended alice ", timeout: .seconds(45))
        #expect(ended == "ended alice backChannelLogout")
      }

      // Alice signs in again; the captured token, replayed to another process, ends nothing.
      try await seed(url: server.url, prefix: prefix, accessToken: "at-2")
      try await hold(Array(workers.dropFirst()), tag: "2")
      workers[2].send("deliver 2 \(body)")
      #expect(
        try await workers[2].waitForLine("delivered 2 ", timeout: .seconds(45)) == "delivered 2 400"
      )
      let store = try await RedisSessionStore.connect(
        url: server.url, sealing: TestSealing.sealing, options: .init(keyPrefix: prefix),
        environment: [:])
      defer { store.client.close() }
      #expect(try await store.load(key)?.credential.accessToken.revealed == "at-2")
      for worker in workers.dropFirst() {
        worker.send("state 3 alice")
        let state = try await worker.waitForLine("state 3 alice ", timeout: .seconds(45))
        #expect(state == "state 3 alice signedIn")
      }
    }
  }
}
