import Foundation
import SocialLogin
import SocialLoginCrypto

/// A `SessionStore` in Redis, shared by every replica of a service: versioned
/// compare-and-swap writes, listing by provider, and a refresh lease that keeps two replicas
/// from ever spending one refresh token twice.
///
/// ```swift
/// let keys = try SealingKeyRing.load(contentsOf: "/run/secrets/sociallogin-sealing.keys")
/// let store = try await RedisSessionStore.connect(
///   url: "rediss://cache.example.com:6379/2", sealing: .keyRing(keys))
/// let client = try LoginClient(providers: [.twitter(clientID: id, clientSecret: secret)],
///                              store: store)
/// ```
///
/// ## Redis is untrusted storage
/// - Every value that carries a token or an identity (records, tombstones' reasons, pending
///   logins) is sealed with the `RecordSealing` the store was given before it leaves the
///   process, bound to its key name and version: a value copied to another session's key,
///   altered, or written back at another version does not open (`storageTampered`), and one
///   sealed with a key the ring lacks is `storageSealedWithUnknownKey`. Neither is served,
///   adopted or set aside, and neither signs anyone out by itself.
/// - The store's channel (`<prefix>:hints`) carries only fixed-size hints — which session,
///   which version, what kind of change: a replica acts on what it re-reads from the store and
///   opens, never on what a message says.
///
/// ## Guarantees
/// - ``save(_:expectedVersion:)`` is one Lua script comparing and bumping the version field, so
///   of two replicas writing the same version exactly one wins. A delete leaves a tombstone with
///   the last version, so a record created afterwards continues from it (no ABA).
/// - ``lockRefresh(for:)`` is `SET NX PX` with a random owner token. While the refresh runs the
///   lease is **renewed** every third of its time to live (oauth2-proxy's lock is not, so a slow
///   provider lets a second replica spend the same token). It is released by a
///   compare-and-delete that publishes a message, so waiting replicas retry at once instead of
///   at their next poll. Before the refresh request is sent, the holder records its **intent
///   to spend** (`SpendIntent`) and a **spend claim** on the session's refresh token that
///   outlives the lease (``Options/spendClaimTimeToLive``, or half the provider's
///   ``Options/refreshTokenReuseGrace``): a leader whose lease lapsed while Redis refused its
///   renewals (a failover) may have spent the token, so no other replica spends it again until
///   the leader saves, releases, or the claim expires. A replica that dies holding the lease
///   is replaced once its lease lapses (it died before its intent: nothing was spent) or its
///   claim lapses (after: the successor finds the intent and knows an answer may be lost).
/// - The session (through ``lockRefresh(for:unlessNewerThan:)``) waits for the lease with one
///   script that also compares the stored version, and every successful write publishes the
///   same message: replicas waiting for another's refresh wake the moment its result is
///   written and adopt it in one round trip, all at once, instead of taking the lease in turn
///   only to re-read.
/// - Fencing: a leader that stalls past its lease (a paused VM, a long GC) and comes back finds
///   its compare-and-swap rejected (the new leader bumped the version) and `RefreshLease.isHeld()`
///   false, so the session adopts the newer record instead of overwriting it.
/// - A record that cannot be decoded is renamed to `…:corrupt:<time>-<random>` (same hash
///   slot), reported as `storageCorrupt`, and never hides the others.
/// - With a refresh-token lifetime known for the provider (``Options/refreshTokenLifetimes``),
///   each write sets the record's time to live to it, so dead sessions leave Redis by
///   themselves; records of other providers live ``Options/unknownLifetimeTimeToLive``
///   (180 days) past their last write.
///
/// ## What no store can save
/// If the provider spends a rotating refresh token (X) and the leader dies before it persisted
/// the answer, the new token exists only in a dead process. The next leader spends the old
/// token, the provider refuses it, the session re-reads once and then signs out with a typed
/// reason (`refreshTokenRevoked`/`reuseDetected`): a clean sign-out, never a hang or a retry
/// loop. Only the provider could prevent it (a grace period for the previous token).
///
/// Redis without persistence loses every session on restart (they are then signed out as
/// `storageLost`); use AOF or replicas. A URL naming any node of a Redis Cluster works: the
/// client routes every command to its key's master and follows redirects, and the store's
/// messages reach every replica over the cluster bus (see <doc:ManyReplicas>).
public final class RedisSessionStore: SessionStore {
  /// Tuning of a store.
  public struct Options: Sendable {
    /// The prefix of every key, so several services can share one database. Default
    /// `sociallogin`.
    public var keyPrefix: String
    /// How long a refresh lease lives without renewal; renewed every third of it while the
    /// refresh runs. Default 10 s. A dead leader is replaced once it lapses, or once its spend
    /// claim lapses too when it had recorded its intent to spend (``spendClaimTimeToLive``).
    public var leaseTimeToLive: Duration
    /// How often a replica waiting for another's lease retries when no release message
    /// arrives (messages are lost while the subscription reconnects). Default 250 ms.
    public var leasePollInterval: Duration
    /// The refresh-token lifetime per provider, when the provider documents one. A record's time
    /// to live is set to it on every write (never shorter than the access token's remaining
    /// life). Providers without an entry get ``unknownLifetimeTimeToLive``.
    public var refreshTokenLifetimes: [ProviderID: Duration]
    /// The time to live of records whose provider has no entry in ``refreshTokenLifetimes``
    /// (X documents none; Firebase's never end): 180 days by default, renewed by every write.
    /// A session in use is rewritten at every refresh (X's access tokens live two hours), so
    /// only a session nobody used for that long expires — then its user signs in again, as with
    /// a session cookie's maximum age — instead of dead records piling up in Redis forever.
    /// `nil` keeps them until they are deleted.
    public var unknownLifetimeTimeToLive: Duration?
    /// How long taking a lease waits for one replica to have it (`WAIT 1 <ms>`, pipelined after
    /// the lease), when the master has replicas, before the refresh token is spent: a lease
    /// only the master held dies with it in a failover. When no replica confirms in time the
    /// refresh goes ahead, guarded by the fenced version check, and
    /// ``RedisSessionStore/leaseReplicationTimeouts`` counts it. `.zero` never waits. Default
    /// 100 ms. See <doc:ManyReplicas#The-lease-across-a-failover>.
    public var leaseReplicaWait: Duration
    /// How long the claim a lease holder takes on the session's refresh token, as it records
    /// its intent to spend it (just before the request is sent), outlives the lease's last
    /// renewal when its holder neither saves nor releases. While it lives, no other store
    /// takes the lease: a holder whose lease lapsed — a failover refusing its renewals and its
    /// write for longer than ``leaseTimeToLive``, a stall — may have spent the refresh token
    /// and be about to save what it got, and a rotating provider refuses a second spend (the
    /// other replica would sign the user out). A holder that stops for good (a crash between
    /// spending and saving) holds its session's refresh off for this long, then the next
    /// holder finds its intent. A holder killed before it recorded the intent holds nothing
    /// off: its lease lapses and the next holder spends at once. Default 60 s; shortened per
    /// provider by ``refreshTokenReuseGrace``. See
    /// <doc:ManyReplicas#The-lease-across-a-failover>.
    public var spendClaimTimeToLive: Duration

