import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// What a store publishes on a cluster: its writes, deletes and released leases reach every
/// replica's subscription whichever node it listens on (a classic `PUBLISH` crosses the
/// cluster bus), so sign-out everywhere, adoption of newer records and the wake-up of lease
/// waiters work as on one server.
extension RedisClusterTests {
  static let changesKey = SessionKey(provider: "scripted", subject: "alice")

  /// A `LoginClient` on a cluster store of its own under `prefix`, with its sessions restored.
  func clusterReplica(_ cluster: RedisTestCluster, prefix: String) async throws
    -> (LoginClient, SessionActor)
  {
    let store = try cluster.store(.init(keyPrefix: prefix))
    try await store.client.send(["PING"])
    await store.subscriber.waitUntilSubscribed(timeout: .seconds(20))
    let client = try LoginClient(
      providers: [ScriptedProvider(clock: SystemAuthClock())], store: store,
      policy: RefreshPolicy(proactiveMargin: nil))
    try await client.restoreSessions()
    return (client, try #require(client.session(for: Self.changesKey)))
  }

  @Test func replicasOnAClusterAdoptNewerRecordsAndFollowASignOut() async throws {
    let cluster = try await RedisTestCluster.get()
    let prefix = uniquePrefix()
    let writer = try cluster.store(.init(keyPrefix: prefix))
    defer { writer.client.close() }
    let record = try await writer.save(
      StoredSession(
        key: Self.changesKey,
        credential: Credential(
          accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date().addingTimeInterval(3600))),
      expectedVersion: nil)
    let replicas = [
      try await clusterReplica(cluster, prefix: prefix),
      try await clusterReplica(cluster, prefix: prefix),
    ]
    var newer = record
    newer.credential.accessToken = "at-2"
    let saved = try await writer.save(newer, expectedVersion: record.version)
    for (_, session) in replicas {
      // No re-read is due and nothing is in flight: only the written record's message can
      // bring the new token before the old one's hour is up.
      try await WaitTimeout.yieldUntil("the newer record on the replica", timeout: .seconds(20)) {
        await session.credential?.accessToken == "at-2"
      }
      #expect(try await session.freshAccessToken() == "at-2")
    }
    #expect(
      try await writer.delete(Self.changesKey, ifVersion: saved.version, reason: .accessRevoked))
    for (client, session) in replicas {
      try await WaitTimeout.yieldUntil("the sign-out on the replica", timeout: .seconds(20)) {
        session.currentState == .signedOut(.accessRevoked)
      }
      #expect(client.session(for: Self.changesKey) == nil)
    }
  }

  @Test func aLeaseWaiterOnAClusterWakesOnTheReleaseNotAtItsPoll() async throws {
    let cluster = try await RedisTestCluster.get()
    let options = RedisSessionStore.Options(
      keyPrefix: uniquePrefix(), leaseTimeToLive: .seconds(120),
      leasePollInterval: .seconds(600))
    let holder = try cluster.store(options)
    let waiter = try cluster.store(options)
    defer {
      holder.client.close()
      waiter.client.close()
    }
    try await waiter.client.send(["PING"])
    await waiter.subscriber.waitUntilSubscribed(timeout: .seconds(20))
    #expect(waiter.subscriber.isSubscribed)
    let lease = try await holder.lockRefresh(for: Self.changesKey)
    let woken = Locked(false)
    let waiting = Task {
      let lease = try await waiter.lockRefresh(for: Self.changesKey)
      woken.withLock { $0 = true }
      return lease
    }
    defer { waiting.cancel() }
    // Let the waiter try once and start waiting (a release before that is taken at once and
    // proves nothing, but passes: the lease is free by then).
    try await Task.sleep(for: .milliseconds(200))
    await lease.release()
    // The poll alone would wake it after 480 s at the earliest.
    try await WaitTimeout.yieldUntil("the waiter's lease", timeout: .seconds(20)) {
      woken.withLock { $0 }
    }
    let taken = try await waiting.value
    #expect(await taken.isHeld())
    await taken.release()
  }

