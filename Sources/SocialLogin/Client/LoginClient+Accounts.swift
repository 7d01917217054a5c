import Foundation

/// One user across providers: the account links of the client's store (``AccountLinkStore``),
/// and signing an account out everywhere at once.
extension LoginClient {
  /// Links `key` (a session's provider and subject) to `account`, in the client's store, where
  /// every replica sharing the store sees it. Linking to the account the key already has does
  /// nothing; the link outlives the session's sign-out.
  ///
  /// Link only what your service has established belongs to the user — typically a session
  /// the signed-in user just completed while already signed in to `account`. The SDK never
  /// links by e-mail: matching addresses across providers hands an account to whoever can
  /// claim its address somewhere (Auth.js refuses it with `OAuthAccountNotLinked`).
  ///
  /// ```swift
  /// let line = try await login(.line)
  /// try await login.link(line.key, to: try AccountID(currentUser.id))
  /// ```
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links;
  ///   ``AuthError/Code/accountLinkConflict`` when `key` belongs to another account;
  ///   ``AuthError/Code/accountLinkLimitReached``; store errors.
  public func link(_ key: SessionKey, to account: AccountID) async throws {
    try await accountLinks().link(key, to: account)
  }

  /// Removes `key`'s link and returns the account it had (`nil`: none). The session, if
  /// signed in, stays signed in.
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links; store errors.
  @discardableResult
  public func unlink(_ key: SessionKey) async throws -> AccountID? {
    try await accountLinks().unlink(key)
  }

  /// The account `key` is linked to, or `nil`: "who is this?" for a session that just signed
  /// in.
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links; store errors.
  public func account(of key: SessionKey) async throws -> AccountID? {
    try await accountLinks().account(of: key)
  }

  /// The session keys linked to `account`, sorted, signed in or not (load each with
  /// ``loadSession(_:)``, or all at once with ``sessions(of:)``).
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links; store errors.
  public func sessionKeys(of account: AccountID) async throws -> [SessionKey] {
    try await accountLinks().sessionKeys(of: account)
  }

  /// The signed-in sessions of `account`, in key order: each linked key through
  /// ``loadSession(_:)``, so a session another replica made is loaded here. Keys with no
  /// stored session, or whose provider is not registered on this client, are left out.
  ///
  /// ```swift
  /// for session in try await login.sessions(of: account) {
  ///   print(session.key, session.currentState)
  /// }
  /// ```
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links; store errors.
  public func sessions(of account: AccountID) async throws -> [SessionActor] {
    var sessions: [SessionActor] = []
    for key in try await sessionKeys(of: account) where providers[key.provider] != nil {
      if let session = try await loadSession(key) { sessions.append(session) }
    }
    return sessions
  }

  /// Signs out every session linked to `account`, wherever it lives: live in this process,
  /// live on another replica sharing the store, or only stored. Each key goes through
  /// ``signOut(_:reason:revoke:)``, so every replica's change feed ends its sessions with
  /// `reason`. The links stay (the user can sign in again to the same account).
  ///
  /// ```swift
  /// let outcomes = try await login.signOut(account: try AccountID(user.id))
  /// ```
  ///
  /// - Parameters:
  ///   - account: The account.
  ///   - reason: Why, as every replica's sessions report it.
  ///   - revoke: Whether to revoke each session's tokens at its provider first.
  /// - Returns: What happened at the provider for each key that had a stored session (keys
  ///   without one are left out).
  /// - Throws: ``AuthError/Code/unsupported`` when the store keeps no links; otherwise, after
  ///   trying every key, the error of the first key that could not be signed out (its code,
  ///   with the failed keys in the message). The other keys are signed out; calling again
  ///   retries the rest.
  @discardableResult
  public func signOut(
    account: AccountID, reason: SignOutReason = .signedOutByOperator, revoke: Bool = true
  ) async throws -> [SessionKey: RevocationOutcome] {
    let keys = try await accountLinks().sessionKeys(of: account)
    var outcomes: [SessionKey: RevocationOutcome] = [:]
    var failures: [(SessionKey, any Error)] = []
    await withTaskGroup(of: (SessionKey, Result<RevocationOutcome?, any Error>).self) { group in
      for key in keys {
        group.addTask {
          do {
            return (key, .success(try await self.signOut(key, reason: reason, revoke: revoke)))
          } catch {
            return (key, .failure(error))
          }
        }
      }
      for await (key, result) in group {
        switch result {
        case .success(let outcome?): outcomes[key] = outcome
        case .success(nil): break
        case .failure(let error): failures.append((key, error))
        }
      }
    }
    guard let (_, first) = failures.min(by: { $0.0 < $1.0 }) else { return outcomes }
    let failed = failures.map(\.0).sorted().map(\.description).joined(separator: ", ")
    let cause = first as? AuthError
    throw AuthError(
      cause?.code ?? .storageFailed,
      "\(failures.count) of the \(keys.count) sessions of account \"\(account)\" could not be "
        + "signed out (\(failed)); the others are. \(cause?.message ?? "")",
      provider: cause?.provider, underlying: first)
  }

  /// The store's links, or ``AuthError/Code/unsupported`` naming a store that keeps none.
  func accountLinks() throws(AuthError) -> any AccountLinkStore {
    guard let links = store as? any AccountLinkStore else {
      throw AuthError(
        .unsupported,
        "The session store \(type(of: store)) keeps no account links (AccountLinkStore).")
    }
    return links
  }
}
