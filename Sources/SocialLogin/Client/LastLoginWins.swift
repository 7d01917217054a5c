/// The one rule for writing a *new login* over whatever is stored for its account: the last
/// login written wins.
///
/// A new login reads the stored version and saves over it with compare-and-swap. Two logins of
/// one account at once (a user double-clicking, a service signing the same user in twice) read
/// the same version, and the loser's save fails with `storageConflict`; failing that user's
/// login would be wrong, since the loser's tokens are as good as the winner's. So the loser runs
/// its read-and-save again on the newer version, a bounded number of times. (Refreshes never
/// come here: a refresh that loses its compare-and-swap adopts the stored record instead.)
enum LastLoginWins {
  /// How often a new login retries a write that another login of the same account won.
  static let attempts = 8

  /// Runs `write` (which reads the current version and saves over it) again whenever it fails
  /// with `storageConflict`, at most ``attempts`` times in all; any other error, or the last
  /// conflict, is thrown. Runs on the caller's actor.
  static func write<Result>(
    isolation: isolated (any Actor)? = #isolation, _ write: () async throws -> Result
  ) async throws -> Result {
    var attempt = 1
    while true {
      do {
        return try await write()
      } catch let error as AuthError where error.code == .storageConflict && attempt < attempts {
        attempt += 1
      }
    }
  }
}
