import Foundation
import SocialLoginCrypto

/// Keeps started logins (``PendingLogin``: state, PKCE verifier, nonce) until their callback
/// arrives.
///
/// The store is what makes the OAuth `state` parameter work: a callback is accepted only if
/// its `state` names a pending login that has not expired and has not been used. Lookups are
/// single use, and a callback that fails validation (a forged or mismatched one) does **not**
/// consume the pending login, so the genuine callback that follows still succeeds.
///
/// ``LoginClient`` uses an ``InMemoryPendingLoginStore`` unless you pass another one; a
/// service that runs several instances behind a load balancer passes a shared store.
///
/// ```swift
/// let pending = try await provider.makeAuthorizationRequest(redirectURI: uri).pending
/// try await store.insert(pending)
/// // ... later, from the callback handler:
/// let credential = try await store.take(state: stateFromCallback) { pending in
///   try await provider.completeAuthorization(pending, callback: callback)
/// }
/// ```
public protocol PendingLoginStore: Sendable {
  /// Stores a pending login under its ``PendingLogin/state``.
  ///
  /// - Throws: ``AuthError`` when the state is empty or already pending, or the store fails.
  func insert(_ pending: PendingLogin) async throws

  /// Finds the pending login for `state`, runs `validate` on it, and removes it only if
  /// `validate` returns.
  ///
  /// While `validate` runs, the login is claimed: a concurrent `take` of the same state fails
  /// with ``AuthError/Code/invalidCallback`` instead of validating twice. If `validate` throws
  /// (or its task is cancelled), the claim is released and the login stays pending.
  ///
  /// - Parameters:
  ///   - state: The callback's `state` parameter.
  ///   - validate: Checks the callback against the pending login (typically
  ///     ``LoginProvider/completeAuthorization(_:callback:)``) and returns its result.
  /// - Returns: What `validate` returned.
  /// - Throws: ``AuthError/Code/stateMismatch`` when no pending login has that state or it
  ///   has expired (an expired one is removed); ``AuthError/Code/invalidCallback`` when it is
  ///   being completed right now; otherwise whatever `validate` threw.
  func take<Value: Sendable>(
    state: String, validate: @Sendable (PendingLogin) async throws -> Value
  ) async throws -> Value

  /// Forgets the pending login for `state`, if any (an abandoned or cancelled login).
  func remove(state: String) async
}

extension PendingLoginStore {
  /// Removes and returns the pending login for `state` without further validation.
  ///
  /// - Throws: ``AuthError/Code/stateMismatch`` for an unknown or expired state.
  public func take(state: String) async throws -> PendingLogin {
    try await take(state: state) { $0 }
  }
}

/// A ``PendingLoginStore`` in process memory.
///
/// - Entries are keyed by the SHA-256 of their state, so the timing of dictionary lookups
///   depends on a digest, never on the secret itself; the state is then compared in constant
///   time.
/// - Expiry follows each login's ``PendingLogin/expiresAt`` on the injected clock.
/// - Expired entries are purged on insert, at most once per `purgeInterval` (and whenever the
///   store is full).
/// - At most `capacity` logins are kept (10,000 by default). When a new login arrives at a full
///   store, the **oldest** entries are evicted first: an abandoned login disappears before a
///   fresh one, and a flood of started-but-never-finished logins cannot grow memory without
///   bound. An evicted login's callback then fails with ``AuthError/Code/stateMismatch``.
///
/// ```swift
/// let store = InMemoryPendingLoginStore(capacity: 50_000)
/// let client = try LoginClient(providers: [oidc], store: sessions, pendingLogins: store)
/// ```
public final class InMemoryPendingLoginStore: PendingLoginStore {
  /// The default maximum number of pending logins.
  public static let defaultCapacity = 10_000

  /// The maximum number of pending logins kept; older ones are evicted first.
  public let capacity: Int
  /// How often, at most, an insert sweeps out expired logins.
  public let purgeInterval: Duration
  private let clock: any AuthClock
  private let state: Locked<State>

  private struct Entry {
    var pending: PendingLogin
    var sequence: UInt64
    var claimed = false
  }

  private struct State {
    var entries: [[UInt8]: Entry] = [:]
    /// Insertion order for eviction; may hold stale keys (taken or purged), which are skipped.
    var order: [(key: [UInt8], sequence: UInt64)] = []
    var head = 0
    var nextSequence: UInt64 = 0
    var nextPurge: Date

    mutating func purgeExpired(now: Date) {
      entries = entries.filter { $0.value.claimed || $0.value.pending.expiresAt > now }
      compactOrder()
    }

