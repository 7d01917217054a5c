import Foundation

/// The entry point: your providers, your store, and every signed-in session at once.
///
/// A `LoginClient` holds many users' sessions (keyed by provider + subject), restores them from
/// the store at start, and gives each its own ``SessionActor``, so one user's refresh never
/// blocks another's.
///
/// ```swift
/// let client = try LoginClient(providers: [oidc], store: try FileSessionStore(directory: dir))
/// _ = try await client.restoreSessions()
/// for await event in client.events { print(event.key, event.state) }
/// ```
///
/// With a store that reports changes (``SessionStore/changes()``: ``InMemorySessionStore``,
/// and the Redis store that replicas share), the client follows them: a session signed out on
/// another replica ends here with the same ``SignOutReason``, a newer record written elsewhere
/// is adopted, and after the store's feed was cut every live session re-reads the store
/// before it serves another cached token.
public final class LoginClient: Sendable {
  /// The providers, by id.
  public let providers: [ProviderID: any LoginProvider]
  /// Where sessions are persisted.
  public let store: any SessionStore
  /// Where started logins wait for their callback (``beginLogin(_:redirectURI:)``,
  /// ``login(_:reuse:using:)``).
  public let pendingLogins: any PendingLoginStore
  /// The agent ``login(_:reuse:using:)`` uses when none is passed; `nil` means a
  /// ``LoopbackUserAgent`` on the client's clock.
  public let userAgent: (any AuthorizationUserAgent)?
  let clock: any AuthClock
  let policy: RefreshPolicy
  let logger: AuthLogger
  let registry: SessionRegistry
  private let hub: Broadcaster<LiveSessions>
  let environment: SessionEnvironment
  /// Serializes new logins of one account within this client, so each finds the session the
  /// previous one made live and replaces it (two live sessions for one account would disagree).
  private let registrations = AsyncKeyedLock<SessionKey>()
  /// Follows the store's changes (``SessionStore/changes()``), when it reports them.
  private let follower: Task<Void, Never>?

  /// Creates a client.
  ///
  /// Two providers with the same ``LoginProvider/id`` are a configuration error, not a
  /// silent choice: sessions are keyed by provider id, so one of the two would sign users in
  /// and the other would refresh their tokens.
  ///
  /// When providers send their requests to an emulator (an `emulatorHost`, or
  /// `SOCIALLOGIN_EMULATOR_HOST` / `FIREBASE_AUTH_EMULATOR_HOST` in their environment), the
  /// first client of the process with a logger that emits warnings logs one
  /// ``AuthLogLevel/warning`` per emulator host, naming the host and the providers.
  ///
  /// - Parameters:
  ///   - providers: The providers users can sign in with (one per id).
  ///   - store: Where sessions are persisted.
  ///   - clock: Time for expiry, backoff and proactive refresh.
  ///   - policy: Refresh leeway, proactive margin and backoff for every session.
  ///   - logger: Where redacted log records go (silent by default).
  ///   - pendingLogins: Where started logins wait for their callback; `nil` (the default)
  ///     means an ``InMemoryPendingLoginStore`` on `clock`. Services with several instances
  ///     pass a shared store.
  ///   - userAgent: How ``login(_:reuse:using:)`` shows the authorization page; `nil` (the default)
  ///     means a ``LoopbackUserAgent`` on `clock`.
  ///   - observer: Where ``AuthEvent``s go (logins, refresh outcomes, sign-outs, degradation),
  ///     for example a ``MetricsRecorder``; `nil` (the default) records and measures nothing.
  /// - Throws: ``AuthError/Code/configuration`` naming the id when two providers share one.
  public init(
    providers: [any LoginProvider],
    store: any SessionStore,
    clock: any AuthClock = SystemAuthClock(),
    policy: RefreshPolicy = RefreshPolicy(),
    logger: AuthLogger = .silent,
    pendingLogins: (any PendingLoginStore)? = nil,
    userAgent: (any AuthorizationUserAgent)? = nil,
    observer: (any AuthObserver)? = nil
  ) throws(AuthError) {
    var byID: [ProviderID: any LoginProvider] = [:]
    for provider in providers {
      if let problem = (provider as? any ConfigurationProblem)?.configurationProblem {
        throw problem
      }
      guard byID.updateValue(provider, forKey: provider.id) == nil else {
        throw AuthError(
          .configuration,
          "Two providers are registered as '\(provider.id)'; give each provider its own id.",
          provider: provider.id)
      }
    }
    self.providers = byID
    EmulatorNotice.announce(providers, logger: logger)
    UnsignedTokenNotice.announce(providers, logger: logger)
    GraphAPIVersionNotice.announce(providers, logger: logger, now: clock.wallTime)
    self.store = store
    self.pendingLogins = pendingLogins ?? InMemoryPendingLoginStore(clock: clock)
    self.userAgent = userAgent
    self.clock = clock
    self.policy = policy
    self.logger = logger
    let registry = SessionRegistry()
    let hub = Broadcaster(snapshot: LiveSessions())
    self.registry = registry
    self.hub = hub
    environment = SessionEnvironment(
      store: store, clock: clock, policy: policy, logger: logger,
      onStateChange: { key, state in
        if case .signedOut = state {
          // Only forget the actor that ended, not a newer one for the same account.
          registry.remove(key, ifSignedOutWith: state)
        }
        hub.publish(SessionEvent(key: key, state: state))
      }, observer: observer)
    follower = store.changes().map { Self.follow($0, registry: registry, logger: logger) }
  }

