import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// Account links in Redis: the contract, sealing, and what a writer of the Redis without the
/// sealing key can plant. Nothing planted puts a key under an account it is not linked to,
/// and so nothing planted makes `signOut(account:)` sign out someone else.
@Suite(.redisAvailable, .timeLimit(.minutes(3))) struct RedisAccountLinkTests {
  let ada = SessionKey(provider: .line, subject: "ada-line")
  let mallorysKey = SessionKey(provider: .facebook, subject: "mallory-fb")

  @Test(arguments: AccountLinkStoreContract.allCases)
  func redisStoreKeepsTheLinkContract(check: AccountLinkStoreContract) async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      try await check.run(on: store)
    }
  }

  @Test func anUnsealedStoreKeepsTheLinkContractToo() async throws {
    try await RedisFixture.with { server in
      for check in AccountLinkStoreContract.allCases {
        let store = try server.store(.init(keyPrefix: uniquePrefix()), sealing: .unsealed)
        defer { store.client.close() }
        try await check.run(on: store)
      }
    }
  }

  @Test func linksAreSealedAndEveryReplicaSeesThem() async throws {
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let here = try server.store(.init(keyPrefix: prefix))
      let there = try server.store(.init(keyPrefix: prefix))
      defer {
        here.client.close()
        there.client.close()
      }
      let account = try AccountID("account-in-clear")
      try await here.link(ada, to: account)
      #expect(try await there.account(of: ada) == account)
      #expect(try await there.sessionKeys(of: account) == [ada])
      let names = try await here.client.send(["KEYS", "\(prefix):*"]).elements ?? []
      #expect(names.count == 2, "one link and one index")
      for name in names.compactMap(\.string) {
        let dump = try await here.client.send(["DUMP", name]).bytes ?? []
        let text = String(decoding: dump, as: UTF8.self)
        #expect(!text.contains("account-in-clear") && !text.contains("ada-line"), "\(name)")
        #expect(!name.contains("account-in-clear") && !name.contains("ada-line"))
      }
    }
  }

  /// Mallory can write the Redis but has no sealing key: she copies Ada's sealed index entry
  /// into her own account's index, and Ada's sealed link over her own key's link.
  @Test func copiedSealedValuesDoNotMoveAKeyToAnotherAccount() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()))
      defer { store.client.close() }
      let adasAccount = try AccountID("ada")
      let mallory = try AccountID("mallory")
      try await store.link(ada, to: adasAccount)
      try await store.link(mallorysKey, to: mallory)
      let keys = store.keys
      let adaTag = RedisKeys.tag(for: ada)
      let adaEntry = try #require(
        try await store.client.send(
          ["HGET", keys.account(tag: RedisKeys.tag(for: adasAccount)), adaTag]
        ).bytes)
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(keys.account(tag: RedisKeys.tag(for: mallory)).utf8),
          Array(adaTag.utf8), adaEntry,
        ]))
      #expect(try await store.sessionKeys(of: mallory) == [mallorysKey])
      // Her own link copied over Ada's: it is bound to her key's name, so it does not open.
      let mallorysLink = try #require(
        try await store.client.send(["GET", keys.link(tag: RedisKeys.tag(for: mallorysKey))])
          .bytes)
      try await store.client.send(
        RedisCommand(arguments: [
          Array("SET".utf8), Array(keys.link(tag: adaTag).utf8), mallorysLink,
        ]))
      await expectCode(.storageTampered) { try await store.account(of: ada) }
      #expect(try await store.sessionKeys(of: mallory) == [mallorysKey])
      #expect(try await store.sessionKeys(of: adasAccount) == [], "Ada's link no longer opens")
      await expectCode(.storageTampered) { try await store.link(ada, to: mallory) }
    }
  }

  /// On an unsealed (development) store Mallory can write plain entries: an index entry
  /// naming Ada's key is still ignored, because Ada's link names Ada.
  @Test func aPlantedIndexEntryDoesNotSignOutAnotherUser() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()), sealing: .unsealed)
      defer { store.client.close() }
      let adasAccount = try AccountID("ada")
      let mallory = try AccountID("mallory")
      let saved = try await store.save(
        SessionStoreContract.sampleSession("ada-line", provider: .line), expectedVersion: nil)
      try await store.link(ada, to: adasAccount)
      try await store.link(mallorysKey, to: mallory)
      let keys = store.keys
      let plantedKey = Array(try JSONEncoder().encode(ada))
      try await store.client.send(
        RedisCommand(arguments: [
          Array("HSET".utf8), Array(keys.account(tag: RedisKeys.tag(for: mallory)).utf8),
          Array(RedisKeys.tag(for: ada).utf8), plantedKey,
          Array("garbage-field".utf8), Array("garbage".utf8),
          Array(RedisKeys.tag(for: mallorysKey).utf8), plantedKey,
        ]))
      #expect(try await store.sessionKeys(of: mallory) == [], "every planted entry is ignored")
      let client = try LoginClient(
        providers: [ScriptedProvider(id: .line, clock: SystemAuthClock())], store: store,
        policy: RefreshPolicy(proactiveMargin: nil))
      #expect(try await client.signOut(account: mallory, revoke: false).isEmpty)
      #expect(try await store.load(ada) == saved, "Ada is still signed in")
    }
  }

  @Test func garbageLinksAreTypedErrors() async throws {
    try await RedisFixture.with { server in
      for sealing in [TestSealing.sealing, RecordSealing.unsealed] {
        let store = try server.store(.init(keyPrefix: uniquePrefix()), sealing: sealing)
        defer { store.client.close() }
        let linkKey = store.keys.link(tag: RedisKeys.tag(for: ada))
        // Unsealed (development), a plain valid id is a link like any other.
        let plainID = sealing.isSealing ? ["plain-id"] : []
        for garbage in ["", "\u{0}", String(repeating: "x", count: 300)] + plainID {
          try await store.client.send(["SET", linkKey, garbage])
          let error = await #expect(throws: AuthError.self) { try await store.account(of: ada) }
          #expect(
            [.storageTampered, .storageCorrupt, .storageSealedWithUnknownKey].contains(
              error?.code), "\(String(describing: error))")
          await #expect(throws: AuthError.self) {
            try await store.link(ada, to: try AccountID("ada"))
          }
        }
      }
    }
  }

  @Test func staleEntriesDoNotCountAgainstTheBound() async throws {
    try await RedisFixture.with { server in
      let store = try server.store(.init(keyPrefix: uniquePrefix()), sealing: .unsealed)
      defer { store.client.close() }
      let account = try AccountID("ada")
      let indexKey = store.keys.account(tag: RedisKeys.tag(for: account))
      // A full index of planted entries whose keys are linked nowhere.
      var command = [Array("HSET".utf8), Array(indexKey.utf8)]
      for index in 0..<AccountID.maximumLinks {
        let key = SessionKey(provider: .line, subject: "planted-\(index)")
        command += [Array(RedisKeys.tag(for: key).utf8), Array(try JSONEncoder().encode(key))]
      }
      try await store.client.send(RedisCommand(arguments: command))
      try await store.link(ada, to: account)
      #expect(try await store.sessionKeys(of: account) == [ada])
      #expect(try await store.client.send(["HLEN", indexKey]).integer == 1, "stale entries pruned")
    }
  }

  @Test func linksAreResealedAfterAKeyRotation() async throws {
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
      let account = try AccountID("ada")
      try await before.link(ada, to: account)
      await expectCode(.storageSealedWithUnknownKey) { try await newOnly.account(of: ada) }
      let report = try await rotated.reseal()
      #expect(report.resealed == 2, "the link and its index entry: \(report)")
      #expect(report.unopenable == 0 && !report.linksNotVisited)
      #expect(try await newOnly.account(of: ada) == account)
      #expect(try await newOnly.sessionKeys(of: account) == [ada])
      #expect(try await rotated.reseal() == .init(current: 2))
    }
  }

  func expectCode<T>(
    _ code: AuthError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
  ) async {
    let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
      _ = try await body()
    }
    #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
  }
}

/// The contract on a real Redis Cluster, where a link and its account's index live in
/// different hash slots.
@Suite(redisClusterAvailable, .serialized, .timeLimit(.minutes(5)))
struct RedisClusterAccountLinkTests {
  @Test func clusterStoreKeepsTheLinkContract() async throws {
    let cluster = try await RedisTestCluster.get()
    for check in AccountLinkStoreContract.allCases {
      let store = try cluster.store(
        RedisSessionStore.Options(keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(120)))
      defer { store.client.close() }
      try await check.run(on: store)
      #expect(store.client.isCluster)
    }
  }
}
