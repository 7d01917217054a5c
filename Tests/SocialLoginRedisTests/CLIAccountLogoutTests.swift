import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@testable import SocialLoginRedis

/// `sociallogin link`, `unlink` and `logout --account` on a Redis store under a
/// `--key-prefix`: the operator's CLI signs an account out, and a service replica following
/// the store ends the sessions it holds.
@Suite(.oneCLIAtATime, .redisAvailable, .needsCLIBinary, .timeLimit(.minutes(3)))
struct CLIAccountLogoutTests {
  let line = SessionKey(provider: .line, subject: "ada-line")
  let facebook = SessionKey(provider: .facebook, subject: "ada-fb")
  let bob = SessionKey(provider: .line, subject: "bob-line")

  func seed(_ store: RedisSessionStore, _ key: SessionKey) async throws {
    _ = try await store.save(
      StoredSession(
        key: key,
        credential: Credential(
          accessToken: "at", refreshToken: "rt", expiresAt: Date().addingTimeInterval(3600)),
        signedInAt: Date()),
      expectedVersion: nil)
  }

  @Test func logoutAccountEndsTheLinkedSessionsOnAReplica() async throws {
    let home = try CLIProcess.makeHome("cli-account")
    defer { try? FileManager.default.removeItem(at: home) }
    try await RedisFixture.with { server in
      let prefix = uniquePrefix()
      let store = try server.store(.init(keyPrefix: prefix))
      defer { store.client.close() }
      for key in [line, facebook, bob] { try await seed(store, key) }
      let common = [
        "--store", server.url, "--key-prefix", prefix, "--sealing-key-file", TestSealing.keyFile,
      ]
      for key in [line, facebook] {
        let linked = try await CLIProcess.run(
          [
            "link", "--account", "ada", "--provider", key.provider.rawValue, "--subject",
            key.subject,
          ]
            + common, home: home)
        #expect(linked.status == 0, "\(linked.stderr)")
      }
      #expect(try await store.sessionKeys(of: AccountID("ada")) == [facebook, line])
      let again = try await CLIProcess.run(
        ["link", "--account", "mallory", "--provider", "line", "--subject", "ada-line"] + common,
        home: home)
      #expect(again.status == 1, "a key of another account is refused")
      #expect(again.stderr.contains("account_link_conflict") || again.stderr.contains("linked"))

      // A service replica holding the sessions live.
      let replica = try LoginClient(
        providers: [ScriptedProvider(id: .line, clock: SystemAuthClock())], store: store,
        policy: RefreshPolicy(proactiveMargin: nil))
      try await replica.restoreSessions()
      let live = try #require(replica.session(for: line))

      // The default prefix holds none of these: nothing happens there.
      let elsewhere = try await CLIProcess.run(
        [
          "logout", "--account", "ada", "--store", server.url, "--sealing-key-file",
          TestSealing.keyFile,
        ], home: home)
      #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
      #expect(try await store.load(line) != nil)

      let result = try await CLIProcess.run(["logout", "--account", "ada"] + common, home: home)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("2 of 2"), "\(result.stderr)")
      try await WaitTimeout.yieldUntil("the replica ends the session", timeout: .seconds(10)) {
        live.currentState == .signedOut(.signedOutByOperator)
      }
      #expect(try await store.load(line) == nil)
      #expect(try await store.load(facebook) == nil)
      #expect(try await store.load(bob) != nil, "another account's session stays")
      #expect(try await store.account(of: line) == AccountID("ada"), "the links stay")
      // What a command that meets the ended session says: why it ended.
      let token = try await CLIProcess.run(
        ["token", "--provider", "line", "--subject", "ada-line"] + common, home: home)
      #expect(token.status == 1)
      #expect(token.stderr.contains("signed out (signed out by an operator)"), "\(token.stderr)")

      let unlinked = try await CLIProcess.run(
        ["unlink", "--provider", "line", "--subject", "bob-line"] + common, home: home)
      #expect(unlinked.status == 0 && unlinked.stdout.isEmpty, "bob had no link")
    }
  }

  @Test func badAccountsAndPrefixesAreUsageErrors() async throws {
    let home = try CLIProcess.makeHome("cli-account")
    defer { try? FileManager.default.removeItem(at: home) }
    let directory = home.appendingPathComponent("sessions").path
    for arguments in [
      ["logout", "--account", "", "--store", directory],
      ["logout", "--account", "a\u{1B}[31m", "--store", directory],
      ["logout", "--account", "ada", "--provider", "line", "--store", directory],
      ["logout", "--account", "ada", "--store", directory, "--key-prefix", "p"],
      ["link", "--provider", "line", "--store", directory],
    ] {
      let result = try await CLIProcess.run(arguments, home: home)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("\u{1B}"), "no control character echoed")
    }
  }
}