    /// How long each provider keeps honouring a refresh token it has just rotated, when it
    /// has such a grace period (Okta's "grace period for token rotation", Auth0's "reuse
    /// interval", django-oauth-toolkit's `REFRESH_TOKEN_GRACE_PERIOD_SECONDS`; X, Kakao and
    /// most social providers have none). Default: none.
    ///
    /// It bounds how long a replica waits for the spend claim of a leader that recorded its
    /// intent to spend a token and then went silent (``spendClaimWait(for:)``): to half the
    /// grace, so that if the leader was killed after the provider spent the token, the
    /// successor's retry of the same token still lands inside the grace and the session goes
    /// on. Keep ``leaseTimeToLive`` below half the grace too: a dead leader's lease must lapse
    /// first.
    public var refreshTokenReuseGrace: [ProviderID: Duration]

    /// How long the spend claim of a session of `provider` outlives its holder's last sign of
    /// life (a renewal of its lease): ``spendClaimTimeToLive``, or half the provider's
    /// ``refreshTokenReuseGrace`` when that is shorter.
    public func spendClaimWait(for provider: ProviderID) -> Duration {
      guard let grace = refreshTokenReuseGrace[provider] else { return spendClaimTimeToLive }
      return min(spendClaimTimeToLive, grace / 2)
    }

    /// The default of ``unknownLifetimeTimeToLive``: 180 days.
    public static let defaultUnknownLifetimeTimeToLive = Duration.seconds(180 * 24 * 3600)

