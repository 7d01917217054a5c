import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench replicas-follower`: one replica of a service holding one session
/// through a `LoginClient` on the Redis store, as a child process of the sign-out bench and
/// of the Redis tests. It restores the stored session and prints `ready`; then, line by line
/// on stdin:
///
/// - `signout` signs the session out here and prints `signing-out <unix µs>` (taken just
///   before the call) and `signed-out`;
/// - `exit` ends the process.
///
/// Whenever the session ends — here or because another replica signed it out — it prints
/// `ended <reason> <unix µs> <reason freshAccessToken() threw>`, and `feed <change>` for
/// every interruption and resumption of the store's change feed.
///
/// ```
/// sociallogin-bench replicas-follower --redis redis://127.0.0.1:6390 --prefix p --subject u
/// ```
enum FollowerWorker {
  static func run(_ arguments: [String]) async -> Int32 {
    var redis = "redis://127.0.0.1:6379"
    var prefix = "sociallogin"
    var subject = ReplicasWorker.subject
    var iterator = arguments.makeIterator()
    while let name = iterator.next() {
      guard let value = iterator.next() else { return usage() }
      switch name {
      case "--redis": redis = value
      case "--prefix": prefix = value
      case "--subject": subject = value
      default: return usage()
      }
    }
    do {
      let store = try await RedisSessionStore.connect(
        url: redis, options: RedisSessionStore.Options(keyPrefix: prefix))
      if let feed = store.changes() {
        Task {
          for await change in feed where change == .interrupted || change == .resumed {
            ReplicasWorker.say("feed \(change)")
          }
        }
      }
      let client = try LoginClient(
        providers: [ScriptedProvider(id: .twitter, clock: SystemAuthClock())], store: store,
        policy: RefreshPolicy(proactiveMargin: nil))
      try await client.restoreSessions()
      guard let session = client.session(for: SessionKey(provider: .twitter, subject: subject))
      else {
        FileHandle.standardError.write(Data("no stored session\n".utf8))
        return 1
      }
      let watcher = Task {
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
          ReplicasWorker.say("ended \(code(reason)) \(at) \(thrown)")
        }
      }
      ReplicasWorker.say("ready")
      while let line = await ReplicasWorker.readLineOffThePool() {
        switch line {
        case "signout":
          ReplicasWorker.say("signing-out \(ReplicasTrace.now())")
          try await session.signOut(revoke: false)
          ReplicasWorker.say("signed-out")
        case "exit":
          watcher.cancel()
          return 0
        default:
          continue
        }
      }
      watcher.cancel()
      withExtendedLifetime(client) {}
      return 0
    } catch {
      FileHandle.standardError.write(Data("follower failed: \(error)\n".utf8))
      return 1
    }
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
      Data("usage: replicas-follower --redis URL [--prefix P] [--subject S]\n".utf8))
    return 2
  }
}
