/// Signing a user out as an operator: from any replica, whether or not it holds the session.
extension LoginClient {
  /// Ends the session `key` everywhere: revokes its tokens at the provider (when `revoke` and
  /// the provider can), deletes the stored record with `reason`, and ends the live session.
  ///
  /// It works from any process that shares the store, including one that holds no live
  /// session (an admin tool, a support console): the session is loaded from the store first
  /// (``loadSession(_:)``, without starting a refresh). Every replica holding the session
  /// ends it with the same `reason` through the store's change feed (the Redis store; see
  /// "Many replicas"), including an actor a request handler still holds.
  ///
  /// ```swift
  /// try await login.signOut(SessionKey(provider: .line, subject: lineUserID))
  /// ```
  ///
  /// - Parameters:
  ///   - key: The account's provider and subject.
  ///   - reason: What observers and every replica see; ``SignOutReason/signedOutByOperator``
  ///     by default. Pass another reason when it is more exact (``SignOutReason/accountDisabled``
  ///     for a banned user, ``SignOutReason/userInitiated`` for the user's own "sign me out
  ///     everywhere").
  ///   - revoke: Whether to revoke the tokens at the provider first. A failed revocation
  ///     never keeps the session: it is reported in the result.
  /// - Returns: What happened to the provider-side tokens, or `nil` when the store held no
  ///   session for `key` (nothing was signed out).
  /// - Throws: ``AuthError/Code/unknownProvider`` when `revoke` is asked for a provider that
  ///   is not registered (without `revoke`, the stored record is deleted all the same); the
  ///   store's errors; ``AuthError/Code/storageFailed`` when the session ended here but its
  ///   stored copy could not be deleted.
  @discardableResult
  public func signOut(
    _ key: SessionKey, reason: SignOutReason = .signedOutByOperator, revoke: Bool = true
  ) async throws -> RevocationOutcome? {
    guard providers[key.provider] != nil || revoke else {
      // No provider to make a session with and nothing to ask it: delete the stored login.
      guard let stored = try await environment.store.load(key), stored.key == key else {
        return nil
      }
      _ = try await environment.store.deleteLogin(stored, followingRefreshes: true, reason: reason)
      return .skipped
    }
    guard let session = try await loadSession(key, autoRefresh: false) else { return nil }
    return try await session.signOut(reason: reason, revoke: revoke)
  }
}