    /// Creates options.
    public init(
      keyPrefix: String = "sociallogin", leaseTimeToLive: Duration = .seconds(10),
      leasePollInterval: Duration = .milliseconds(250),
      refreshTokenLifetimes: [ProviderID: Duration] = [:],
      unknownLifetimeTimeToLive: Duration? = defaultUnknownLifetimeTimeToLive,
      leaseReplicaWait: Duration = .milliseconds(100),
      spendClaimTimeToLive: Duration = .seconds(60),
      refreshTokenReuseGrace: [ProviderID: Duration] = [:]
    ) {
      self.refreshTokenReuseGrace = refreshTokenReuseGrace
      self.keyPrefix = keyPrefix
      self.leaseTimeToLive = leaseTimeToLive
      self.leasePollInterval = leasePollInterval
      self.refreshTokenLifetimes = refreshTokenLifetimes
      self.unknownLifetimeTimeToLive = unknownLifetimeTimeToLive
      self.leaseReplicaWait = leaseReplicaWait
      self.spendClaimTimeToLive = spendClaimTimeToLive
    }
  }

  /// The client the store talks through.
  public let client: RedisClient
  /// The store's options.
  public let options: Options
  /// How the store seals what it writes and opens what it reads.
  public let sealing: RecordSealing
  let keys: RedisKeys
  let signals = LeaseSignals()
  /// Every write and delete that any replica made, as this store's subscription heard them
  /// (``changes()``).
  let feed = SessionStoreChangeFeed()
  let subscriber: RedisSubscriber
  /// On a cluster, a subscription on each master beside ``subscriber`` (see
  /// ``MasterListeners``).
  let listeners: MasterListeners
  /// The changes already confirmed and reported, so the copies of a hint (one per master on a
  /// cluster) are handled once.
  let messageCopies = RedisMessageCopies()
  /// Re-reads the sessions that hints name before anything is reported (see
  /// ``RedisChangeConfirmer``).
  let confirmer: RedisChangeConfirmer
  /// How long an intent outlives its holder: long after any claim, so that the next holder
  /// finds it whenever it comes (a save, a release or a deletion ends it sooner).
  static let intentMilliseconds = "86400000"

  /// The intent a lease script's reply `{1, intent}` carries, when another store recorded it
  /// (this store's own flights settle theirs; see ``RedisScripts/acquireLease``). The value is
  /// Redis's: its shape is checked and anything else counts as none.
  func interruptedIntent(_ parts: [RESPValue]) -> SpendIntent? {
    guard parts.count == 2, let bytes = parts[1].bytes, bytes.count <= 160 else { return nil }
    let fields = String(decoding: bytes, as: UTF8.self).split(
      separator: "|", omittingEmptySubsequences: false)
    guard fields.count == 3, !fields[0].hasPrefix(claimPrefix) else { return nil }
    return SpendIntent(digest: fields[1], owner: fields[0], milliseconds: fields[2])
  }

  /// Test hook: while set, leases are not renewed (a stalled leader).
  let renewalsPaused = Locked(false)
  /// Sends the renewals of this store's held leases, off the cooperative pool.
  let renewer: LeaseRenewer
  /// What the leases' `WAIT 1` answered.
  let replication = LeaseReplication()
  /// This store's prefix of spend claims (`<random>:`, then the lease's owner token): a claim
  /// of this store never keeps this store's own sessions from taking the lease again (to
  /// save tokens they hold after their lease lapsed).
  let claimPrefix = HexEncoding.lowercase(SecureRandom.bytes(count: 8)) + ":"
  /// Lease attempts that found another store's spend claim alive.
  let claimWaits = Locked(0)

  /// How many times taking a lease found another replica's spend claim alive (its lease had
  /// lapsed before it saved what it spent the refresh token for) and waited instead of taking
  /// the lease: each is a second spend of a refresh token that did not happen.
  public var spendClaimWaits: Int { claimWaits.withLock { $0 } }

  /// The spend claim's time to live in milliseconds for sessions of `provider`
  /// (``Options/spendClaimWait(for:)``).
  func claimMilliseconds(for provider: ProviderID) -> String {
    String(Self.milliseconds(options.spendClaimWait(for: provider)))
  }

