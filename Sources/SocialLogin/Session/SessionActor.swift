import Foundation

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
/// - New tokens are persisted **before** they are published or returned.
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

  let store: any SessionStore
  let clock: any AuthClock
  let policy: RefreshPolicy
  let logger: AuthLogger
  let broadcaster: StateBroadcaster<AuthState>
  let onStateChange: (@Sendable (SessionKey, AuthState) -> Void)?

  /// The record as last read from or written to the store.
  var record: StoredSession
  /// Tokens the provider issued that could not be persisted yet. They are not published until
  /// a write succeeds, and they are never thrown away while the session lives.
  var unpersisted: Credential?
  /// The refresh in flight, keyed by the refresh token it spends.
  var flight: RefreshFlight?
  var flightCounter: UInt64 = 0
  var signedOutReason: SignOutReason?
  var failureCount = 0
  var retryAt: Date?
  var lastTransientError: AuthError?
  var scheduledRefresh: Task<Void, Never>?
  var autoRefresh = false

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
  public init(
    record: StoredSession,
    provider: any LoginProvider,
    store: any SessionStore,
    clock: any AuthClock = SystemAuthClock(),
    policy: RefreshPolicy = RefreshPolicy(),
    logger: AuthLogger = .silent
  ) {
    self.init(
      record: record, provider: provider, store: store, clock: clock, policy: policy,
      logger: logger, onStateChange: nil)
  }

  init(
    record: StoredSession,
    provider: any LoginProvider,
    store: any SessionStore,
    clock: any AuthClock,
    policy: RefreshPolicy,
    logger: AuthLogger,
    onStateChange: (@Sendable (SessionKey, AuthState) -> Void)?
  ) {
    key = record.key
    self.provider = provider
    self.store = store
    self.clock = clock
    self.policy = policy
    self.logger = logger
    self.record = record
    self.onStateChange = onStateChange
    broadcaster = StateBroadcaster(.signedIn)
  }

  /// A new stream of this session's states: the current state first, then every change, in
  /// order. Each caller gets its own stream; it registers before this property returns, so no
  /// change is missed. The stream ends after ``AuthState/signedOut(_:)``. Breaking out of the
  /// loop or cancelling the consuming task unsubscribes.
  public nonisolated var states: AsyncStream<AuthState> { broadcaster.subscribe() }

  /// The session's current state.
  public nonisolated var currentState: AuthState { broadcaster.current }

  /// Who the session belongs to, when the identity was fetched at login.
  public var identity: Identity? { record.identity }

  /// The current credential, or `nil` once signed out. It may be expired; use
  /// ``freshCredential(minimumTTL:timeout:)`` for one that is not.
  public var credential: Credential? { signedOutReason == nil ? record.credential : nil }

  /// Returns an access token valid for at least `minimumTTL` (and at least the policy's leeway),
  /// refreshing it first when needed.
  ///
  /// - Parameters:
  ///   - minimumTTL: How long the token must stay valid.
  ///   - timeout: How long this caller waits for a refresh; on timeout it throws
  ///     ``AuthError/Code/timedOut`` while the shared refresh continues for others.
  /// - Throws: ``AuthError`` (``AuthError/Code/signedOut`` with a reason, transient errors while
  ///   degraded) or `CancellationError` when the calling task is cancelled.
  public func freshAccessToken(minimumTTL: Duration = .zero, timeout: Duration? = nil)
    async throws -> String
  {
    try await freshCredential(minimumTTL: minimumTTL, timeout: timeout).accessToken.revealed
  }

  /// Returns the credential, refreshed first when its access token would expire within
  /// `minimumTTL` (or the policy's leeway). See ``freshAccessToken(minimumTTL:timeout:)``.
  public func freshCredential(minimumTTL: Duration = .zero, timeout: Duration? = nil)
    async throws -> Credential
  {
    if let signedOutReason { throw AuthError.signedOut(signedOutReason, provider: key.provider) }
    let required = max(minimumTTL, policy.leeway).timeInterval
    let now = clock.wallTime
    if unpersisted == nil, record.credential.isValid(at: now, minimumTTL: required) {
      return record.credential
    }
    return try await refreshCredential(now: now, minimumTTL: required, timeout: timeout)
  }

  /// Whether the current access token is still valid for `minimumTTL` (no refresh attempted).
  public func isAccessTokenValid(minimumTTL: Duration = .zero) -> Bool {
    signedOutReason == nil
      && record.credential.isValid(at: clock.wallTime, minimumTTL: minimumTTL.timeInterval)
  }

  func publish(_ state: AuthState) {
    if case .signedOut = state {
      broadcaster.finish(with: state)
    } else {
      broadcaster.publish(state)
    }
    onStateChange?(key, state)
  }
}
