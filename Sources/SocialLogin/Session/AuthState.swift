import Foundation

/// The state of one session, as delivered by ``SessionActor/states``.
///
/// ```swift
/// for await state in session.states {
///   switch state {
///   case .signedIn: showApp()
///   case .degraded(let retryAt): showBanner("Reconnecting at \(retryAt)")
///   case .signedOut(let reason): showLogin(reason)
///   }
/// }
/// ```
public enum AuthState: Hashable, Sendable, Codable {
  /// Signed in with usable tokens. Published again after every token refresh.
  case signedIn
  /// Still signed in with its tokens, but refreshing failed for a transient reason; the session
  /// retries at `retryAt` (local clock).
  case degraded(retryAt: Date)
  /// Signed out; the reason says why. Local state for the session has been deleted.
  case signedOut(SignOutReason)

  /// Whether the session still holds tokens (``signedIn`` or ``degraded(retryAt:)``).
  public var isSignedIn: Bool {
    if case .signedOut = self { return false }
    return true
  }
}

/// Why a session ended. Every sign-out carries one, so "logged out unexpectedly" is never a
/// mystery.
public enum SignOutReason: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The user (your code) called ``SessionActor/signOut(revoke:)``.
  case userInitiated
  /// The provider says the refresh token was revoked.
  case refreshTokenRevoked
  /// The provider says the refresh token expired or is no longer valid.
  case refreshTokenExpired
  /// The provider detected refresh-token reuse and revoked the whole token family.
  case reuseDetected
  /// The access token expired and the provider cannot refresh it.
  case accessTokenExpired
  /// The provider disabled or deleted the account.
  case accountDisabled
  /// The user revoked the app's access at the provider, or changed a password.
  case accessRevoked
  /// The stored session disappeared or could not be read.
  case storageLost
  /// The user removed (de-authorized) the app at the provider: Facebook `190`/`458`.
  case appRemoved
  /// The user changed their password at the provider, which ended every session:
  /// Facebook `190`/`460`.
  case passwordChanged
  /// The user logged out at the provider, which invalidated the token: Facebook `190`/`467`.
  case loggedOutAtProvider
  /// The provider invalidated the session for its own reasons (security, a changed session):
  /// Facebook `190`/`493`.
  case sessionInvalidated
  /// Another terminal reason the provider reported, with its code.
  case providerRejected(code: String)
  /// A refresh answered with tokens for another account than the session's: a new ID token
  /// with another `iss`, `sub` or `aud` (OIDC Core §12.2). The tokens were dropped.
  case identityMismatch
  /// The provider refused the refresh token after an earlier refresh with it was sent and its
  /// answer never came (a timeout, or the connection reset after the request was written).
  /// The provider most likely accepted that request and rotated the token, so its answer held
  /// the only valid tokens; unlike ``refreshTokenExpired``, the user did nothing and nothing
  /// expired. Look at timeouts and resets between the service and the provider.
  case refreshResponseLost
  /// The session outlived ``RefreshPolicy/maximumSessionLifetime`` (counted from
  /// ``StoredSession/signedInAt``), however fresh its tokens were.
  case maximumLifetimeReached
  /// The user stopped using their Apple ID with the app (Apple's `consent-revoked`
  /// server-to-server notification, or the user removed the app in their Apple ID settings).
  case consentRevoked
  /// The user deleted their Apple account (Apple's `account-delete` notification), or the
  /// service deleted the user's account and revoked the tokens
  /// (``LoginClient/deleteAccount(_:)``).
  case accountDeleted
  /// An operator ended the session (the default reason of
  /// ``LoginClient/signOut(_:reason:revoke:)`` and
  /// ``LoginClient/signOut(account:reason:revoke:)``): a support agent, an admin console or a
  /// security response, not the user and not the provider.
  case signedOutByOperator
  /// The OpenID provider told the service that the user logged out there (an OpenID Connect
  /// Back-Channel Logout token for the session's `sid`, or for all of the user's sessions).
  case backChannelLogout
  /// The provider revoked every session of the user (Google Cross-Account Protection's
  /// `sessions-revoked`, usually after a hijacking).
  case providerSessionsRevoked
  /// The provider revoked the tokens it had issued to the service for the user (Google
  /// Cross-Account Protection's `tokens-revoked`).
  case providerTokensRevoked
  /// The user asked the provider to have the service delete their data (Facebook's data
  /// deletion callback); the stored session went with it.
  case dataDeletionRequested
  /// The user removed the app at the provider, which told the service (Facebook's deauthorize
  /// callback, Kakao's unlink webhook). Unlike ``appRemoved``, which a refused API call
  /// revealed afterwards, the provider pushed it; records stored with ``appRemoved`` still
  /// decode as that.
  case appDeauthorized

  /// A short readable name.
  public var description: String {
    switch self {
    case .userInitiated: return "user initiated"
    case .refreshTokenRevoked: return "refresh token revoked"
    case .refreshTokenExpired: return "refresh token expired"
    case .reuseDetected: return "refresh token reuse detected"
    case .accessTokenExpired: return "access token expired"
    case .accountDisabled: return "account disabled"
    case .accessRevoked: return "access revoked"
    case .storageLost: return "storage lost"
    case .appRemoved: return "app removed by the user"
    case .passwordChanged: return "password changed"
    case .loggedOutAtProvider: return "logged out at the provider"
    case .sessionInvalidated: return "session invalidated by the provider"
    case .providerRejected(let code): return "provider rejected (\(code))"
    case .identityMismatch: return "refreshed tokens name another account"
    case .refreshResponseLost: return "refresh response lost"
    case .maximumLifetimeReached: return "maximum session lifetime reached"
    case .consentRevoked: return "consent revoked"
    case .accountDeleted: return "account deleted"
    case .signedOutByOperator: return "signed out by an operator"
    case .backChannelLogout: return "logged out at the provider (back-channel)"
    case .providerSessionsRevoked: return "sessions revoked by the provider"
    case .providerTokensRevoked: return "tokens revoked by the provider"
    case .dataDeletionRequested: return "data deletion requested"
    case .appDeauthorized: return "app deauthorized by the user at the provider"
    }
  }
}