  /// Creates a store on `client`. The hint subscription starts at once; use
  /// ``connect(url:sealing:options:environment:)`` to also check the server and credentials up
  /// front.
  ///
  /// - Parameters:
  ///   - client: The Redis client.
  ///   - sealing: How records are protected from whoever can read or write the Redis:
  ///     `.keyRing(ring)` in production; `.unsealed` only for development, where anyone who can
  ///     read the Redis reads every user's tokens and anyone who can write it can plant a
  ///     session.
  ///   - options: Key prefix and lease timing.
  public init(client: RedisClient, sealing: RecordSealing, options: Options = Options()) {
    self.client = client
    self.options = options
    self.sealing = sealing
    keys = RedisKeys(prefix: options.keyPrefix)
    renewer = client.makeLeaseRenewer(name: options.keyPrefix)
    let signals = self.signals
    let feed = self.feed
    let link = Locked(false)
    let confirmer = RedisChangeConfirmer(feed: feed, copies: messageCopies)
    self.confirmer = confirmer
    let deliver: @Sendable ([UInt8]) -> Void = { payload in
      // The shape is checked before anything else looks at the payload.
      guard let message = RedisStoreMessage.parse(payload) else {
        confirmer.countRejected()
        return
      }
      signals.fire(message.tag)
      if message.kind != .released, feed.hasSubscribers { confirmer.enqueue(message) }
    }
    let listeners = MasterListeners(client: client, channel: keys.hintChannel, handler: deliver)
    self.listeners = listeners
    subscriber = client.makeSubscriber(
      channel: keys.hintChannel,
      onLink: { up in
        // The first subscription starts the feed; later ones follow a loss, and whatever was
        // published in between was missed.
        let resumed = link.withLock { everUp in
          defer { everUp = true }
          return everUp
        }
        if !up {
          feed.publish(.interrupted)
        } else {
          listeners.follow()
          if resumed { feed.publish(.resumed) }
        }
      },
      handler: { payload in
        deliver(payload)
        listeners.follow()
      })
    confirmer.reader = { [weak self] tag in await self?.confirm(tag: tag) }
    subscriber.start()
  }

  deinit {
    subscriber.stop()
    listeners.stop()
  }

  /// A pending-login store on this store's ``client`` and under its key prefix
  /// (``Options/keyPrefix``), so every replica's `beginLogin` and callback meet in the same
  /// Redis without repeating the client or the prefix.
  ///
  /// ```swift
  /// let client = try LoginClient(
  ///   providers: [...], store: store, pendingLogins: store.pendingLogins())
  /// ```
  ///
  /// - Parameter clock: The clock that checks a login's expiry when it is stored and taken.
  public func pendingLogins(clock: any AuthClock = SystemAuthClock()) -> RedisPendingLoginStore {
    RedisPendingLoginStore(
      client: client, sealing: sealing, keyPrefix: options.keyPrefix, clock: clock)
  }

