import Foundation

/// What happened to the provider-side tokens when a session signed out.
public enum RevocationOutcome: Sendable {
  /// The provider revoked the tokens.
  case revoked
  /// Revocation was not asked for.
  case skipped
  /// The provider cannot revoke tokens; they stay valid until they expire.
  case unsupported
  /// The provider failed to revoke; local state was deleted anyway.
  case failed(AuthError)
}

extension RevocationOutcome {
  /// Asks `provider` to revoke `credential` (the tokens of the session `key`), when it can.
  /// A failure is logged without the tokens and reported, never thrown: it never keeps a
  /// session signed in.
  static func revoke(
    _ credential: Credential, of key: SessionKey, with provider: any LoginProvider,
    logger: AuthLogger
  ) async -> RevocationOutcome {
    guard provider.capabilities.contains(.revocation) else { return .unsupported }
    do {
      try await provider.revoke(credential)
      return .revoked
    } catch let error as AuthError where error.code == .unsupported {
      // The provider turned out to have no way to revoke (an OIDC provider learns it
      // from discovery).
      return .unsupported
    } catch {
      let wrapped =
        (error as? AuthError)
        ?? AuthError(.network, "Revocation failed.", provider: key.provider, underlying: error)
      logger.log(
        .warning, "Token revocation failed; signing out locally.",
        metadata: ["session": key.description, "error": wrapped.code.rawValue])
      return .failed(wrapped)
    }
  }
}

extension SessionActor {
  /// Signs the session out: revokes its tokens where the provider supports it (when `revoke`),
  /// then deletes local state and publishes ``AuthState/signedOut(_:)`` with
  /// ``SignOutReason/userInitiated``.
  ///
  /// A failed revocation does not keep the user signed in: it is reported in the result.
  /// Callers waiting for a refresh get ``AuthError/Code/signedOut``.
  ///
  /// ```swift
  /// let outcome = try await session.signOut()
  /// ```
  /// - Throws: ``AuthError/Code/storageFailed`` when the stored session could not be deleted
  ///   (the session is signed out in memory regardless).
  @discardableResult
  public func signOut(revoke: Bool = true) async throws -> RevocationOutcome {
    try await signOut(reason: .userInitiated, revoke: revoke)
  }

  /// Signs the session out with `reason`: ``signOut(revoke:)`` for the user's own sign-out,
  /// ``LoginClient/signOut(_:reason:revoke:)`` for an operator's.
  func signOut(reason: SignOutReason, revoke: Bool) async throws -> RevocationOutcome {
    guard phase.isLive else { return .skipped }
    let outcome =
      revoke
      ? await RevocationOutcome.revoke(
        phase.unsaved ?? record.credential, of: key, with: provider, logger: logger)
      : .skipped
    if let deleteError = await endSession(reason) {
      throw AuthError(
        .storageFailed, "The session is signed out, but its stored copy could not be deleted.",
        provider: key.provider, underlying: deleteError)
    }
    return outcome
  }

  /// Deletes the stored record this session holds, with the store's compare-and-delete, so
  /// that a login of the account that completed meanwhile (another version, another
  /// ``StoredSession/signedInAt``) is never erased. A user's sign-out also deletes what a
  /// refresh elsewhere wrote over this session's record (same `signedInAt`, newer version);
  /// a provider's verdict on this session's tokens deletes only the version it judged.
  func deleteStoredRecord(_ reason: SignOutReason) async throws {
    // The user's own word (a sign-out, an account deletion, consent revoked), or an
    // operator's, ends the login
    // whatever refreshed it since; a provider's verdict on these tokens only this version.
    let usersWord: Set<SignOutReason> = [
      .userInitiated, .accountDeleted, .consentRevoked, .signedOutByOperator, .appDeauthorized,
    ]
    _ = try await store.deleteLogin(
      record, followingRefreshes: usersWord.contains(reason), reason: reason)
  }
}

extension SessionActor {
  /// Takes a new credential from a fresh login of the same account: persisted first, then
  /// published as `.signedIn`.
  func replace(credential: Credential, identity: Identity) async throws {
    try checkStillSignedIn()
    guard identity.sessionKey == key else {
      throw AuthError(
        .ambiguousSession, "The login names another account than this session.",
        provider: key.provider)
    }
    var next = record
    next.credential = credential
    next.identity = identity
    next.signedInAt = clock.wallTime
    // The actor re-enters across the store calls, so two replacements (two logins of one
    // account at once) can read the same version: the last login written wins.
    let saved = try await LastLoginWins.write {
      let current = try await store.load(key)
      return try await store.save(next, expectedVersion: current?.version)
    }
    // Replacements finish in any order: keep the newest write, which is what the store holds.
    if saved.version > record.version { life.take(saved) }
    await recovered()
  }
}