  @Test func aSubscriberWhoseNodeIsDownListensOnAnotherNodeOfTheCluster() async throws {
    let cluster = try await RedisTestCluster.get()
    var seed = try RedisConfiguration(url: cluster.url, environment: [:])
    seed.commandTimeout = .seconds(30)
    // A port nothing listens on stands for the URL's node, down.
    var dead = seed
    dead.endpoint = .tcp(host: "127.0.0.1", port: try RedisTestServer.freePort())
    let node = seed
    let channel = uniquePrefix() + ":lease-released"
    let heard = Locked<[String]>([])
    let subscriber = RedisSubscriber(
      connector: RedisConnector(configuration: dead), channel: channel,
      alternatives: {
        cluster.ports.dropFirst().map { node.clusterNode(.tcp(host: "127.0.0.1", port: $0)) }
      },
      handler: { payload in heard.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } }
    )
    subscriber.start()
    defer { subscriber.stop() }
    await subscriber.waitUntilSubscribed(timeout: .seconds(20))
    #expect(subscriber.isSubscribed)
    // Published on the first node, which the subscriber is not on: the cluster bus carries it.
    let client = RedisClient(configuration: seed)
    defer { client.close() }
    _ = try await client.send(["PUBLISH", channel, "tag-1"])
    try await WaitTimeout.yieldUntil("the message", timeout: .seconds(20)) {
      heard.withLock { $0 } == ["tag-1"]
    }
  }

  @Test func aClusterStoreListensOnEveryMasterAndHandlesEachMessageOnce() async throws {
    let cluster = try await RedisTestCluster.get()
    let prefix = uniquePrefix()
    let listener = try cluster.store(.init(keyPrefix: prefix))
    let writer = try cluster.store(.init(keyPrefix: prefix))
    defer {
      listener.client.close()
      writer.client.close()
    }
    try await listener.client.send(["PING"])
    await listener.subscriber.waitUntilSubscribed(timeout: .seconds(20))
    listener.listeners.follow()
    let masters = Set(try #require(listener.client.topology.cluster).map.masters)
    #expect(masters.count == 3)
    #expect(listener.listeners.endpoints == masters)
    try await WaitTimeout.yieldUntil("a subscription on every master", timeout: .seconds(20)) {
      listener.listeners.allSubscribed
    }
    let heard = Locked<[SessionStoreChange]>([])
    let stream = try #require(listener.changes())
    let reading = Task {
      for await change in stream { heard.withLock { $0.append(change) } }
    }
    defer { reading.cancel() }
    // Sessions on different masters: each write's hint comes through the store's own
    // subscription and the three masters' listeners, four copies, one reported.
    let writes = 6
    for index in 0..<writes {
      _ = try await writer.save(
        StoredSession(
          key: SessionKey(provider: "scripted", subject: "user-\(index)"),
          credential: Credential(
            accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600))),
        expectedVersion: nil)
    }
    try await WaitTimeout.yieldUntil("every copy of every write", timeout: .seconds(20)) {
      listener.confirmer.hintsSeen >= writes * (masters.count + 1)
        && heard.withLock { $0 }.count >= writes
    }
    // Copies that arrive after the first was confirmed are not even read again.
    #expect(listener.confirmer.rereads < writes * (masters.count + 1))
    let written = heard.withLock { $0 }.filter {
      if case .written = $0 { return true }
      return false
    }
    #expect(written.count == writes)
  }

  @Test func theMasterListenersFollowAFailover() async throws {
    let cluster = try await RedisTestCluster.get()
    let store = try cluster.store(.init(keyPrefix: uniquePrefix()))
    defer { store.client.close() }
    let key = SessionKey(provider: "scripted", subject: "failover-listener")
    let session = StoredSession(
      key: key,
      credential: Credential(
        accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600)))
    let saved = try await store.save(session, expectedVersion: nil)
    store.listeners.follow()
    let slot = HashSlot.slot(of: store.keys.session(tag: RedisKeys.tag(for: key)))
    let (master, replica) = try cluster.masterAndReplica(of: slot)
    let node = { (port: UInt16) in RedisConfiguration.Endpoint.tcp(host: "127.0.0.1", port: port) }
    #expect(store.listeners.endpoints.contains(node(master)))
    try await cluster.failOver(to: replica)
    // The next command on the slot meets MOVED and refreshes the map.
    _ = try await store.save(saved, expectedVersion: saved.version)
    store.listeners.follow()
    let masters = Set(try #require(store.client.topology.cluster).map.masters)
    #expect(masters.contains(node(replica)))
    #expect(!masters.contains(node(master)))
    #expect(store.listeners.endpoints == masters)
    try await WaitTimeout.yieldUntil("a subscription on the new master", timeout: .seconds(20)) {
      store.listeners.allSubscribed
    }
  }
}
