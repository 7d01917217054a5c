import Foundation

/// Where a session is in its life: the one state a ``SessionActor`` switches over.
///
/// A session is live, refreshing or not, healthy or degraded, until it is signed out for a
/// reason; it never comes back from `signedOut`. Everything else callers see follows from the
/// phase: the published ``AuthState`` (``state``) and the token the lock-free fast path may
/// serve (``servesUntil(_:leeway:lifetimeEnds:)``). Its decisions are pure and unit-tested
/// without an actor, clock or store (``decide(_:)``).
///
/// The payloads are references allocated only while they exist (a flight while a refresh runs,
/// a ``Degradation`` while something is wrong, a task while the store is re-read), so an idle
/// healthy session stores three empty words.
enum SessionPhase {
  /// Signed in: `health` says whether the last refresh worked; `flight` is the refresh in
  /// flight, if any; `store` whether the record can be trusted to be the stored one.
  case live(SessionHealth, flight: RefreshFlight?, store: StoreCheck = .following)
  /// Signed out for `reason`: the tokens are gone and callers get ``AuthError/Code/signedOut``.
  case signedOut(SignOutReason)

  /// A new session's phase: live, healthy, no refresh.
  static var fresh: SessionPhase { .live(.healthy, flight: nil, store: .following) }

  /// Whether the session still holds tokens (not signed out).
  var isLive: Bool {
    if case .live = self { return true }
    return false
  }

  /// The reason the session ended, or `nil` while it is live.
  var signedOutReason: SignOutReason? {
    if case .signedOut(let reason) = self { return reason }
    return nil
  }

  /// The refresh in flight, if any.
  var flight: RefreshFlight? {
    if case .live(_, let flight, _) = self { return flight }
    return nil
  }

  /// What is wrong, while degraded.
  var degradation: Degradation? {
    if case .live(.degraded(let degradation), _, _) = self { return degradation }
    return nil
  }

  /// Tokens the provider issued that could not be persisted yet: they are not served until a
  /// write succeeds, and never thrown away while the session lives.
  var unsaved: Credential? { degradation?.unsaved }

  /// The state subscribers see for this phase.
  var state: AuthState {
    switch self {
    case .live(.healthy, _, _): return .signedIn
    case .live(.degraded(let degradation), _, _): return .degraded(retryAt: degradation.retryAt)
    case .signedOut(let reason): return .signedOut(reason)
    }
  }

  /// The same phase with `flight` as the refresh in flight; a signed-out phase has none.
  func with(flight: RefreshFlight?) -> SessionPhase {
    guard case .live(let health, _, let store) = self else { return self }
    return .live(health, flight: flight, store: store)
  }

  /// The same phase with `health`; a signed-out phase stays signed out.
  func with(health: SessionHealth) -> SessionPhase {
    guard case .live(_, let flight, let store) = self else { return self }
    return .live(health, flight: flight, store: store)
  }

  /// The same phase with `store` as its check of the stored record; a signed-out phase has
  /// none.
  func with(store: StoreCheck) -> SessionPhase {
    guard case .live(let health, let flight, _) = self else { return self }
    return .live(health, flight: flight, store: store)
  }

  /// The check of the stored record, while live.
  var storeCheck: StoreCheck? {
    if case .live(_, _, let store) = self { return store }
    return nil
  }

  /// Whether the store must be re-read before the next caller is served (or is being re-read).
  var rereadDue: Bool {
    switch storeCheck {
    case .due?, .rereading?: return true
    case .following?, nil: return false
    }
  }

  /// Until when (local seconds since 1970) the fast path may hand out `credential`'s access
  /// token without asking the actor: its expiry minus `leeway`, no later than the end of the
  /// session's life; `-infinity` once signed out, while issued tokens wait to be saved, or
  /// while the store must be re-read (a sign-out elsewhere may have been missed).
  func servesUntil(_ credential: Credential, leeway: Double, lifetimeEnds: Double) -> Double {
    guard case .live(let health, _, .following) = self, health.unsaved == nil else {
      return -.infinity
    }
    let expiry = credential.localExpiresAt.map { $0.timeIntervalSince1970 - leeway } ?? .infinity
    return min(expiry, lifetimeEnds)
  }
}

