/// Something that happened to logins and sessions, for operators: what an ``AuthObserver``
/// receives. No event carries a token, a code, a secret or a subject: only the provider, an
/// outcome, a typed reason or error code, and a duration, so that every label an operator
/// builds from an event stays bounded.
public enum AuthEvent: Sendable, Hashable {
  /// A login began: the authorization page is about to be shown
  /// (``LoginClient/login(_:reuse:using:)``) or a two-step web login was started
  /// (``LoginClient/beginLogin(_:redirectURI:)``). A refresh is never counted as a login.
  case loginStarted(provider: ProviderID)
  /// A login (``LoginClient/login(_:reuse:using:)`` or a two-step web login) ended with a
  /// session; `duration` runs from the callback to the stored session.
  case loginSucceeded(provider: ProviderID, duration: Duration)
  /// A login failed with `code` (the user cancelled: ``AuthError/Code/accessDenied``).
  case loginFailed(provider: ProviderID, duration: Duration, code: AuthError.Code)
  /// A refresh flight ended: `duration` from its start to its answer, of which `leaseWait` was
  /// spent waiting for the store's refresh lease (another process refreshing the same
  /// session, or a slow shared store).
  case refreshed(
    provider: ProviderID, outcome: RefreshEventOutcome, duration: Duration, leaseWait: Duration)
  /// A caller joined the refresh in flight instead of starting another.
  case refreshJoined(provider: ProviderID)
  /// A session signed out, for `reason`.
  case signedOut(provider: ProviderID, reason: SignOutReason)
  /// A healthy session became degraded after a transient failure `code`.
  case degraded(provider: ProviderID, code: AuthError.Code)
  /// A degraded session became healthy again, or signed out.
  case degradationEnded(provider: ProviderID)
  /// The session store failed an `operation` with `code` (the session keeps what it holds;
  /// a failed save after a refresh leaves the session degraded with its tokens unsaved).
  /// `provider` is the session's, `nil` for operations on the whole store.
  case storeFailed(operation: StoreOperation, provider: ProviderID?, code: AuthError.Code)
  /// ``LoginClient/verify(_:from:)`` accepted a token a client obtained itself.
  case verified(provider: ProviderID, token: ExternalTokenKind, duration: Duration)
  /// ``LoginClient/verify(_:from:)`` refused a token (`code`, usually
  /// ``AuthError/Code/invalidToken``) or could not check it (a transient `code`).
  case verificationFailed(
    provider: ProviderID, token: ExternalTokenKind, duration: Duration, code: AuthError.Code)
  /// A provider's signing keys (a JWKS, Firebase's certificates) were fetched, on behalf of a
  /// login, a verification or a refresh.
  case keySetFetched(provider: ProviderID, duration: Duration)
  /// Fetching a provider's signing keys failed with `code`; cached keys, if any, keep being
  /// served within their staleness bound.
  case keySetFetchFailed(provider: ProviderID, duration: Duration, code: AuthError.Code)
  /// A provider pushed an event to the ``ProviderEventReceiver`` (a back-channel logout, a
  /// Google Cross-Account Protection event, a Facebook or Kakao callback, an Apple
  /// notification), and the receiver answered it with `outcome`.
  case providerEvent(provider: ProviderID, kind: ProviderEventKind, outcome: ProviderEventOutcome)
}

/// A ``SessionStore`` operation, as ``AuthEvent/storeFailed(operation:provider:code:)`` names
/// it.
public enum StoreOperation: String, Sendable, Hashable, CaseIterable {
  /// Reading one session.
  case load
  /// Reading every session (a client's restore at start-up).
  case loadAll = "load_all"
  /// Writing a session.
  case save
  /// Deleting a session.
  case delete
  /// Taking the refresh lease.
  case lease
}

/// What kind of token ``LoginClient/verify(_:from:)`` was given.
public enum ExternalTokenKind: String, Sendable, Hashable, CaseIterable {
  /// An OpenID Connect ID token.
  case idToken = "id_token"
  /// An OAuth 2.0 access token.
  case accessToken = "access_token"
  /// An OAuth 1.0a token and secret.
  case oauth1
}

extension ExternalToken {
  /// Which kind of token this is, for events and metric labels.
  public var kind: ExternalTokenKind {
    switch self {
    case .idToken: return .idToken
    case .accessToken: return .accessToken
    case .oauth1: return .oauth1
    }
  }
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
///
/// Events never carry a subject. An audit log that must say whose session it was opts in with
/// ``receivesSubjects`` and implements ``observe(_:subject:)``: events about one account
/// (logins that succeeded, refreshes, sign-outs, degradation, verified tokens) then arrive
/// there with the provider's subject id, the others at ``observe(_:)``.
public protocol AuthObserver: Sendable {
  /// Takes one event.
  func observe(_ event: AuthEvent)
  /// Whether events about one account go to ``observe(_:subject:)`` with the account's subject
  /// id. `false` by default: metrics never need a subject, and must never label by one.
  var receivesSubjects: Bool { get }
  /// Takes one event about the account `subject` (the provider's subject id), for an observer
  /// whose ``receivesSubjects`` is `true`. By default, ``observe(_:)`` without the subject.
  func observe(_ event: AuthEvent, subject: String)
}

extension AuthObserver {
  /// `false`: subjects are opt-in.
  public var receivesSubjects: Bool { false }

  /// Drops the subject: ``observe(_:)``.
  public func observe(_ event: AuthEvent, subject: String) {
    observe(event)
  }

  /// Delivers `event` with `subject` only to an observer that opted in.
  func report(_ event: AuthEvent, subject: @autoclosure () -> String) {
    if receivesSubjects {
      observe(event, subject: subject())
    } else {
      observe(event)
    }
  }
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
    case .signedOutByOperator: return "signed_out_by_operator"
    case .backChannelLogout: return "back_channel_logout"
    case .providerSessionsRevoked: return "provider_sessions_revoked"
    case .providerTokensRevoked: return "provider_tokens_revoked"
    case .dataDeletionRequested: return "data_deletion_requested"
    case .appDeauthorized: return "app_deauthorized"
    }
  }
}
