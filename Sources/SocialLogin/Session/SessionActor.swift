import Foundation
import Synchronization

/// One signed-in account: its tokens, its state, and the only place they change.
///
/// A `SessionActor` serializes token refresh and expiry checks for its account:
///
/// - ``freshAccessToken(minimumTTL:timeout:)`` returns the cached token, or joins the single
///   refresh in flight for the refresh token being spent. Ten thousand concurrent callers on an
///   expired session cause one refresh request. A caller that is cancelled or times out leaves
///   at once; the shared refresh goes on for the others.
/// - Before spending a refresh token it takes the store's refresh lease and re-reads the store,
///   so a token rotated by another process is adopted instead of spent twice. When the provider
///   says the refresh token is dead, it re-reads once more before signing out.
/// - New tokens are persisted **before** they are published or returned, and kept whatever
///   fails after the token endpoint answered (``LoginProvider/spendRefreshToken(_:)``): a new
///   ID token that cannot be fully checked degrades the session with them; one that names
///   another account signs out with ``SignOutReason/identityMismatch``.
/// - A refresh whose answer was lost (``AuthError/answerLost``) is remembered in the store; if
///   the provider then refuses that refresh token, the reason is
///   ``SignOutReason/refreshResponseLost``.
/// - Transient failures keep the tokens and move to ``AuthState/degraded(retryAt:)`` with
///   exponential backoff; terminal ones sign out with a typed ``SignOutReason``.
///
/// ```swift
/// let token = try await session.freshAccessToken()
/// for await state in session.states { print(state) }
/// ```
public actor SessionActor {
  /// The account this session belongs to.
  public nonisolated let key: SessionKey
  /// The provider that issued the session's tokens.
  public nonisolated let provider: any LoginProvider

  /// Store, clock, policy and logger: shared by every session of a client, so that a registry
  /// of 100,000 sessions holds one copy of them, not 100,000.
  @usableFromInline nonisolated let environment: SessionEnvironment

  /// The session's phase and record (and whether the store must be re-read), moved only by
  /// ``SessionLife``'s transitions. Every change is shown to callers outside the actor (the
  /// fast path's token); transitions that change what subscribers see also publish
  /// (`SessionActor+Phase.swift`).
  var life: SessionLife {
    didSet {
      // A new grant (or one adopted from elsewhere) has another issue or expiry time; the
      // same lifetime again has been judged already.
      if life.grantDiffers(from: oldValue) {
        environment.noteGrantedLifetime(of: life.record.credential, provider: key.provider)
      }
      reflect(publishing: false)
    }
  }
  /// Whether the session refreshes on its own (``startAutoRefresh()``).
  var autoRefresh = false
  /// Where the session is in its life (see ``life``).
  var phase: SessionPhase { life.phase }
  /// The record as last read from or written to the store (see ``life``).
  var record: StoredSession { life.record }
  /// The phase as callers outside the actor see it: the token the fast path serves and the
  /// published state with its streams (see ``SessionMirror``).
  @usableFromInline nonisolated let mirror: Mutex<SessionMirror>

  /// How many callers wait for the refresh in flight (tests).
  var refreshWaiterCount: Int { phase.flight?.waiters.count ?? 0 }

  /// Creates a session for a stored record. ``LoginClient`` creates sessions for you; create
  /// one directly when you manage stores and providers yourself.
  ///
  /// - Parameters:
  ///   - record: The session as stored (its version is used for compare-and-swap writes).
  ///   - provider: The provider that issued the tokens.
  ///   - store: Where the session is persisted.
  ///   - clock: Time for expiry, backoff and proactive refresh.
  ///   - policy: Leeway, proactive refresh margin and backoff.
  ///   - logger: Where redacted log records go.
  ///   - observer: Where the session's ``AuthEvent``s go (refresh outcomes, sign-outs,
  ///     degradation); `nil` records nothing.
  public init(
    record: StoredSession,
    provider: any LoginProvider,
    store: any SessionStore,
    clock: any AuthClock = SystemAuthClock(),
    policy: RefreshPolicy = RefreshPolicy(),
    logger: AuthLogger = .silent,
    observer: (any AuthObserver)? = nil
  ) {
    self.init(
      record: record, provider: provider,
      environment: SessionEnvironment(
        store: store, clock: clock, policy: policy, logger: logger, onStateChange: nil,
        observer: observer))
  }

  init(record: StoredSession, provider: any LoginProvider, environment: SessionEnvironment) {
    key = record.key
    self.provider = provider
    self.environment = environment
    var record = record
    if record.signedInAt == nil, environment.policy.maximumSessionLifetime != nil {
      // Written before records had the field: the lifetime counts from now, and the time is
      // stored with the session's next write.
      record.signedInAt = environment.clock.wallTime
    }
    life = SessionLife(record: record)
    environment.noteGrantedLifetime(of: record.credential, provider: record.key.provider)
    mirror = Mutex(
      SessionMirror(
        token: record.credential.accessToken.revealed,
        deadline: SessionPhase.fresh.servesUntil(
          record.credential, leeway: environment.leewaySeconds,
          lifetimeEnds: Self.lifetimeDeadline(of: record, policy: environment.policy)),
        state: SessionPhase.fresh.state))
  }

  var store: any SessionStore { environment.store }
  var clock: any AuthClock { environment.clock }
  var policy: RefreshPolicy { environment.policy }
  var logger: AuthLogger { environment.logger }

  /// A new stream of this session's states: the current state first, then every change, in
  /// order. Each caller gets its own stream; it registers before this property returns, so no
  /// change is missed. The stream ends after ``AuthState/signedOut(_:)``. Breaking out of the
  /// loop or cancelling the consuming task unsubscribes.
  public nonisolated var states: AsyncStream<AuthState> { states(bufferingPolicy: .unbounded) }

  /// A new stream of this session's states, like ``states``, with a buffering policy for a
  /// consumer that may fall behind. `.bufferingNewest(1)` keeps only the latest state: a
  /// consumer that only needs to know where the session stands never holds a backlog.
  ///
  /// ```swift
  /// for await state in session.states(bufferingPolicy: .bufferingNewest(1)) {
  ///   updateStatusLine(state)  // may be slow; it always sees the latest state next
  /// }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What the stream keeps while its consumer is busy.
  /// - Returns: A stream that starts with the current state.
  public nonisolated func states(
    bufferingPolicy: AsyncStream<AuthState>.Continuation.BufferingPolicy
  ) -> AsyncStream<AuthState> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: AuthState.self, bufferingPolicy: bufferingPolicy)
    let registered = mirror.withLock { mirror in
      mirror.subscribers.subscribe(continuation, replay: [mirror.state]) { [weak self] id in
        self?.mirror.withLock { $0.subscribers.remove(id) }
      }
    }
    if !registered { continuation.finish() }
    return stream
  }

  /// The session's current state.
  public nonisolated var currentState: AuthState { mirror.withLock { $0.state } }

  /// Who the session belongs to, when the identity was fetched at login.
  public var identity: Identity? { record.identity }

  /// The current credential, or `nil` once signed out. It may be expired; use
  /// ``freshCredential(minimumTTL:timeout:)`` for one that is not.
  public var credential: Credential? { phase.isLive ? record.credential : nil }

  /// Returns an access token valid for at least `minimumTTL` (and at least the policy's leeway),
  /// refreshing it first when needed.
  ///
  /// - Parameters:
  ///   - minimumTTL: How long the token must stay valid.
  ///   - timeout: How long this caller waits for a refresh; on timeout it throws
  ///     ``AuthError/Code/timedOut`` while the shared refresh continues for others.
  /// - Throws: ``AuthError`` (``AuthError/Code/signedOut`` with a reason, transient errors while
  ///   degraded, ``AuthError/Code/tokenLifetimeTooShort`` when the provider grants tokens
  ///   shorter than `minimumTTL`) or `CancellationError` when the calling task is cancelled.
  @inlinable
  public nonisolated(nonsending) func freshAccessToken(
    minimumTTL: Duration = .zero, timeout: Duration? = nil
  ) async throws -> String {
    // The hot path runs on the caller's executor, with no actor hop: one cheap clock read and
    // one comparison, under a lock, against a deadline the actor precomputed. A minimum TTL
    // within the leeway is already covered by that deadline.
    if minimumTTL <= environment.leeway {
      let now = environment.coarseNow()
      if let token = mirror.withLock({ $0.token(at: now) }) {
        return token
      }
    }
    return try await refreshedAccessToken(minimumTTL: minimumTTL, timeout: timeout)
  }

  @usableFromInline
  nonisolated(nonsending) func refreshedAccessToken(minimumTTL: Duration, timeout: Duration?)
    async throws -> String
  {
    try await freshCredential(minimumTTL: minimumTTL, timeout: timeout).accessToken.revealed
  }

  /// Returns the credential, refreshed first when its access token would expire within
  /// `minimumTTL` (or the policy's leeway). See ``freshAccessToken(minimumTTL:timeout:)``.
  ///
  /// A caller joins the refresh on the actor but waits for it on its own executor: when the
  /// refresh ends, its thousand waiters resume in parallel on the cooperative pool instead of
  /// one after another on the actor.
  ///
  /// - Throws: As ``freshAccessToken(minimumTTL:timeout:)``, and
  ///   ``AuthError/Code/tokenLifetimeTooShort`` when even the token just refreshed does not
  ///   last `minimumTTL` (the provider grants shorter lifetimes): the contract is never broken
  ///   silently.
  public nonisolated(nonsending) func freshCredential(
    minimumTTL: Duration = .zero, timeout: Duration? = nil
  ) async throws -> Credential {
    var credential: Credential
    switch try await joinRefresh(minimumTTL: minimumTTL, timeout: timeout) {
    case .ready(let ready): return ready
    case .waiting(let waiter): credential = try await waiter.wait()
    }
    let clock = environment.clock
    let leeway = environment.leeway
    switch TokenLifetime.judge(credential, for: minimumTTL, at: clock.wallTime, leeway: leeway) {
    case .lasts: return credential
    case .tooShort: break
    case .issuedAWhileAgo:
      // The refresh this caller joined adopted a token another process got a while ago:
      // the provider grants enough, so ask it for a new one.
      credential = try await forceRefresh(timeout: timeout)
      if case .lasts = TokenLifetime.judge(
        credential, for: minimumTTL, at: clock.wallTime, leeway: leeway)
      {
        return credential
      }
    }
    throw TokenLifetime.tooShortError(credential, for: minimumTTL, at: clock.wallTime, key: key)
  }

  /// Refreshes now, whatever the current token's time left and the backoff while degraded,
  /// and returns the new credential. Callers already waiting for a refresh of the same
  /// refresh token share it: a forced refresh never spends one refresh token twice.
  ///
  /// Use it when an API rejected a token that had not expired yet (revoked scopes, a key
  /// rotation at the provider). To get a token valid for a while, use
  /// ``freshCredential(minimumTTL:timeout:)``, which refreshes only when needed.
  ///
  /// ```swift
  /// let renewed = try await session.forceRefresh()
  /// ```
  ///
  /// - Parameter timeout: How long this caller waits for the refresh (it goes on for others).
  /// - Throws: ``AuthError/Code/unsupported`` when nothing can refresh this session (no
  ///   refresh token, or a provider without refresh), ``AuthError/Code/signedOut`` with a
  ///   reason, transient errors (the session is then degraded), or `CancellationError`.
  public nonisolated(nonsending) func forceRefresh(timeout: Duration? = nil) async throws
    -> Credential
  {
    switch try await joinRefresh(minimumTTL: .zero, timeout: timeout, force: true) {
    case .ready(let credential): return credential
    case .waiting(let waiter): return try await waiter.wait()
    }
  }

  /// Waits until the refresh running now, if any, has ended: its outcome applied and its lease
  /// given back (or kept with tokens still unsaved).
  ///
  /// Callers of a refresh get their answer before the session gives its lease back (they need
  /// not wait for that round trip). A process about to exit — a command-line tool, a service
  /// shutting down — calls this first: an exit before the release leaves the lease (and the
  /// intent to spend, ``SpendIntent``) for the store to expire, so the next process waits for
  /// it and may take a failed refresh for a lost answer.
  ///
  /// ```swift
  /// let token = try await session.freshAccessToken()
  /// await session.finishRefreshes()
  /// print(token)
  /// ```
  public func finishRefreshes() async {
    while case let running = environment.runningFlights.tasks(of: ObjectIdentifier(self)),
      !running.isEmpty
    {
      for task in running { await task.value }
    }
  }

  /// Whether the current access token is still valid for `minimumTTL` (no refresh attempted);
  /// `false` past ``RefreshPolicy/maximumSessionLifetime``.
  public func isAccessTokenValid(minimumTTL: Duration = .zero) -> Bool {
    let now = clock.wallTime
    return phase.isLive
      && now.timeIntervalSince1970 < Self.lifetimeDeadline(of: record, policy: policy)
      && record.credential.isValid(at: now, minimumTTL: minimumTTL.timeInterval)
  }

  /// When (seconds since 1970) `record`'s session reaches
  /// ``RefreshPolicy/maximumSessionLifetime``; `infinity` without one.
  static func lifetimeDeadline(of record: StoredSession, policy: RefreshPolicy) -> Double {
    guard let lifetime = policy.maximumSessionLifetime, let signedInAt = record.signedInAt else {
      return .infinity
    }
    return signedInAt.timeIntervalSince1970 + lifetime.timeInterval
  }
}
