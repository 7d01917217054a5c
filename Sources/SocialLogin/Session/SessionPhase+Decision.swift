import Foundation

/// What a caller asking for a credential gets: the outcome of ``SessionPhase/decide(_:)``.
enum RefreshDecision {
  /// The current credential serves as it is.
  case serve
  /// The session was already signed out for this reason.
  case signedOut(SignOutReason)
  /// The session ends now for this reason (its life is over, or its access token expired and
  /// nothing can refresh it).
  case end(SignOutReason)
  /// Degraded and before its retry time, with an access token that no longer serves: fail
  /// fast with the last error rather than hammer a provider that is down.
  case failFast(AuthError)
  /// The refresh in flight for this refresh token is overdue: waiting for it would hang and
  /// starting another would spend the same refresh token twice. It counts as another failure;
  /// then the credential serves if it still works (`serve`), or the caller gets the error.
  case stuck(overdue: AuthError, serve: Bool)
  /// Wait for the refresh in flight for this refresh token.
  case join(RefreshFlight)
  /// Start a refresh.
  case start
  /// A forced refresh, and nothing can refresh this session (the provider cannot, or the
  /// credential has no refresh token).
  case cannotRefresh
}

/// What ``SessionPhase/decide(_:)`` decides from, besides the phase.
struct RefreshQuestion {
  /// The session's current credential.
  var credential: Credential
  /// Local time now.
  var now: Date
  /// How long the access token must stay valid (already at least the policy's leeway).
  var minimumTTL: TimeInterval
  /// Whether the provider can refresh (its capabilities; the credential's refresh token is
  /// checked here).
  var providerRefreshes: Bool
  /// When the session's life ends (seconds since 1970; `infinity` without a maximum lifetime).
  var lifetimeEnds: Double
  /// A refresh is asked for whatever the token's time left and the backoff
  /// (``SessionActor/forceRefresh(timeout:)``).
  var force = false
}

extension SessionPhase {
  /// Decides what a caller asking for a credential gets: serve, fail fast, join the refresh
  /// in flight, start one, or end the session. A pure function of the phase and `question`.
  func decide(_ question: RefreshQuestion) -> RefreshDecision {
    let health: SessionHealth
    let flight: RefreshFlight?
    switch self {
    case .signedOut(let reason): return .signedOut(reason)
    case .live(let current, let inFlight, _): (health, flight) = (current, inFlight)
    }
    let credential = question.credential
    if question.now.timeIntervalSince1970 >= question.lifetimeEnds {
      return .end(.maximumLifetimeReached)
    }
    let saved = health.unsaved == nil
    let refreshable = question.providerRefreshes && credential.refreshToken != nil
    let works = credential.isValid(at: question.now, minimumTTL: 0)
    if question.force {
      // Asked for explicitly: no serving and no backoff, but still one refresh per token.
      if saved, !refreshable { return .cannotRefresh }
    } else {
      if saved, credential.isValid(at: question.now, minimumTTL: question.minimumTTL) {
        return .serve
      }
      if saved, !refreshable { return works ? .serve : .end(.accessTokenExpired) }
      if case .degraded(let degradation) = health, question.now < degradation.retryAt {
        return works ? .serve : .failFast(degradation.lastError)
      }
    }
    guard let flight, flight.refreshToken == credential.refreshToken else { return .start }
    if let overdue = flight.overdue { return .stuck(overdue: overdue, serve: works) }
    return .join(flight)
  }
}
