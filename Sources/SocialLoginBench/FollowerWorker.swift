import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench replicas-follower`: one replica of a service holding sessions through a
/// `LoginClient` on the Redis store, as a child process of the sign-out bench and of the
/// Redis tests. It restores every stored X, LINE, Facebook and Firebase session under the
/// prefix (as scripted providers: it never refreshes) and prints `ready`; then, line by line on
/// stdin:
///
/// - `signout SUBJECT` signs that X session out here and prints `signing-out SUBJECT <unix µs>`
///   (taken just before the call) and `signed-out SUBJECT`;
/// - `signout-account ACCOUNT REASON` signs out every session linked to the account
///   (`LoginClient.signOut(account:reason:revoke:)`, no revocation) with REASON
///   (`signedOutByOperator`, `userInitiated`, `accountDisabled` or `accountDeleted`), and prints
///   `signing-out-account ACCOUNT <unix µs>` and `signed-out-account ACCOUNT <keys ended>`;
/// - `exit` ends the process.
///
/// Whenever a session ends — here or because another replica signed it out — it prints
/// `ended SUBJECT <reason> <unix µs> <reason freshAccessToken() threw>` and the same line as
/// `ended-key PROVIDER:SUBJECT …`, and `feed <change>` for every interruption and resumption
/// of the store's change feed.
///
/// ```
/// sociallogin-bench replicas-follower --redis redis://127.0.0.1:6390 --prefix p
/// ```
enum FollowerWorker {
  static func run(_ arguments: [String]) async -> Int32 {
    var redis = WorkerRedis()
    guard BenchArguments.forEachPair(arguments, { redis.take($0, $1) }) else { return usage() }
    do {
      let store = try await redis.connect()
      if let feed = store.changes() {
        Task {
          for await change in feed where change == .interrupted || change == .resumed {
            ReplicasWorker.say("feed \(change)")
          }
        }
      }
      let client = try LoginClient(
        providers: [ProviderID.twitter, .line, .facebook, .firebase].map {
          ScriptedProvider(id: $0, clock: SystemAuthClock())
        }, store: store,
        policy: RefreshPolicy(proactiveMargin: nil))
      try await client.restoreSessions()
      let watchers = client.sessions.map { session in
        Task {
          for await state in session.states {
            guard case .signedOut(let reason) = state else { continue }
            let at = ReplicasTrace.now()
            var thrown = "none"
            do {
              _ = try await session.freshAccessToken()
            } catch let error as AuthError {
              thrown = error.signOutReason.map(code) ?? error.code.rawValue
            } catch {
              thrown = "\(type(of: error))"
            }
            let tail = "\(code(reason)) \(at) \(thrown)"
            ReplicasWorker.say("ended \(session.key.subject) \(tail)")
            ReplicasWorker.say("ended-key \(session.key) \(tail)")
          }
        }
      }
      ReplicasWorker.say("ready")
      while let line = await ReplicasWorker.readLineOffThePool(), line != "exit" {
        let words = line.split(separator: " ").map(String.init)
        if words.count == 3, words[0] == "signout-account" {
          try await signOut(account: words[1], reason: words[2], client: client)
          continue
        }
        guard words.count == 2, words[0] == "signout",
          let session = client.session(for: SessionKey(provider: .twitter, subject: words[1]))
        else { continue }
        ReplicasWorker.say("signing-out \(words[1]) \(ReplicasTrace.now())")
        try await session.signOut(revoke: false)
        ReplicasWorker.say("signed-out \(words[1])")
      }
      for watcher in watchers { watcher.cancel() }
      withExtendedLifetime(client) {}
      return 0
    } catch {
      FileHandle.standardError.write(Data("follower failed: \(error)\n".utf8))
      return 1
    }
  }

  /// Signs out every session linked to `account` with the reason named `reason`.
  static func signOut(account: String, reason: String, client: LoginClient) async throws {
    let reasons: [String: SignOutReason] = [
      "userInitiated": .userInitiated, "accountDisabled": .accountDisabled,
      "accountDeleted": .accountDeleted, "signedOutByOperator": .signedOutByOperator,
    ]
    guard let reason = reasons[reason] else {
      ReplicasWorker.say("unknown-reason \(reason)")
      return
    }
    let id = try AccountID(account)
    ReplicasWorker.say("signing-out-account \(account) \(ReplicasTrace.now())")
    let ended = try await client.signOut(account: id, reason: reason, revoke: false)
    ReplicasWorker.say("signed-out-account \(account) \(ended.count)")
  }

  /// A reason as one word (`userInitiated`), for the line protocol.
  static func code(_ reason: SignOutReason) -> String {
    guard let data = try? JSONEncoder().encode(reason),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let name = object.keys.first
    else { return "\(reason)".replacingOccurrences(of: " ", with: "-") }
    return name
  }

  static func usage() -> Int32 {
    FileHandle.standardError.write(
      Data("usage: replicas-follower --redis URL [--prefix P]\n".utf8))
    return 2
  }
}
