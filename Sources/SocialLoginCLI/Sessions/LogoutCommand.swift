import Foundation
import SocialLogin

/// `sociallogin logout`: forgets a stored session, and revokes its tokens with `--revoke`.
enum LogoutCommand {
  static let command = Command(
    name: "logout", summary: "Sign a stored session out.",
    discussion: """
      Deletes the session and its remembered profile. With --revoke, first asks the provider \
      to revoke the tokens (through the remembered profile); a failed revocation still signs \
      out locally, and exits 1 with the reason. Messages go to stderr; stdout stays empty. \
      The revocation goes only where the remembered profile says: --emulator or \
      $\(EmulatorHost.environmentVariable) naming an emulator the session was not made with \
      exits 2 and changes nothing. With --account ID, signs out every session linked to the \
      account (see 'sociallogin link') at once, live or only stored: every service replica \
      sharing the store ends them too. Links stay.
      """,
    options: SessionSelection.options + [
      account, revoke, StoreLocation.option, StoreLocation.sealingOption,
      StoreLocation.keyPrefixOption,
    ],
    run: run)

  /// `--revoke`.
  static let revoke = Option.flag("--revoke", help: "revoke the tokens at the provider first")

  /// `--account ID`.
  static let account = Option.value(
    "--account", "ID", help: "sign out every session linked to this account, on every replica")

  static func run(_ invocation: Invocation) async throws -> Int32 {
    if let id = invocation.arguments.value(account) {
      return try await logOut(account: id, invocation)
    }
    let location = try await StoreLocation.open(invocation)
    let record = try await SessionSelection.select(invocation, in: location)
    guard invocation.arguments.flag(revoke) else {
      // Compare-and-delete: a login of the account completed since the record was read stays.
      let deleted = try await location.store.deleteLogin(record, followingRefreshes: true)
      if !deleted, try await location.store.load(record.key) != nil {
        throw CommandExit(
          status: 1,
          message: "A new login of \(record.key) completed meanwhile; it stays signed in.")
      }
      try location.profiles.remove(record.key)
      Console.error("Signed out of \(record.key).\n")
      return 0
    }
    let resolved = try ProviderFactory.resolveStored(
      try SessionSelection.profile(for: record.key, in: location), for: record.key, invocation)
    let session = SessionActor(
      record: record, provider: try ProviderFactory.make(resolved), store: location.store)
    let outcome = try await session.signOut(revoke: true)
    try location.profiles.remove(record.key)
    switch outcome {
    case .revoked:
      Console.error("Revoked the tokens and signed out of \(record.key).\n")
      return 0
    case .skipped:
      Console.error("Signed out of \(record.key).\n")
      return 0
    case .unsupported:
      Console.error(
        "Signed out of \(record.key); \(record.key.provider) cannot revoke tokens, so they stay "
          + "valid until they expire.\n")
      return 0
    case .failed(let error):
      throw CommandExit(
        status: 1,
        message: "Signed out of \(record.key) locally, but revocation failed: "
          + CommandRunner.describe(error))
    }
  }
}