    /// Removes the oldest live entry; `false` when there is none.
    mutating func evictOldest() -> Bool {
      defer { if head > 1024 && head * 2 > order.count { compactOrder() } }
      while head < order.count {
        let candidate = order[head]
        head += 1
        if entries[candidate.key]?.sequence == candidate.sequence {
          entries.removeValue(forKey: candidate.key)
          return true
        }
      }
      return false
    }

    mutating func compactOrder() {
      order = order[head...].filter { entries[$0.key]?.sequence == $0.sequence }
      head = 0
    }
  }

  /// Creates an empty store.
  ///
  /// - Parameters:
  ///   - clock: The clock expiry is checked against (use the client's clock).
  ///   - capacity: The maximum number of pending logins (at least 1).
  ///   - purgeInterval: How often, at most, an insert sweeps out expired logins.
  public init(
    clock: any AuthClock = SystemAuthClock(), capacity: Int = defaultCapacity,
    purgeInterval: Duration = .seconds(60)
  ) {
    self.clock = clock
    self.capacity = max(1, capacity)
    self.purgeInterval = purgeInterval
    state = Locked(State(nextPurge: clock.wallTime.addingTimeInterval(purgeInterval.timeInterval)))
  }

  /// The number of logins held, including expired ones not purged yet.
  public var count: Int { state.withLock { $0.entries.count } }

  /// Stores `pending`, purging expired logins when due and evicting the oldest when full.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an empty state or one that is already
  ///   pending.
  public func insert(_ pending: PendingLogin) async throws {
    guard !pending.state.isEmpty else {
      throw AuthError(
        .configuration, "A pending login needs a non-empty state.", provider: pending.provider)
    }
    let key = Self.key(for: pending.state.revealed)
    let now = clock.wallTime
    let interval = purgeInterval.timeInterval
    let capacity = self.capacity
    let inserted = state.withLock { state -> Bool in
      guard state.entries[key] == nil else { return false }
      if now >= state.nextPurge || state.entries.count >= capacity {
        state.purgeExpired(now: now)
        state.nextPurge = now.addingTimeInterval(interval)
      }
      while state.entries.count >= capacity, state.evictOldest() {}
      let sequence = state.nextSequence
      state.nextSequence += 1
      state.entries[key] = Entry(pending: pending, sequence: sequence)
      state.order.append((key, sequence))
      if state.order.count - state.head > 2 * capacity + 64 { state.compactOrder() }
      return true
    }
    guard inserted else {
      throw AuthError(
        .configuration, "A login with this state is already pending.", provider: pending.provider)
    }
  }

  /// Claims the login for `state`, runs `validate`, and removes the login only if it returns.
  /// See ``PendingLoginStore/take(state:validate:)``.
  public func take<Value: Sendable>(
    state callbackState: String, validate: @Sendable (PendingLogin) async throws -> Value
  ) async throws -> Value {
    let key = Self.key(for: callbackState)
    let now = clock.wallTime
    let claim = state.withLock { state -> Result<Entry, AuthError> in
      guard let entry = state.entries[key],
        ConstantTime.equals(Array(entry.pending.state.revealed.utf8), Array(callbackState.utf8))
      else {
        return .failure(
          AuthError(.stateMismatch, "The callback's state does not match any pending login."))
      }
      guard entry.pending.expiresAt > now else {
        state.entries.removeValue(forKey: key)
        return .failure(
          AuthError(
            .stateMismatch, "The login has expired; start it again.",
            provider: entry.pending.provider))
      }
      guard !entry.claimed else {
        return .failure(
          AuthError(
            .invalidCallback, "This login is already being completed by another callback.",
            provider: entry.pending.provider))
      }
      state.entries[key]?.claimed = true
      return .success(entry)
    }
    let entry = try claim.get()
    do {
      let value = try await validate(entry.pending)
      state.withLock { state in
        if state.entries[key]?.sequence == entry.sequence {
          state.entries.removeValue(forKey: key)
        }
      }
      return value
    } catch {
      state.withLock { state in
        if state.entries[key]?.sequence == entry.sequence {
          state.entries[key]?.claimed = false
        }
      }
      throw error
    }
  }

  /// Forgets the login for `state`, if any.
  public func remove(state callbackState: String) async {
    let key = Self.key(for: callbackState)
    _ = state.withLock { $0.entries.removeValue(forKey: key) }
  }

  private static func key(for state: String) -> [UInt8] {
    SHA256.hash(Array(state.utf8))
  }
}
