extension SessionStore {
  /// Deletes the login that `record` holds, never a login completed since it was read.
  ///
  /// With `followingRefreshes` (a sign-out the user asked for), a newer version of the same
  /// login — a refresh elsewhere wrote over it: same ``StoredSession/signedInAt`` — is deleted
  /// too; without it (a provider's verdict on these very tokens) only `record`'s version is.
  /// Another login of the account (another `signedInAt`) always stays. One rule for every
  /// sign-out path: sessions and the CLI's `logout`. The store records `reason` with the
  /// deletion, for the session's other holders.
  ///
  /// - Returns: whether a record of this login was deleted (`false`: it was gone already, or
  ///   another login stands in its place).
  package func deleteLogin(
    _ record: StoredSession, followingRefreshes: Bool, reason: SignOutReason = .userInitiated
  ) async throws -> Bool {
    var version = record.version
    for _ in 0..<LastLoginWins.attempts {
      if try await delete(record.key, ifVersion: version, reason: reason) { return true }
      guard followingRefreshes, let stored = try await load(record.key),
        stored.key == record.key, stored.version > version,
        stored.signedInAt == nil || stored.signedInAt == record.signedInAt
      else { return false }
      version = stored.version
    }
    return false
  }
}
