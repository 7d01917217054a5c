import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Redis as untrusted storage: what a client with a narrow ACL, or with write access but no
/// sealing key, can learn and do (issue: sealed records, hints on the wire).
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisUntrustedStorageTests {
  /// Every token-like value of a sample session, which must never appear in clear.
  static let secrets = [
    "access-token-value", "refresh-token-value", "id.token.value", "token-secret-value",
    "ada@example.test", "rotated-access", "rotated-refresh", "verifier-secret",
  ]

  static func containsSecret(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return secrets.first { text.contains($0) }
  }

  /// A session's life on `store`: login, refresh, a lease, a pending login, a sign-out with a
  /// reason. Returns the signed-out key.
  static func lifeOfASession(_ store: RedisSessionStore, subject: String) async throws
    -> SessionKey
  {
    let first = try await store.save(
      SessionStoreContract.sampleSession(subject), expectedVersion: nil)
    var refreshed = first
    refreshed.credential.accessToken = "rotated-access"
    refreshed.credential.refreshToken = "rotated-refresh"
    let lease = try await store.lockRefresh(for: first.key)
    let second = try await store.save(refreshed, expectedVersion: first.version)
    await lease.release()
    try await store.pendingLogins().insert(
      PendingLogin(
        provider: .twitter, state: Secret("state-\(subject)"), redirectURI: "https://a.test/cb",
        codeVerifier: "verifier-secret", createdAt: Date(),
        expiresAt: Date().addingTimeInterval(600)))
    #expect(try await store.delete(second.key, ifVersion: second.version, reason: .accountDeleted))
    return second.key
  }

  /// A client logged in as `user`, a Redis ACL user made for the test with `rules`.
  static func aclClient(_ server: RedisFixture, user: String, rules: [String]) async throws
    -> RedisConfiguration
  {
    let admin = RedisClient(configuration: try RedisConfiguration(url: server.url))
    defer { admin.close() }
    _ = try await admin.send(
      RedisCommand(["ACL", "SETUSER", user, "reset", "on", ">pw-\(user)"] + rules))
    var configuration = try RedisConfiguration(
      url: "redis://\(user):pw-\(user)@127.0.0.1:\(server.port)", environment: [:])
    configuration.commandTimeout = .seconds(30)
    return configuration
  }

  @Test func aSubscribeOnlyClientSeesNoTokenAndOnlyFixedSizeHints() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      let spy = try await Self.aclClient(
        server, user: "spy-\(UInt32.random(in: 0...UInt32.max))",
        rules: ["resetchannels", "&*", "-@all", "+subscribe", "+psubscribe", "+ping"])
      let heard = Locked<[[UInt8]]>([])
      let subscriber = RedisSubscriber(
        connector: RedisConnector(configuration: spy), channel: store.keys.hintChannel,
        handler: { payload in heard.withLock { $0.append(payload) } })
      subscriber.start()
      defer { subscriber.stop() }
      await subscriber.waitUntilSubscribed(timeout: .seconds(20))
      #expect(subscriber.isSubscribed)
      let key = try await Self.lifeOfASession(store, subject: "spied-on")
      // Login, refresh, release, sign-out: four hints.
      try await WaitTimeout.yieldUntil("every hint", timeout: .seconds(20)) {
        heard.withLock { $0.count } >= 4
      }
      let tag = RedisKeys.tag(for: key)
      for payload in heard.withLock({ $0 }) {
        #expect(Self.containsSecret(payload) == nil)
        #expect(payload.count <= RedisStoreMessage.maximumLength)
        let hint = try #require(RedisStoreMessage.parse(payload))
        #expect(hint.tag == tag)
      }
      #expect(
        heard.withLock { $0 }.compactMap(RedisStoreMessage.parse).map(\.kind) == [
          .written, .written, .released, .deleted,
        ])
    }
  }

  @Test func aDumpOfEveryValueShowsNoTokenInClear() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let store = try server.store(.init(keyPrefix: prefix))
      defer { store.client.close() }
      _ = try await Self.lifeOfASession(store, subject: "dumped")
      _ = try await store.save(SessionStoreContract.sampleSession("alive"), expectedVersion: nil)
      var cursor = "0"
      var values = 0
      repeat {
        let reply = try await store.client.send(["SCAN", cursor, "MATCH", "\(prefix):*"])
        let parts = try #require(reply.elements)
        cursor = try #require(parts[0].string)
        for name in (parts[1].elements ?? []).compactMap(\.string) {
          let dump = try await store.client.send(["DUMP", name])
          let bytes = try #require(dump.bytes)
          values += 1
          #expect(Self.containsSecret(bytes) == nil, "\(name)")
        }
      } while cursor != "0"
      // Two session hashes (one a tombstone), a pending login, the index sets.
      #expect(values >= 4)
    }
  }

  @Test func forgedHintsFromAPublishOnlyClientChangeNothing() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let replica = try server.store(.init(keyPrefix: prefix))
      let writer = try server.store(.init(keyPrefix: prefix))
      defer {
        replica.client.close()
        writer.client.close()
      }
      let changes = try #require(replica.changes())
      let heard = Locked<[SessionStoreChange]>([])
      let reading = Task { for await change in changes { heard.withLock { $0.append(change) } } }
      defer { reading.cancel() }
      await replica.subscriber.waitUntilSubscribed(timeout: .seconds(20))
      // The genuine write is heard first, so what follows is measured from a settled feed.
      let saved = try await writer.save(
        SessionStoreContract.sampleSession("victim"), expectedVersion: nil)
      try await WaitTimeout.yieldUntil("the genuine write", timeout: .seconds(20)) {
        heard.withLock { $0 } == [.written(saved)] && replica.confirmer.isIdle
      }
      heard.withLock { $0 = [] }
      let seen = replica.confirmer.hintsSeen
      let unconfirmed = replica.confirmer.unconfirmedHints
      let publisher = RedisClient(
        configuration: try await Self.aclClient(
          server, user: "pub-\(UInt32.random(in: 0...UInt32.max))",
          rules: ["resetchannels", "&*", "-@all", "+publish", "+ping"]))
      defer { publisher.close() }
      let tag = RedisKeys.tag(for: saved.key)
      let forged: [String] = [
        "D\(tag):18446744073709551614", "W\(tag):18446744073709551614", "D\(tag):1",
        // The old format, with a reason and a record of the attacker's choosing.
        "\(tag)\nD18446744073709551614\n{\"reason\":\"accountDeleted\"}",
        "\(tag)\n99\n{\"format\":1}", "garbage",
      ]
      for payload in forged {
        _ = try await publisher.send(["PUBLISH", replica.keys.hintChannel, payload])
      }
      try await WaitTimeout.yieldUntil("every forged hint handled", timeout: .seconds(20)) {
        replica.confirmer.rejectedHints == 3 && replica.confirmer.hintsSeen == seen + 3
          && replica.confirmer.isIdle
      }
      #expect(heard.withLock { $0 }.isEmpty, "\(heard.withLock { $0 })")
      #expect(replica.confirmer.unconfirmedHints > unconfirmed)
      #expect(try await replica.load(saved.key) == saved)
      // The genuine sign-out still arrives, with the reason the tombstone keeps.
      #expect(try await writer.delete(saved.key, ifVersion: saved.version, reason: .userInitiated))
      try await WaitTimeout.yieldUntil("the genuine sign-out", timeout: .seconds(20)) {
        !heard.withLock { $0 }.isEmpty
      }
      #expect(
        heard.withLock { $0 } == [
          .deleted(saved.key, version: saved.version, reason: .userInitiated)
        ])
    }
  }

  @Test func aWriterWithoutTheKeyGetsNothingServed() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      let alice = try await store.save(
        SessionStoreContract.sampleSession("alice"), expectedVersion: nil)
      var aliceAgain = alice
      aliceAgain.credential.accessToken = "rotated-access"
      let aliceNow = try await store.save(aliceAgain, expectedVersion: alice.version)
      let bob = try await store.save(
        SessionStoreContract.sampleSession("bob"), expectedVersion: nil)
      let aliceKey = store.keys.session(tag: RedisKeys.tag(for: alice.key))
      let bobKey = store.keys.session(tag: RedisKeys.tag(for: bob.key))
      let aliceValue = try #require(try await store.client.send(["HGET", aliceKey, "d"]).bytes)
      let bobValue = try #require(try await store.client.send(["HGET", bobKey, "d"]).bytes)

      func expectRefused(_ code: AuthError.Code, _ what: Comment) async throws {
        let error = await #expect(throws: AuthError.self, what) { try await store.load(bob.key) }
        #expect(error?.code == code, what)
        // Kept in place and listed, never set aside or dropped.
        #expect(try await store.client.send(["HEXISTS", bobKey, "d"]).integer == 1, what)
        let snapshot = try await store.loadAll()
        #expect(!snapshot.sessions.contains { $0.key == bob.key }, what)
        #expect(snapshot.failures.map(\.location).contains(bobKey), what)
        #expect(snapshot.sessions.contains { $0.key == alice.key }, what)
        #expect(await store.confirm(tag: RedisKeys.tag(for: bob.key)) == nil, what)
      }

      // Alice's value copied over Bob's (at Bob's version, and at Alice's).
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(bobKey.utf8), Array("d".utf8), aliceValue,
        ]))
      try await expectRefused(.storageTampered, "copied from another key")
      try await store.client.send(["HSET", bobKey, "v", String(aliceNow.version)])
      try await expectRefused(.storageTampered, "copied with its version")
      // One byte flipped.
      var flipped = bobValue
      flipped[flipped.count / 2] ^= 0x01
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(bobKey.utf8), Array("v".utf8), Array(String(bob.version).utf8),
          Array("d".utf8), flipped,
        ]))
      try await expectRefused(.storageTampered, "a byte flipped")
      // Plain JSON, as an unsealed store would write it.
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(bobKey.utf8), Array("d".utf8),
          try RedisSessionStore.encode(bob),
        ]))
      try await expectRefused(.storageTampered, "planted in clear")
      // Bob's genuine value back: served again.
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(bobKey.utf8), Array("d".utf8), bobValue,
        ]))
      #expect(try await store.load(bob.key) == bob)

      // An older version of Alice written back under the current version number.
      try await store.client.send(["HSET", aliceKey, "v", String(alice.version)])
      let old = try #require(try await store.client.send(["HGET", aliceKey, "d"]).bytes)
      try await store.client.send(["HSET", aliceKey, "v", String(aliceNow.version)])
      #expect(old == (try await store.client.send(["HGET", aliceKey, "d"]).bytes))
      let stale = try store.encode(alice, version: alice.version)
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(aliceKey.utf8), Array("d".utf8), stale,
        ]))
      let error = await #expect(throws: AuthError.self) { try await store.load(alice.key) }
      #expect(error?.code == .storageTampered)
    }
  }

  /// The ACL "Many replicas" documents is enough for everything a replica does, and keeps it
  /// in its prefix.
  @Test func theDocumentedACLIsEnough() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      var configuration = try await Self.aclClient(
        server, user: "app-\(UInt32.random(in: 0...UInt32.max))",
        rules: [
          "~\(prefix):*", "&\(prefix):*", "+@read", "+@write", "+@scripting", "+@pubsub",
          "+@connection", "-@dangerous", "+ping", "+wait", "+role", "+cluster|slots",
        ])
      configuration.database = server.database
      let store = RedisSessionStore(
        client: RedisClient(configuration: configuration), sealing: TestSealing.sealing,
        options: .init(keyPrefix: prefix))
      defer { store.client.close() }
      let changes = try #require(store.changes())
      let heard = Locked<[SessionStoreChange]>([])
      let reading = Task { for await change in changes { heard.withLock { $0.append(change) } } }
      defer { reading.cancel() }
      await store.subscriber.waitUntilSubscribed(timeout: .seconds(20))
      #expect(store.subscriber.isSubscribed)
      let key = try await Self.lifeOfASession(store, subject: "acl")
      #expect(try await store.deletionReason(for: key) == .accountDeleted)
      #expect(try await store.loadAll().sessions.isEmpty)
      #expect(try await store.reseal() == .init(current: 1))
      try await WaitTimeout.yieldUntil("the sign-out on the feed", timeout: .seconds(20)) {
        heard.withLock { $0 }.contains(.deleted(key, version: 2, reason: .accountDeleted))
      }
      // Outside its prefix it can do nothing.
      await #expect(throws: (any Error).self) {
        try await store.client.send(["GET", "other:{x}:s"]).bytes
      }
    }
  }

  @Test func aRecordSealedWithAnotherKeyIsTypedAndResealedAfterRotation() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let old = try SealingKey.generate(id: "old")
      let new = try SealingKey.generate(id: "new")
      let before = try server.store(
        .init(keyPrefix: prefix), sealing: .keyRing(try SealingKeyRing(sealingKey: old)))
      let newOnly = try server.store(
        .init(keyPrefix: prefix), sealing: .keyRing(try SealingKeyRing(sealingKey: new)))
      let rotated = try server.store(
        .init(keyPrefix: prefix),
        sealing: .keyRing(try SealingKeyRing(sealingKey: new, openingAlso: [old])))
      defer {
        for store in [before, newOnly, rotated] { store.client.close() }
      }
      let saved = try await before.save(
        SessionStoreContract.sampleSession("rotating"), expectedVersion: nil)
      let gone = try await before.save(
        SessionStoreContract.sampleSession("gone"), expectedVersion: nil)
      #expect(try await before.delete(gone.key, ifVersion: gone.version, reason: .userInitiated))

      let error = await #expect(throws: AuthError.self) { try await newOnly.load(saved.key) }
      #expect(error?.code == .storageSealedWithUnknownKey)
      #expect(try await newOnly.deletionReason(for: gone.key) == nil)
      #expect(try await rotated.load(saved.key) == saved)

      let report = try await rotated.reseal()
      #expect(report.resealed == 2)
      #expect(report.unopenable == 0)
      #expect(try await newOnly.load(saved.key) == saved, "no version moved")
      #expect(try await newOnly.deletionReason(for: gone.key) == .userInitiated)
      #expect(try await rotated.reseal() == .init(current: 2))
      let stuck = try await before.reseal()
      #expect(stuck.unopenable == 2)
    }
  }

  @Test func aNewRecordAfterADeletionIsSealedForTheVersionItGets() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      var session = try await store.save(
        SessionStoreContract.sampleSession("again"), expectedVersion: nil)
      for _ in 0..<3 {
        #expect(try await store.delete(session.key, ifVersion: session.version))
        let next = try await store.save(session, expectedVersion: nil)
        #expect(next.version == session.version + 1)
        #expect(try await store.load(session.key) == next)
        session = next
      }
      try await store.delete(session.key)
      #expect(try await store.load(session.key) == nil)
    }
  }
}
