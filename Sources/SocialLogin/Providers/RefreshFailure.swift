import Foundation

/// What a failed refresh means for the session.
public enum RefreshFailure: Hashable, Sendable {
  /// Retry later; the session keeps its tokens and becomes `.degraded`.
  /// `retryAfter` is the provider's `Retry-After`, when it gave one.
  case transient(retryAfter: Date?)
  /// The refresh token is no longer accepted. The session re-reads the store once to adopt a
  /// token another process may have rotated in, and otherwise signs out with `reason`.
  case refreshTokenInvalid(SignOutReason)
  /// Sign out now with `reason` (account disabled, consent revoked, ...).
  case terminal(SignOutReason)
}

extension RefreshFailure {
  /// The opening every provider's classifier shares, then the provider's `rules`.
  ///
  /// Anything that is not an ``AuthError`` (a transport's own error) and every `AuthError`
  /// marked transient (network, timeout, 5xx, 429, with its `Retry-After`) is
  /// ``transient(retryAfter:)``: no answer of the provider's about the user. `rules` see only
  /// the rest, the provider's answers, and decide what they mean.
  package static func classifying(
    _ error: any Error, _ rules: (AuthError) -> RefreshFailure
  ) -> RefreshFailure {
    guard let error = error as? AuthError else { return .transient(retryAfter: nil) }
    if error.isTransient { return .transient(retryAfter: error.retryAfter) }
    return rules(error)
  }

  /// What an error the provider's own code already classified means, or `nil` for any other:
  /// ``AuthError/Code/refreshTokenInvalid`` is ``refreshTokenInvalid(_:)`` and
  /// ``AuthError/Code/signedOut`` is ``terminal(_:)``, each with the error's sign-out reason
  /// (else `invalidReason`, or ``SignOutReason/refreshTokenRevoked`` for a sign-out). The
  /// first rule of the OAuth classifiers (``rfc6749(_:)``, X's and Apple's).
  static func alreadyClassified(
    _ error: AuthError, invalidReason: SignOutReason = .refreshTokenExpired
  ) -> RefreshFailure? {
    switch error.code {
    case .refreshTokenInvalid: .refreshTokenInvalid(error.signOutReason ?? invalidReason)
    case .signedOut: .terminal(error.signOutReason ?? .refreshTokenRevoked)
    default: nil
    }
  }

  /// Classifies `error` by RFC 6749 rules; see ``LoginProvider/classifyRefreshFailure(_:)``.
  ///
  /// Only a definitive answer of the provider signs the user out: an RFC 6749 §5.2 error body
  /// (`invalid_grant` → ``refreshTokenInvalid(_:)``, any other OAuth `error` →
  /// ``terminal(_:)``), or an error the provider's own code already classified
  /// (``AuthError/Code/refreshTokenInvalid``, ``AuthError/Code/signedOut``). Everything else
  /// is ``transient(retryAfter:)``: network failures, timeouts, 5xx and 429, and every answer
  /// that is not a well-formed OAuth error — HTML pages from a proxy or WAF at any status,
  /// empty or truncated bodies, a success without `access_token`. Such answers say nothing
  /// about the refresh token, so the session keeps it and retries with backoff. A provider
  /// whose documented answer to a dead refresh token is not an OAuth error says so in its own
  /// ``LoginProvider/classifyRefreshFailure(_:)`` (see
  /// ``oauth2(_:refreshTokenInvalidWhen:)``).
  public static func rfc6749(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      if let classified = alreadyClassified(error) { return classified }
      guard let code = error.oauth?.error else { return .transient(retryAfter: error.retryAfter) }
      // LINE sends upper-case codes.
      if code.lowercased() == "invalid_grant" { return .refreshTokenInvalid(.refreshTokenExpired) }
      return .terminal(.providerRejected(code: code))
    }
  }
}
