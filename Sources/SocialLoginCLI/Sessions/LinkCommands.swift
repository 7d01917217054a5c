import Foundation
import SocialLogin

/// `sociallogin link` and `unlink`: the account links of a store, for operators. Linking is
/// always explicit (never by e-mail): these commands name the account and the session.
enum LinkCommands {
  /// `--account ID`.
  static let account = Option.value(
    "--account", "ID", help: "your service's account id the session belongs to")

  static let link = Command(
    name: "link", summary: "Link a stored session to an account of your service.",
    discussion: """
      Links the session that --provider/--subject select (as for 'logout') to account ID, in \
      the store, where every replica sharing it sees the link. A session linked to another \
      account is refused (exit 1): unlink it first. Prints nothing on stdout.
      """,
    options: SessionSelection.options + [
      account, StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption,
    ],
    run: runLink)

  static let unlink = Command(
    name: "unlink", summary: "Remove a stored session's account link.",
    discussion: """
      Removes the link of the session that --provider/--subject select; the session stays \
      signed in. Prints the account it was linked to on stdout (nothing when none).
      """,
    options: SessionSelection.options + [
      StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption,
    ],
    run: runUnlink)

  static func runLink(_ invocation: Invocation) async throws -> Int32 {
    guard let raw = invocation.arguments.value(account) else {
      throw UsageError("link needs --account ID")
    }
    let id = try accountID(raw)
    let location = try await StoreLocation.open(invocation)
    let links = try links(location)
    let record = try await SessionSelection.select(invocation, in: location)
    try await links.link(record.key, to: id)
    Console.error("Linked \(record.key) to account \(id).\n")
    return 0
  }

  static func runUnlink(_ invocation: Invocation) async throws -> Int32 {
    let location = try await StoreLocation.open(invocation)
    let links = try links(location)
    let record = try await SessionSelection.select(invocation, in: location)
    guard let previous = try await links.unlink(record.key) else {
      Console.error("\(record.key) was not linked to any account.\n")
      return 0
    }
    Console.out("\(previous)\n")
    Console.error("Unlinked \(record.key) from account \(previous).\n")
    return 0
  }

  /// `raw` as an account id; a bad one is a usage error.
  static func accountID(_ raw: String) throws -> AccountID {
    do {
      return try AccountID(raw)
    } catch {
      throw UsageError("--account: \(error.message)")
    }
  }

  /// The store's links, or exit 1 naming a store that keeps none.
  static func links(_ location: StoreLocation) throws -> any AccountLinkStore {
    guard let links = location.store as? any AccountLinkStore else {
      throw CommandExit(
        status: 1, message: "The store \(location.displayName) keeps no account links.")
    }
    return links
  }
}