  deinit {
    follower?.cancel()
  }

  /// The provider registered under `id`.
  /// - Throws: ``AuthError/Code/unknownProvider``.
  public func provider(_ id: ProviderID) throws -> any LoginProvider {
    guard let provider = providers[id] else {
      throw Self.unknownProvider(id, registered: providers.keys)
    }
    return provider
  }

  /// The live session for `key`, if any.
  public func session(for key: SessionKey) -> SessionActor? {
    registry[key]
  }

  /// The one live session signed in with `provider`, if any: "my session for this provider"
  /// without knowing the account's subject, for apps and tools where one person signs in.
  ///
  /// ```swift
  /// if let session = try client.session(for: .twitter) {
  ///   let token = try await session.freshAccessToken()
  /// }
  /// ```
  ///
  /// A service that holds many users' sessions looks them up by ``SessionKey`` with
  /// ``session(for:)-(SessionKey)`` instead.
  ///
  /// - Parameter provider: A provider id.
  /// - Returns: The live session, or `nil` when nobody is signed in with `provider`.
  /// - Throws: ``AuthError/Code/ambiguousSession`` naming the accounts when several are
  ///   signed in with `provider`, because picking one of them would act for the wrong person.
  public func session(for provider: ProviderID) throws(AuthError) -> SessionActor? {
    let live = registry.sessions(of: provider)
    guard live.count <= 1 else {
      let keys = live.map(\.key).sorted().map(\.description).joined(separator: ", ")
      throw AuthError(
        .ambiguousSession,
        "\(live.count) accounts are signed in with '\(provider)' (\(keys)); "
          + "choose one by its SessionKey.",
        provider: provider)
    }
    return live.first
  }

  /// Every live session.
  public var sessions: [SessionActor] {
    registry.all
  }

  /// The number of live sessions.
  public var sessionCount: Int { registry.count }

  /// A new stream of every session's state changes: first the current state of every live
  /// session, then each change in order. Ending the loop unsubscribes.
  public var events: AsyncStream<SessionEvent> { hub.subscribe() }

  /// A new stream of every session's state changes, like ``events``, with a buffering policy
  /// for a consumer that may fall behind. With `.bufferingNewest(n)` a busy consumer loses
  /// the oldest events first, including the initial ones: use it for dashboards and metrics,
  /// not for bookkeeping that must see every sign-out.
  ///
  /// - Parameter bufferingPolicy: What the stream keeps while its consumer is busy.
  /// - Returns: A stream that starts with one event per live session, in key order.
  public func events(
    bufferingPolicy: AsyncStream<SessionEvent>.Continuation.BufferingPolicy
  ) -> AsyncStream<SessionEvent> {
    hub.subscribe(bufferingPolicy: bufferingPolicy)
  }

