/// Something that happened to logins and sessions, for operators: what an ``AuthObserver``
/// receives. No event carries a token, a code, a secret or a subject: only the provider, an
/// outcome, a typed reason or error code, and a duration, so that every label an operator
/// builds from an event stays bounded.
public enum AuthEvent: Sendable, Hashable {
  /// A login (``LoginClient/login(_:reuse:using:)`` or a two-step web login) ended with a
  /// session. A refresh is never counted as a login.
  case loginSucceeded(provider: ProviderID, duration: Duration)
  /// A login failed with `code` (the user cancelled: ``AuthError/Code/accessDenied``).
  case loginFailed(provider: ProviderID, duration: Duration, code: AuthError.Code)
  /// A refresh flight ended (`duration` from its start to its answer).
  case refreshed(provider: ProviderID, outcome: RefreshEventOutcome, duration: Duration)
  /// A caller joined the refresh in flight instead of starting another.
  case refreshJoined(provider: ProviderID)
  /// A session signed out, for `reason`.
  case signedOut(provider: ProviderID, reason: SignOutReason)
  /// A healthy session became degraded after a transient failure `code`.
  case degraded(provider: ProviderID, code: AuthError.Code)
  /// A degraded session became healthy again, or signed out.
  case degradationEnded(provider: ProviderID)
}

/// How a refresh flight ended.
public enum RefreshEventOutcome: String, Sendable, Hashable, CaseIterable {
  /// The provider issued new tokens, and they were saved.
  case refreshed
  /// Another process had refreshed already; its tokens were adopted without asking the provider.
  case adopted
  /// A transient failure: the session kept its tokens and is degraded.
  case degraded
  /// The provider ended the session (or it reached its end otherwise).
  case signedOut = "signed_out"
}

/// Receives ``AuthEvent``s. A ``LoginClient`` (or a standalone ``SessionActor``) given none
/// records nothing and measures nothing.
///
/// Called synchronously from the SDK's actors: keep it fast and non-blocking (count, enqueue).
/// ``MetricsRecorder`` is one; a service bridges to swift-metrics, swift-log or OpenTelemetry
/// with an observer of its own, in its own package.
public protocol AuthObserver: Sendable {
  /// Takes one event.
  func observe(_ event: AuthEvent)
}

extension SignOutReason {
  /// A stable snake_case name, for metric labels: ``providerRejected(code:)`` drops its code so
  /// that a label never takes an unbounded value.
  public var label: String {
    switch self {
    case .userInitiated: return "user_initiated"
    case .refreshTokenRevoked: return "refresh_token_revoked"
    case .refreshTokenExpired: return "refresh_token_expired"
    case .reuseDetected: return "reuse_detected"
    case .accessTokenExpired: return "access_token_expired"
    case .accountDisabled: return "account_disabled"
    case .accessRevoked: return "access_revoked"
    case .storageLost: return "storage_lost"
    case .appRemoved: return "app_removed"
    case .passwordChanged: return "password_changed"
    case .loggedOutAtProvider: return "logged_out_at_provider"
    case .sessionInvalidated: return "session_invalidated"
    case .providerRejected: return "provider_rejected"
    case .identityMismatch: return "identity_mismatch"
    case .refreshResponseLost: return "refresh_response_lost"
    case .maximumLifetimeReached: return "maximum_lifetime_reached"
    case .consentRevoked: return "consent_revoked"
    case .accountDeleted: return "account_deleted"
    }
  }
}