  /// Connects to the Redis at `url` (`redis://user:pass@host:port/db`, `rediss://...` for
  /// TLS, `unix:///path?db=N`; password also from `SOCIALLOGIN_REDIS_PASSWORD`, a `rediss://`
  /// URL's CA and client certificate from `SOCIALLOGIN_REDIS_CA_FILE`, `..._CERT_FILE` and
  /// `..._KEY_FILE`), checks it answers and accepts the credentials, and returns a store on it:
  /// the one call a CLI's `--store redis://...` needs.
  ///
  /// - Parameters:
  ///   - url: The server; see ``RedisConfiguration/init(url:environment:)``.
  ///   - sealing: How records are protected (see ``init(client:sealing:options:)``).
  ///   - options: Key prefix and lease timing.
  ///   - environment: Where those variables are read: the process's environment by default.
  /// - Throws: `AuthError` `.configuration` for a bad URL or refused credentials,
  ///   `.storageFailed` when the server cannot be reached or its TLS certificate fails
  ///   verification (the `underlying` ``RedisError`` says which check).
  public static func connect(
    url: String, sealing: RecordSealing, options: Options = Options(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws -> RedisSessionStore {
    let configuration: RedisConfiguration
    do {
      configuration = try RedisConfiguration(url: url, environment: environment)
    } catch {
      throw AuthError(.configuration, "Redis URL: \(error.message)", underlying: error)
    }
    let store = RedisSessionStore(
      client: RedisClient(configuration: configuration), sealing: sealing, options: options)
    do {
      try await store.client.send(["PING"])
    } catch {
      store.client.close()
      throw storeError(error, "connecting to \(configuration.endpoint)")
    }
    await store.subscriber.waitUntilSubscribed(timeout: .seconds(1))
    return store
  }

  // MARK: - SessionStore

  /// Reads the session stored under `key`, or `nil`.
  ///
  /// - Throws: `storageCorrupt` after setting an unreadable record aside (the next call
  ///   returns `nil`); `storageTampered` or `storageSealedWithUnknownKey` for a record whose
  ///   seal does not open (left in place); `storageFailed` when Redis cannot be reached.
  public func load(_ key: SessionKey) async throws -> StoredSession? {
    let tag = RedisKeys.tag(for: key)
    let sessionKey = keys.session(tag: tag)
    let reply: RESPValue
    do {
      reply = try await client.pipeline([RedisCommand(["HMGET", sessionKey, "v", "d"])])[0]
    } catch {
      throw Self.storeError(error, "reading a session", key: key)
    }
    do {
      return try await interpret(reply, tag: tag, key: key)
    } catch let corrupt as CorruptRecord {
      throw corrupt.error
    }
  }

  /// Reads every session, ordered by key; unreadable records are set aside and reported in
  /// `StoreSnapshot.failures`, and so are records whose seal does not open (left in place).
  public func loadAll() async throws -> StoreSnapshot {
    let providers: [ProviderID]
    do {
      let reply = try await client.send(["SMEMBERS", keys.providers])
      providers = (reply.elements ?? []).compactMap { $0.string.map(ProviderID.init(rawValue:)) }
    } catch {
      throw Self.storeError(error, "listing providers")
    }
    var snapshot = StoreSnapshot(sessions: [])
    for provider in providers {
      let part = try await loadAll(provider: provider)
      snapshot.sessions += part.sessions
      snapshot.failures += part.failures
    }
    snapshot.sessions.sort { $0.key < $1.key }
    return snapshot
  }

  /// Reads every session of one provider, ordered by key (one `SMEMBERS`, then one pipelined
  /// `HMGET` per session).
  public func loadAll(provider: ProviderID) async throws -> StoreSnapshot {
    let indexKey = keys.index(provider: provider)
    let tags: [String]
    do {
      let reply = try await client.send(["SMEMBERS", indexKey])
      tags = (reply.elements ?? []).compactMap(\.string).sorted()
    } catch {
      throw Self.storeError(error, "listing sessions", key: nil)
    }
    var snapshot = StoreSnapshot(sessions: [])
    var stale: [String] = []
    for chunk in stride(from: 0, to: tags.count, by: 512).map({
      tags[$0..<min($0 + 512, tags.count)]
    }) {
      let replies: [RESPValue]
      do {
        replies = try await client.pipeline(
          chunk.map { RedisCommand(["HMGET", keys.session(tag: $0), "v", "d"]) })
      } catch {
        throw Self.storeError(error, "reading sessions")
      }
      for (tag, reply) in zip(chunk, replies) {
        do {
          if let session = try await interpret(reply, tag: tag, key: nil) {
            snapshot.sessions.append(session)
          } else {
            stale.append(tag)
          }
        } catch let corrupt as CorruptRecord {
          snapshot.failures.append(
            StoreFailure(
              location: keys.session(tag: tag), quarantinedAt: corrupt.quarantinedAt,
              error: corrupt.error))
          // A record whose seal does not open stays where it is, and listed.
          if !corrupt.keptInPlace { stale.append(tag) }
        }
      }
    }
    if !stale.isEmpty {
      // Deleted or expired records: drop them from the index (best effort).
      _ = try? await client.send(RedisCommand(["SREM", indexKey] + stale))
    }
    snapshot.sessions.sort { $0.key < $1.key }
    return snapshot
  }

  /// Writes `session` if the stored version equals `expectedVersion` (`nil`: only when absent)
  /// and returns it with its new version; `storageConflict` otherwise.
  public func save(_ session: StoredSession, expectedVersion: UInt64?) async throws
    -> StoredSession
  {
    let tag = RedisKeys.tag(for: session.key)
    let ttl = timeToLive(for: session)
    // The record is sealed for the version it will get: the expected one plus one, or for a
    // new record the tombstone's plus one (guessed 0; the script names the right one).
    var base = expectedVersion ?? 0
    var reply: RESPValue = .null
    for _ in 0..<3 {
      guard base < UInt64.max - 1 else { break }
      let record = try encode(session, version: base + 1)
      let arguments: [[UInt8]] = [
        Array((expectedVersion.map(String.init) ?? "").utf8), record, Array(String(ttl).utf8),
        Array(keys.hintChannel.utf8), Array(tag.utf8), Array(String(base).utf8),
      ]
      do {
        reply = try await evaluate(
          RedisScripts.save,
          keys: [keys.session(tag: tag), keys.spendClaim(tag: tag), keys.spendIntent(tag: tag)],
          arguments: arguments,
          alongside: [
            RedisCommand(["SADD", keys.providers, session.key.provider.rawValue]),
            RedisCommand(["SADD", keys.index(provider: session.key.provider), tag]),
          ])
      } catch {
        throw Self.storeError(error, "writing a session", key: session.key)
      }
      guard let parts = reply.elements, parts.count == 2, parts[0].integer == 4,
        let tombstone = parts[1].bytes.flatMap({ RedisStoreMessage.decimal($0[...]) })
      else { break }
      base = tombstone
    }
    guard let parts = reply.elements, parts.count == 2, let outcome = parts[0].integer,
      outcome == 0 || outcome == 1
    else {
      throw AuthError(
        .storageFailed, "Redis session store: unexpected reply to a write.",
        provider: session.key.provider)
    }
    guard outcome == 1 else {
      let found = parts[1].string.flatMap { UInt64($0) }
      if parts[1].isNull == false, found == nil {
        // The stored version is garbage: set the record aside; a retry will create it anew.
        _ = try? await load(session.key)
      }
      throw AuthError.storageConflict(key: session.key, expected: expectedVersion, found: found)
    }
    guard let version = parts[1].string.flatMap({ UInt64($0) }) else {
      throw AuthError(
        .storageFailed, "Redis session store: the new version is not a number.",
        provider: session.key.provider)
    }
    var stored = session
    stored.version = version
    return stored
  }

  /// Deletes the session under `key`, leaving a tombstone with its last version, and tells
  /// every replica (``changes()``).
  public func delete(_ key: SessionKey) async throws {
    let sessionKey = keys.session(tag: RedisKeys.tag(for: key))
    // The tombstone's notice is sealed for the deleted version: read it, delete at it, and
    // read again if another replica wrote in between.
    for _ in 0..<8 {
      let reply: RESPValue
      do {
        reply = try await client.send(["HGET", sessionKey, "v"])
      } catch {
        throw Self.storeError(error, "deleting a session", key: key)
      }
      guard let text = reply.bytes else { return }
      guard let version = RedisStoreMessage.decimal(text[...]) else {
        // An unreadable version: set the record aside instead.
        _ = try? await load(key)
        return
      }
      if try await delete(key, ifVersion: version, recording: nil) { return }
    }
    throw AuthError(
      .storageConflict, "Redis session store: the session kept changing while it was deleted.",
      provider: key.provider)
  }

  /// Deletes the session under `key` only if it is at `version` (one script), leaving a
  /// tombstone with that version; returns whether it deleted.
  public func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await delete(key, ifVersion: version, recording: nil)
  }

  /// Deletes the session under `key` only if it is at `version`, like
  /// ``delete(_:ifVersion:)``, keeping `reason` in the tombstone and in the message every
  /// replica's ``changes()`` reports, so each ends its live copy with the same reason.
  public func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason)
    async throws -> Bool
  {
    try await delete(key, ifVersion: version, recording: reason)
  }

