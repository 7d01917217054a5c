import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// CONTRIBUTING's table of what a Redis store writes stays true: a session's whole life on a
/// real Redis (login, refresh under a lease with an intent, a pending login, a nonce, an
/// account link, a record set aside, a sign-out), then every key under the prefix must have a
/// row, and every row but the channel must have been seen.
@Suite(.redisAvailable, .timeLimit(.minutes(2))) struct RedisLayoutDocumentationTests {
  /// The key shapes of CONTRIBUTING's table ("What a Redis store writes").
  static func documentedShapes() throws -> Set<String> {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("CONTRIBUTING.md")
    let text = try String(contentsOf: file, encoding: .utf8)
    let section = try #require(
      text.components(separatedBy: "## What a Redis store writes").dropFirst().first?
        .components(separatedBy: "\n## ").first)
    var shapes = Set<String>()
    for line in section.split(separator: "\n") where line.hasPrefix("| `<prefix>") {
      let cell = line.dropFirst(3)
      if let end = cell.firstIndex(of: "`") { shapes.insert(String(cell[..<end])) }
    }
    return shapes
  }

  /// `name` with the prefix, tags, digests and other variable parts put back into the table's
  /// placeholders.
  static func shape(of name: String, prefix: String, accountTag: String) -> String {
    var rest = String(name.dropFirst(prefix.count))
    rest = rest.replacingOccurrences(of: "{\(accountTag)}", with: "{<account tag>}")
    if let braces = rest.range(of: #"\{[0-9a-f]{64}\}"#, options: .regularExpression) {
      rest.replaceSubrange(braces, with: "{<digest>}")
    }
    if let braces = rest.range(of: #"\{[0-9a-f]{32}\}"#, options: .regularExpression) {
      rest.replaceSubrange(braces, with: "{<tag>}")
    }
    if let corrupt = rest.range(of: ":corrupt:") {
      rest = String(rest[..<corrupt.upperBound]) + "<id>"
    }
    if rest.hasPrefix(":index:") { rest = ":index:<provider>" }
    return "<prefix>" + rest
  }

  @Test func everyKeyAStoreWritesIsInTheTable() async throws {
    let documented = try Self.documentedShapes()
    #expect(documented.count >= 12, "\(documented)")
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let store = try server.store(.init(keyPrefix: prefix))
      defer { store.client.close() }
      // A login, a refresh under a lease, a pending login, a sign-out.
      _ = try await RedisUntrustedStorageTests.lifeOfASession(store, subject: "gone")
      // A session alive, its lease held with an intent to spend.
      let alive = try await store.save(
        SessionStoreContract.sampleSession("alive"), expectedVersion: nil)
      let lease = try await store.lockRefresh(for: alive.key)
      try await lease.recordIntent(toSpend: SpendIntent.digest(of: "refresh-token-value"))
      // A nonce, an account link.
      try await RedisNonceStore(client: store.client, keyPrefix: prefix).insert(
        Secret("nonce-value"), expiresAt: Date().addingTimeInterval(600))
      let account = try AccountID("account-1")
      try await store.link(alive.key, to: account)
      // A record that cannot be read, set aside by the next load.
      let broken = SessionKey(provider: .twitter, subject: "broken")
      let brokenKey = store.keys.session(tag: RedisKeys.tag(for: broken))
      _ = try await store.client.send(["HSET", brokenKey, "v", "x", "d", "not a record"])
      _ = try? await store.load(broken)

      let accountTag = RedisKeys.tag(for: account)
      let client = store.client
      @Sendable func scan() async throws -> Set<String> {
        var shapes = Set<String>()
        var cursor = "0"
        repeat {
          let reply = try await client.send(["SCAN", cursor, "MATCH", "\(prefix):*"])
          let parts = try #require(reply.elements)
          cursor = try #require(parts[0].string)
          for name in (parts[1].elements ?? []).compactMap(\.string) {
            shapes.insert(Self.shape(of: name, prefix: prefix, accountTag: accountTag))
          }
        } while cursor != "0"
        return shapes
      }
      // A pending login being taken: its claim exists while the callback is validated.
      let pending = store.pendingLogins()
      try await pending.insert(
        PendingLogin(
          provider: .twitter, state: Secret("state-taken"), redirectURI: "https://a.test/cb",
          codeVerifier: "verifier-secret", createdAt: Date(),
          expiresAt: Date().addingTimeInterval(600)))
      let seen = try await pending.take(state: "state-taken") { _ in try await scan() }
      await lease.release()
      #expect(seen.subtracting(documented).isEmpty, "undocumented: \(seen.subtracting(documented))")
      #expect(
        documented.subtracting(seen).isEmpty,
        "documented but never written: \(documented.subtracting(seen))")
    }
  }
}
