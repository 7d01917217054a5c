import Foundation
import SocialLogin

extension LogoutCommand {
  /// `logout --account ID`: every session linked to the account, through
  /// `LoginClient.signOut(account:reason:revoke:)`, so replicas following the store end them
  /// too. With `--revoke`, each session's tokens are revoked through its remembered profile.
  static func logOut(account raw: String, _ invocation: Invocation) async throws -> Int32 {
    let arguments = invocation.arguments
    guard arguments.value(SessionSelection.provider) == nil,
      arguments.value(SessionSelection.subject) == nil
    else {
      throw UsageError("--account signs out the whole account; leave out --provider/--subject")
    }
    let account = try LinkCommands.accountID(raw)
    let location = try await StoreLocation.open(invocation)
    let links = try LinkCommands.links(location)
    let keys = try await links.sessionKeys(of: account)
    let revoking = arguments.flag(revoke)
    var providers: [ProviderID: any LoginProvider] = [:]
    if revoking {
      for key in keys where providers[key.provider] == nil {
        guard try await location.store.load(key) != nil else { continue }
        let profile = try SessionSelection.profile(for: key, in: location)
        providers[key.provider] = try ProviderFactory.make(
          ProviderFactory.resolveStored(profile, for: key, invocation))
      }
    }
    let client = try LoginClient(providers: Array(providers.values), store: location.store)
    let outcomes = try await client.signOut(account: account, revoke: revoking)
    var failed: [String] = []
    for (key, outcome) in outcomes.sorted(by: { $0.key < $1.key }) {
      try location.profiles.remove(key)
      switch outcome {
      case .revoked: Console.error("Revoked the tokens and signed out of \(key).\n")
      case .skipped: Console.error("Signed out of \(key).\n")
      case .unsupported:
        Console.error("Signed out of \(key); its tokens stay valid until they expire.\n")
      case .failed(let error):
        failed.append("\(key): \(CommandRunner.describe(error))")
      }
    }
    Console.error(
      "Account \(account): \(outcomes.count) of \(keys.count) linked sessions signed out "
        + "(the others were not signed in).\n")
    guard failed.isEmpty else {
      throw CommandExit(
        status: 1,
        message: "Signed out locally, but revocation failed for "
          + failed.joined(separator: "; "))
    }
    return 0
  }
}
