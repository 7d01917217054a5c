import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Issue 20, item 7: the nonce store replicas share.
@Suite(.redisAvailable, .timeLimit(.minutes(2))) struct RedisNonceStoreTests {
  /// A replica's nonce issuer: its own connection to `server`, the shared `prefix`.
  static func replica(_ server: RedisFixture, prefix: String) async throws -> NonceIssuer {
    let store = try await RedisSessionStore.connect(
      url: server.url, sealing: TestSealing.sealing,
      options: RedisSessionStore.Options(keyPrefix: prefix))
    return NonceIssuer(store: store.nonces())
  }

  @Test func aNonceIssuedOnOneReplicaIsUsedOnceOnAnother() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let first = try await Self.replica(server, prefix: prefix)
      let second = try await Self.replica(server, prefix: prefix)
      let nonce = try await first.issue()
      let keys = try await (first.store as? RedisNonceStore)?.client.send(
        ["KEYS", "\(prefix):nonce:*"])
      #expect(keys?.elements?.count == 1, "under the session store's prefix")
      #expect(keys?.elements?.first?.string?.contains(nonce.revealed) == false, "hashed")
      let winners = await withTaskGroup(of: Bool.self) { group in
        for issuer in [first, second, first, second] {
          group.addTask { (try? await issuer.consume(nonce)) != nil }
        }
        var count = 0
        for await won in group where won { count += 1 }
        return count
      }
      #expect(winners == 1, "single use across replicas")
    }
  }

  @Test func aNonceExpiresInRedis() async throws {
    try await RedisFixture.with { server in
      let store = try await RedisSessionStore.connect(
        url: server.url, sealing: TestSealing.sealing,
        options: RedisSessionStore.Options(keyPrefix: uniquePrefix()))
      let nonces = store.nonces()
      try await nonces.insert("short", expiresAt: Date().addingTimeInterval(0.05))
      try await nonces.insert("long", expiresAt: Date().addingTimeInterval(600))
      try await WaitTimeout.yieldUntil("Redis expires the short nonce") {
        (try? await store.client.send(["DBSIZE"])) == .integer(1)
      }
      #expect(try await nonces.consume("short") == false)
      #expect(try await nonces.consume("long"))
      await #expect(throws: AuthError.self) {
        try await nonces.insert("past", expiresAt: Date().addingTimeInterval(-1))
      }
    }
  }

  /// An Apple app sends the SHA-256 (hex) of the backend's nonce: another replica finds the
  /// nonce by that digest, once.
  @Test func anAppleHashedNonceIsUsedOnceOnAnotherReplica() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let first = try await Self.replica(server, prefix: prefix)
      let second = try await Self.replica(server, prefix: prefix)
      let nonce = try await first.issue()
      let hashed = Secret(HexEncoding.lowercase(SHA256.hash(Array(nonce.revealed.utf8))))
      try await second.consume(hashed)
      await #expect(throws: AuthError.self) { try await first.consume(hashed) }
      await #expect(throws: AuthError.self) { try await first.consume(nonce) }
    }
  }
}