  /// Loads every stored session whose provider is registered and makes it live.
  ///
  /// Calling it again is safe: a session this client already holds keeps its actor (callers
  /// holding it are never left with an orphan) and adopts the stored record when it is newer
  /// and no refresh is running; a stored session not held yet is added; and a held session
  /// whose record was not listed reads the store again and ends, with the reason the store
  /// kept, only when its record is really gone.
  ///
  /// Records the store cannot read are set aside by the store and returned here; they never
  /// keep the others from loading.
  @discardableResult
  public func restoreSessions() async throws -> [StoreFailure] {
    let snapshot = try await environment.store.loadAll()
    var listed = Set<SessionKey>()
    for record in snapshot.sessions {
      listed.insert(record.key)
      guard let provider = providers[record.key.provider] else {
        logger.log(
          .warning, "Stored session skipped: its provider is not registered.",
          metadata: ["session": record.key.description])
        continue
      }
      await activate(record, provider: provider)
    }
    let unlisted = registry.all.filter { !listed.contains($0.key) }
    for session in unlisted { await session.mustRereadStore() }
    await Self.rereadAll(unlisted)
    return snapshot.failures
  }

  /// Persists a new login and makes it live; an existing session for the same account takes
  /// the new credential (its observers see `.signedIn`).
  ///
  /// The credential is written to the store before the session is published. "The same
  /// account" means the same provider and subject byte for byte (see ``SessionKey``): a
  /// subject that only looks the same (`"é"` and `"e\u{301}"`) is another account with a
  /// session of its own, and a stored record under a key whose bytes differ is never replaced
  /// (``AuthError/Code/ambiguousSession``).
  @discardableResult
  public func register(credential: Credential, identity: Identity) async throws -> SessionActor {
    let provider = try provider(identity.provider)
    let key = identity.sessionKey
    // A new login replaces whatever is stored for the account. Logins of one account through
    // this client take turns; one through another process (sharing the store) can still win
    // the race, and then the loser looks again (a live session to replace, or the newer
    // record's version) instead of failing the user's login with `storageConflict`.
    try await registrations.lock(key)
    defer { registrations.unlock(key) }
    return try await LastLoginWins.write {
      if let existing = session(for: key), existing.currentState.isSignedIn {
        try await existing.replace(credential: credential, identity: identity)
        return existing
      }
      let current = try await loadRecord(key, refusing: "replace")
      let saved = try await environment.store.save(
        StoredSession(
          key: key, credential: credential, identity: identity, signedInAt: clock.wallTime),
        expectedVersion: current?.version)
      return await activate(saved, provider: provider)
    }
  }

  /// Makes `record` live: a new actor when this client holds no live session for its key,
  /// otherwise the live actor, which adopts `record` if it is newer (one actor per key for its
  /// life, so no caller is ever left holding an orphan).
  @discardableResult
  func activate(_ record: StoredSession, provider: any LoginProvider) async -> SessionActor {
    let candidate = SessionActor(record: record, provider: provider, environment: environment)
    let (holder, inserted) = registry.insert(candidate)
    await settle(holder, inserted: inserted, record: record)
    return holder
  }

  /// What follows a registration: a new actor is announced (``AuthState/signedIn``) and
  /// starts refreshing ahead of expiry; an actor already live adopts `record` when it is newer.
  func settle(
    _ holder: SessionActor, inserted: Bool, record: StoredSession, autoRefresh: Bool = true
  ) async {
    guard inserted else {
      await holder.follow(.written(record))
      return
    }
    hub.publish(SessionEvent(key: record.key, state: .signedIn))
    if autoRefresh, policy.proactiveMargin != nil || policy.maximumSessionLifetime != nil {
      await holder.startAutoRefresh()
    }
  }
}
