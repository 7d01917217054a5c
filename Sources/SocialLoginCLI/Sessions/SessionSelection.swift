import Foundation
import SocialLogin

/// Picks one stored session from `--provider` and `--subject`, the way `gh auth` picks an
/// account: with one session (for the provider, or at all) nothing more is needed.
enum SessionSelection {
  /// `--provider P`.
  static let provider = Option.value(
    "--provider", "P", help: "the session's provider (facebook, twitter or x, line, oidc, ...)")
  /// `--subject S`.
  static let subject = Option.value(
    "--subject", "S", help: "the account's subject id, when the provider has several sessions")
  /// The options that select a session.
  static let options: [Option] = [provider, subject]

  /// The one stored session the invocation selects.
  ///
  /// - Throws: ``CommandExit`` (status 1) when no session matches; ``UsageError`` when several
  ///   match (naming them, so the user can add `--subject` or `--provider`).
  static func select(_ invocation: Invocation, in location: StoreLocation) async throws
    -> StoredSession
  {
    let arguments = invocation.arguments
    let provider = arguments.value(Self.provider).map { ProviderID(rawValue: $0) }
    let subject = arguments.value(Self.subject)
    let snapshot = try await location.store.loadAll()
    for failure in snapshot.failures {
      Console.error("warning: \(failure.location): \(failure.error.message)\n")
    }
    let matches = snapshot.sessions.filter { record in
      (provider.map { isSelected(record.key.provider, asked: $0) } ?? true)
        && (subject == nil || record.key.subject == subject)
    }.sorted { $0.key < $1.key }
    switch matches.count {
    case 1:
      return matches[0]
    case 0:
      if let ended = try await endedSession(provider: provider, subject: subject, in: location) {
        throw ended
      }
      let what = [
        provider.map { "provider \($0)" }, subject.map { "subject \($0)" },
      ].compactMap { $0 }.joined(separator: ", ")
      // `--provider fb`: no such provider, so say which one it most likely meant rather than
      // suggest 'sociallogin login fb'.
      let kinds = ProviderKind.allCases.map(\.rawValue)
      let meant = provider.flatMap { asked -> String? in
        guard !kinds.contains(asked.rawValue) else { return nil }
        let stored = snapshot.sessions.map(\.key.provider.rawValue)
        return Suggestion.closest(to: asked.rawValue, among: kinds + stored)
      }
      throw CommandExit(
        status: 1,
        message: "error: signed_out: no stored session"
          + (what.isEmpty ? "" : " for \(what)")
          + (meant.map { " (did you mean '\($0)'?)" } ?? "")
          + " in \(location.displayName); sign in with "
          + "'sociallogin login \(meant ?? provider?.rawValue ?? "<provider>")'.")
    default:
      let keys = matches.map(\.key.description).joined(separator: ", ")
      throw UsageError(
        "\(matches.count) sessions match (\(keys)); choose one with "
          + (provider == nil ? "--provider and --subject" : "--subject"))
    }
  }

  /// Why the session `--provider` and `--subject` name is gone, when the store kept the
  /// reason of its sign-out (the Redis store does): "no stored session" alone would leave the
  /// user guessing whether they were signed out by an operator, by the provider, or never
  /// signed in.
  static func endedSession(provider: ProviderID?, subject: String?, in location: StoreLocation)
    async throws -> CommandExit?
  {
    guard let provider, let subject else { return nil }
    let key = SessionKey(provider: provider, subject: subject)
    guard let reason = try? await location.store.deletionReason(for: key) else { return nil }
    return CommandExit(
      status: 1,
      message: "error: signed_out: session \(key) was signed out (\(reason)) in "
        + "\(location.displayName); sign in again with 'sociallogin login \(provider)'.")
  }

  /// Whether the stored `id` is what `--provider` asked for: the same id, or any OpenID
  /// provider's (`oidc-<issuer host>-<hash>`) for `--provider oidc`.
  static func isSelected(_ id: ProviderID, asked: ProviderID) -> Bool {
    id == asked || (asked.rawValue == "oidc" && id.rawValue.hasPrefix("oidc-"))
  }

  /// The session's remembered profile; needed to talk to its provider.
  static func profile(for key: SessionKey, in location: StoreLocation) throws -> SessionProfile {
    guard let profile = try location.profiles.profile(for: key) else {
      throw CommandExit(
        status: 1,
        message: "error: configuration: the CLI does not remember how session \(key) was made "
          + "(\(location.profiles.url.path)); sign in again with 'sociallogin login "
          + "\(key.provider)'.")
    }
    return profile
  }
}