/// Whether a live session can trust that its record is the stored one: its store's change feed
/// tells it of sign-outs and newer records elsewhere, until the feed is cut.
enum StoreCheck {
  /// Following the change feed: nothing was missed.
  case following
  /// The feed was cut: the store is re-read before another caller is served.
  case due
  /// The re-read runs; callers arriving meanwhile await this task instead of loading the
  /// record again.
  case rereading(Task<Void, Never>)
}

/// Whether a live session's last refresh worked.
enum SessionHealth {
  /// Its tokens are current and saved.
  case healthy
  /// A transient failure (network, provider down, store down, a refresh overdue, new tokens
  /// that could not be fully checked): the tokens are kept and the next attempt waits for
  /// ``Degradation/retryAt``.
  case degraded(Degradation)

  /// Tokens waiting to be saved, if any.
  var unsaved: Credential? { degradation?.unsaved }

  /// What is wrong, while degraded.
  var degradation: Degradation? {
    if case .degraded(let degradation) = self { return degradation }
    return nil
  }
}

/// What a degraded session remembers: allocated on the first failure, dropped on recovery, so
/// that a healthy session in a registry of 100,000 pays nothing for it. Immutable: each failure
/// makes the next one (``after(_:now:retryAfter:backoff:unsaved:)``).
final class Degradation: Sendable {
  /// Consecutive transient failures (the backoff's attempt number is one less).
  let failures: Int
  /// When the next attempt is allowed.
  let retryAt: Date
  /// The error callers get before ``retryAt`` when the access token no longer serves; its
  /// ``AuthError/retryAfter`` is ``retryAt``.
  let lastError: AuthError
  /// Tokens the provider issued that could not be persisted yet.
  let unsaved: Credential?
  /// The store's refresh lease, kept while `unsaved` tokens wait between attempts to save
  /// them: released, it would let another replica spend the refresh token they replaced
  /// (rotated, so the provider refuses it and that replica signs the user out). `nil` while
  /// a flight holds it, and once the tokens are saved.
  let lease: (any RefreshLease)?

  init(
    failures: Int, retryAt: Date, lastError: AuthError, unsaved: Credential?,
    lease: (any RefreshLease)? = nil
  ) {
    self.failures = failures
    self.retryAt = retryAt
    self.lastError = lastError
    self.unsaved = unsaved
    self.lease = unsaved == nil ? nil : lease
  }

  /// The same degradation, keeping `lease` (or no lease) with its unsaved tokens.
  func keeping(_ lease: (any RefreshLease)?) -> Degradation {
    Degradation(
      failures: failures, retryAt: retryAt, lastError: lastError, unsaved: unsaved, lease: lease)
  }

  /// The degradation after one more transient failure `error` following `previous` (`nil`
  /// when the session was healthy): the backoff counts on, and `error` is stamped with the
  /// retry time.
  static func after(
    _ previous: Degradation?, failing error: AuthError, now: Date, retryAfter: Date?,
    backoff: BackoffPolicy, unsaved: Credential?
  ) -> Degradation {
    let failures = (previous?.failures ?? 0) + 1
    let retryAt = backoff.retryDate(attempt: failures - 1, now: now, retryAfter: retryAfter)
    var stamped = error
    stamped.retryAfter = retryAt
    // A kept lease stays with the tokens it protects (a failure while they wait, such as a
    // refresh found stuck, does not give it up).
    return Degradation(
      failures: failures, retryAt: retryAt, lastError: stamped, unsaved: unsaved,
      lease: previous?.lease)
  }
}
