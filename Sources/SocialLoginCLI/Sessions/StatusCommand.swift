import Foundation
import SocialLogin

/// `sociallogin status`: the stored sessions, without contacting any provider.
enum StatusCommand {
  static let command = Command(
    name: "status", summary: "List the stored sessions.",
    discussion: """
      Prints one row per stored session on stdout: provider, subject, name, state and access \
      token expiry. State is 'valid' (the access token is good for at least the refresh \
      leeway), 'refreshable' (expired or about to, with a refresh token: 'token' refreshes it), \
      or 'expired' (no refresh token: sign in again). '(login settings not remembered)' \
      follows the state of a session that this CLI's 'login' did not make (or whose settings \
      were forgotten): the CLI cannot reach its provider for it (to refresh or revoke) until \
      you sign in again with 'sociallogin login'. No provider is contacted. With --json, one JSON array instead \
      (expires_at in ISO 8601, null when the token has no expiry; profile: whether the login \
      settings are remembered).
      """,
    options: [
      json, StoreLocation.option, StoreLocation.sealingOption, StoreLocation.keyPrefixOption,
    ],
    run: run)

  /// `--json`.
  static let json = Option.flag("--json", help: "print a JSON array instead of a table")

  struct Row {
    var key: SessionKey
    var name: String?
    var email: String?
    var state: String
    var expiresAt: Date?
    var hasRefreshToken: Bool
    var remembered: Bool
  }

  static func run(_ invocation: Invocation) async throws -> Int32 {
    let location = try await StoreLocation.open(invocation)
    let snapshot = try await location.store.loadAll()
    for failure in snapshot.failures {
      Console.error("warning: \(failure.location): \(failure.error.message)\n")
    }
    let profiles = (try? location.profiles.load()) ?? [:]
    let now = Date()
    let leeway = Double(RefreshPolicy().leeway.components.seconds)
    let rows = snapshot.sessions.sorted { $0.key < $1.key }.map { record in
      let credential = record.credential
      let state =
        credential.isValid(at: now, minimumTTL: leeway)
        ? "valid" : credential.refreshToken == nil ? "expired" : "refreshable"
      return Row(
        key: record.key, name: record.identity?.name, email: record.identity?.email,
        state: state, expiresAt: credential.localExpiresAt,
        hasRefreshToken: credential.refreshToken != nil,
        remembered: profiles[record.key.description] != nil)
    }
    if invocation.arguments.flag(json) {
      Console.out(IdentityJSON.pretty(.array(rows.map(json))) + "\n")
      return 0
    }
    guard !rows.isEmpty else {
      Console.error("No sessions in \(location.displayName). Sign in with 'sociallogin login'.\n")
      return 0
    }
    Console.out(table(rows))
    return 0
  }

  static func json(_ row: Row) -> JSONValue {
    [
      "provider": .string(row.key.provider.rawValue),
      "subject": .string(row.key.subject),
      "name": row.name.map { .string($0) } ?? .null,
      "email": row.email.map { .string($0) } ?? .null,
      "state": .string(row.state),
      "expires_at": row.expiresAt.map { .string(IdentityJSON.iso8601($0)) } ?? .null,
      "refreshable": .bool(row.hasRefreshToken),
      "profile": .bool(row.remembered),
    ]
  }

  static func table(_ rows: [Row]) -> String {
    let header = ["PROVIDER", "SUBJECT", "NAME", "STATE", "EXPIRES"]
    let cells = rows.map { row in
      [
        row.key.provider.rawValue, row.key.subject, row.name ?? "-",
        row.state + (row.remembered ? "" : " (login settings not remembered)"),
        row.expiresAt.map(IdentityJSON.iso8601) ?? "never",
      ].map(Console.oneLine)
    }
    let widths = header.indices.map { column in
      ([header] + cells).map { $0[column].count }.max() ?? 0
    }
    return ([header] + cells).map { line in
      line.enumerated().map { column, text in
        column == line.count - 1
          ? text : text + String(repeating: " ", count: widths[column] - text.count)
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
