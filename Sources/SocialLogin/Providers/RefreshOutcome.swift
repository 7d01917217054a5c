/// What a refresh produced once the token endpoint answered with tokens: the credential, and
/// anything found wrong with it afterwards (see ``LoginProvider/spendRefreshToken(_:)``).
///
/// ```swift
/// let outcome = try await provider.spendRefreshToken(credential)
/// try await store.save(outcome.credential)  // first: the spent refresh token may be dead
/// if case .identityMismatch(let error)? = outcome.problem { throw error }
/// ```
public struct RefreshOutcome: Sendable {
  /// A check of the issued tokens that failed after the token endpoint answered.
  public enum Problem: Sendable {
    /// The tokens could not be fully checked, but nothing says they belong to another account:
    /// a new ID token whose key could not be fetched, whose time claims are off by more than
    /// the leeway, or whose `at_hash` does not match. The ``RefreshOutcome/credential`` keeps
    /// the new access and refresh tokens (and the previous, verified ID token); the session
    /// persists it, serves the new access token, and stays ``AuthState/degraded(retryAt:)``
    /// until a later refresh passes every check.
    case unverified(AuthError)
    /// The tokens name another account than the session's (another `iss`, `sub` or `aud`,
    /// OIDC Core §12.2). The session drops them and signs out with
    /// ``SignOutReason/identityMismatch``.
    case identityMismatch(AuthError)

    /// The error that describes the problem.
    public var error: AuthError {
      switch self {
      case .unverified(let error), .identityMismatch(let error): return error
      }
    }
  }

  /// The issued tokens, merged as the provider keeps them (for example with the previous ID
  /// token when the response had none, or when the new one could not be verified).
  public var credential: Credential
  /// What failed after the answer, or `nil` when every check passed.
  public var problem: Problem?

  /// Creates an outcome.
  public init(credential: Credential, problem: Problem? = nil) {
    self.credential = credential
    self.problem = problem
  }

  /// The credential, or the problem's error: what ``LoginProvider/refresh(_:)`` returns.
  public func get() throws(AuthError) -> Credential {
    if let problem { throw problem.error }
    return credential
  }
}