  /// Why the session under `key` was deleted: the reason its tombstone keeps, while no record
  /// has been written since (`nil` otherwise, and for a tombstone without one).
  public func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    let tag = RedisKeys.tag(for: key)
    let reply: RESPValue
    do {
      reply = try await client.send(["HMGET", keys.session(tag: tag), "v", "dv", "dr"])
    } catch {
      throw Self.storeError(error, "reading a deleted session", key: key)
    }
    guard let fields = reply.elements, fields.count == 3, fields[0].isNull,
      let version = fields[1].bytes.flatMap({ RedisStoreMessage.decimal($0[...]) }),
      let sealed = fields[2].bytes,
      let notice = openNotice(sealed, version: version, tag: tag), notice.key == key
    else { return nil }
    return notice.reason
  }

  /// A new stream of every write and delete any replica makes in this store's key prefix,
  /// as this store's subscription hears them, with `SessionStoreChange.interrupted` and
  /// `SessionStoreChange.resumed` around a lost subscription (a restart, a failover).
  public func changes() -> AsyncStream<SessionStoreChange>? { feed.subscribe() }

  private func delete(
    _ key: SessionKey, ifVersion version: UInt64, recording reason: SignOutReason?
  )
    async throws -> Bool
  {
    let tag = RedisKeys.tag(for: key)
    let reply: RESPValue
    do {
      reply = try await evaluate(
        RedisScripts.deleteIfVersion,
        keys: [keys.session(tag: tag), keys.spendClaim(tag: tag), keys.spendIntent(tag: tag)],
        arguments: [
          Array(String(version).utf8), Array(keys.hintChannel.utf8), Array(tag.utf8),
          sealNotice(RedisDeletionNotice(key: key, reason: reason), version: version),
        ])
    } catch {
      throw Self.storeError(error, "deleting a session", key: key)
    }
    guard reply.integer == 1 else { return false }
    // The index is in another hash slot; listing drops stale entries should this fail.
    _ = try? await client.send(RedisCommand(["SREM", keys.index(provider: key.provider), tag]))
    return true
  }

  /// Waits for the refresh lease on `key`, shared by every replica on this Redis; see the type's
  /// guarantees. The wait ends early on a release message, otherwise polls every
  /// ``Options/leasePollInterval`` (with jitter). Cancelling the task ends the wait with
  /// `CancellationError`.
  ///
  /// - Throws: `storageFailed` when Redis cannot be reached (sessions degrade, never sign out).
  public func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    let tag = RedisKeys.tag(for: key)
    return try await leaseTurns(key: key, tag: tag) { hold in
      let parts = try await runLeaseScript(hold, key: key, unlessNewerThan: nil)
      guard parts.first?.integer == 1 else { return nil }
      return RedisRefreshLease(hold: hold, interrupted: interruptedIntent(parts))
    }
  }

  /// One run of the lease script for `hold` (see ``RedisScripts/acquireLease``): the lease and
  /// the intent a previous holder left, unless another store's claim is alive or (with
  /// `version`) the stored record moved past it. Returns the script's reply.
  private func runLeaseScript(
    _ hold: LeaseHold, key: SessionKey, unlessNewerThan version: UInt64?
  )
    async throws -> [RESPValue]
  {
    let tag = hold.tag
    let reply: RESPValue
    do {
      reply = try await takeLease(
        RedisScripts.acquireLease,
        keys: [keys.session(tag: tag), hold.key, keys.spendClaim(tag: tag), hold.intentKey],
        arguments: [
          Array((version.map(String.init) ?? "").utf8), Array(hold.token.utf8),
          Array(String(Self.milliseconds(options.leaseTimeToLive)).utf8),
          Array(claimPrefix.utf8),
        ])
    } catch {
      throw Self.storeError(error, "taking the refresh lease", key: key)
    }
    guard let parts = reply.elements, let outcome = parts.first?.integer else {
      throw AuthError(
        .storageFailed, "Redis session store: unexpected reply to the lease script.",
        provider: key.provider)
    }
    if outcome == 3 { claimWaits.withLock { $0 += 1 } }
    return parts
  }

  /// Takes the refresh lease on `key` unless the stored record is no longer at `version`, in
  /// which case it returns that record (`.superseded`): the check and the `SET NX PX` are one
  /// script, so a replica woken by the leader's write adopts it in one round trip, and the
  /// replicas waiting for one refresh never queue behind each other for the lease. An
  /// unreadable newer record falls back to taking the lease (the re-read under it sets the
  /// record aside).
  ///
  /// - Throws: `storageFailed` when Redis cannot be reached.
  public func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    let tag = RedisKeys.tag(for: key)
    return try await leaseTurns(key: key, tag: tag) { hold in
      // Woken or not, the script re-reads: a hint is never adopted as it is.
      let parts = try await runLeaseScript(hold, key: key, unlessNewerThan: version)
      switch parts[0].integer {
      case 1:
        // The script compared the stored version with ours as it took the lease.
        return .current(RedisRefreshLease(hold: hold, interrupted: interruptedIntent(parts)))
      case 2:
        if parts.count == 3,
          case .found(let session) = try? decode(version: parts[1], data: parts[2], tag: tag),
          session.key == key
        {
          return .superseded(session)
        }
        return .acquired(try await lockRefresh(for: key))
      default:
        return nil
      }
    }
  }

  /// The lease wait both forms of `lockRefresh` share. Each turn listens on the lease channel
  /// first (so a release between the attempt and the wait is not missed), makes one `attempt`
  /// with a fresh owner token — its ``LeaseHold`` already renewing, so a lease taken is never
  /// left unrenewed while the reply waits for the pool — and when that settles nothing (`nil`)
  /// waits for a release or a write message, or the poll interval with jitter. A hold that the
  /// attempt did not turn into a lease is ended. A wake-up carries nothing but the hint: the
  /// next attempt asks Redis. Cancelling the task ends the wait with `CancellationError`.
  private func leaseTurns<Turn>(
    key: SessionKey, tag: String,
    _ attempt: (_ hold: LeaseHold) async throws -> Turn?
  ) async throws -> Turn {
    let leaseKey = keys.lease(tag: tag)
    let claimMilliseconds = claimMilliseconds(for: key.provider)
    while true {
      try Task.checkCancellation()
      let hold = LeaseHold(
        store: self, key: leaseKey, tag: tag,
        token: HexEncoding.lowercase(SecureRandom.bytes(count: 16)),
        claimMilliseconds: claimMilliseconds, started: ContinuousClock.now)
      // Ends the renewals unless a lease took the hold over (then this does nothing).
      defer { if !hold.isAdopted { hold.end() } }
      listeners.follow()
      let waiter = signals.register(tag)
      defer { signals.unregister(waiter) }
      if let turn = try await attempt(hold) { return turn }
      await waiter.wait(timeout: options.leasePollInterval * Double.random(in: 0.8...1.2))
    }
  }

  // MARK: - Internals

  /// Runs a script by SHA in one pipeline with `alongside`, falling back to `EVAL` on NOSCRIPT.
  func evaluate(
    _ script: RedisScript, keys scriptKeys: [String], arguments: [[UInt8]],
    alongside: [RedisCommand] = []
  ) async throws -> RESPValue {
    try await client.evaluate(script, keys: scriptKeys, arguments: arguments, alongside: alongside)
  }

  /// Turns an `HMGET v d` reply into a record, setting unreadable ones aside.
  private func interpret(_ reply: RESPValue, tag: String, key: SessionKey?) async throws
    -> StoredSession?
  {
    let outcome: RedisReadOutcome
    var seen: (version: RESPValue, data: RESPValue) = (.null, .null)
    if case .error(let message) = reply {
      guard message.hasPrefix("WRONGTYPE") else {
        throw Self.storeError(
          RedisError(.server, "Redis refused HMGET.", serverMessage: message), "reading", key: key)
      }
      outcome = .corrupt(reason: "the key holds another Redis type")
    } else if let fields = reply.elements, fields.count == 2 {
      seen = (fields[0], fields[1])
      outcome = try decode(version: fields[0], data: fields[1], tag: tag)
    } else {
      throw AuthError(.storageFailed, "Redis session store: unexpected reply to HMGET.")
    }
    switch outcome {
    case .absent: return nil
    case .unopenable(let failure):
      throw CorruptRecord(
        error: AuthError(
          sealing: failure,
          location: "Redis session store: the record at \(keys.session(tag: tag))",
          provider: key?.provider),
        keptInPlace: true)
    case .found(let session):
      if let key, session.key != key {
        throw CorruptRecord(
          error: AuthError(.storageCorrupt, "Redis session store: the record holds another key."))
      }
      return session
    case .corrupt(let reason):
      let suffix =
        "\(Int(Date().timeIntervalSince1970))-\(HexEncoding.lowercase(SecureRandom.bytes(count: 4)))"
      let target = keys.corrupt(tag: tag, suffix: suffix)
      let moved = try? await evaluate(
        RedisScripts.quarantine, keys: [keys.session(tag: tag), target],
        arguments: [seen.data.bytes ?? [], seen.version.bytes ?? []])
      let error = AuthError(
        .storageCorrupt,
        "Redis session store: the record at \(keys.session(tag: tag)) is unreadable (\(reason))"
          + (moved?.integer == 1 ? "; it was set aside as \(target)." : "."),
        provider: key?.provider)
      throw CorruptRecord(error: error, quarantinedAt: moved?.integer == 1 ? target : nil)
    }
  }

  /// The record's time to live in milliseconds (0: none).
  private func timeToLive(for session: StoredSession) -> Int64 {
    guard
      let lifetime = options.refreshTokenLifetimes[session.key.provider]
        ?? options.unknownLifetimeTimeToLive
    else { return 0 }
    var ttl = Self.milliseconds(lifetime)
    if let expiry = session.credential.localExpiresAt {
      ttl = max(ttl, Int64(max(0, expiry.timeIntervalSinceNow) * 1000) + 1)
    }
    return max(ttl, 1)
  }

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
  }
}

/// A record found unreadable, with where it was set aside.
struct CorruptRecord: Error {
  var error: AuthError
  var quarantinedAt: String?
  /// The record's seal did not open: it was neither set aside nor dropped from the index.
  var keptInPlace = false
}
