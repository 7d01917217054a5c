import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench events-worker`: one replica of a service that receives provider events,
/// as a child process of the Redis tests: a `LoginClient` on the Redis store with one OpenID
/// provider `corp` (issuer `https://op.example`, client `rp-1`, an HS256 key `k1` whose
/// secret is `--key`, base64url), and a ``ProviderEventReceiver`` keeping seen ids in the store's
/// Redis nonce store. It prints `ready`; then, line by line on stdin:
///
/// - `hold TAG SUBJECT` loads the `corp` session of SUBJECT (if stored) and watches it, and
///   prints `held TAG SUBJECT <state>`;
/// - `deliver TAG BODY` hands the receiver `POST /oidc/backchannel-logout` with BODY (the
///   form, base64url) and prints `delivered TAG <status>`;
/// - `state TAG SUBJECT` prints `state TAG SUBJECT <state>` of the session held for SUBJECT;
/// - `exit` ends the process.
///
/// A held session that ends prints `ended SUBJECT <reason>`. A state is `signedIn`,
/// `signedOut-<reason>` or `none`.
///
/// ```
/// sociallogin-bench events-worker --redis redis://127.0.0.1:6390 --prefix p --key cmVk…
/// ```
enum EventsWorker {
  static func run(_ arguments: [String]) async -> Int32 {
    var redis = WorkerRedis()
    var keyText = ""
    let parsed = BenchArguments.forEachPair(arguments) { name, value in
      guard name == "--key" else { return redis.take(name, value) }
      keyText = value
      return true
    }
    guard parsed, let secret = try? Base64URL.decode(keyText), secret.count >= 32,
      let issuer = URL(string: "https://op.example")
    else { return usage() }
    do {
      let store = try await redis.connect()
      let stub = StubTransport()
      stub.on(
        "GET", "/jwks", repeating: true,
        reply: .json(
          #"{"keys":[{"kty":"oct","kid":"k1","alg":"HS256","k":"\#(Base64URL.encode(secret))"}]}"#
        ))
      let provider = OIDCProvider(
        id: "corp",
        configuration: .init(
          issuer: issuer, clientID: "rp-1", allowedAlgorithms: [.hs256],
          metadata: OIDCProviderMetadata(
            issuer: issuer.absoluteString,
            authorizationEndpoint: issuer.appendingPathComponent("a"),
            tokenEndpoint: issuer.appendingPathComponent("t"),
            jwksURI: issuer.appendingPathComponent("jwks"))),
        transport: stub)
      let client = try LoginClient(
        providers: [provider], store: store, policy: RefreshPolicy(proactiveMargin: nil))
      let receiver = ProviderEventReceiver(client: client, seen: store.nonces())
      var held: [String: SessionActor] = [:]
      var watchers: [Task<Void, Never>] = []
      ReplicasWorker.say("ready")
      while let line = await ReplicasWorker.readLineOffThePool(), line != "exit" {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 3 else { continue }
        switch words[0] {
        case "hold":
          let key = SessionKey(provider: "corp", subject: words[2])
          if let session = try await client.loadSession(key), held[words[2]] !== session {
            held[words[2]] = session
            watchers.append(watch(session))
          }
          ReplicasWorker.say("held \(words[1]) \(words[2]) \(state(held[words[2]]))")
        case "deliver":
          let body = (try? Base64URL.decode(words[2])) ?? []
          let response = await receiver.handle(
            ProviderEventRequest(method: "POST", path: "/oidc/backchannel-logout", body: body))
          ReplicasWorker.say("delivered \(words[1]) \(response.status)")
        case "state":
          ReplicasWorker.say("state \(words[1]) \(words[2]) \(state(held[words[2]]))")
        default:
          continue
        }
      }
      for watcher in watchers { watcher.cancel() }
      store.client.close()
      return 0
    } catch {
      FileHandle.standardError.write(Data("events worker failed: \(error)\n".utf8))
      return 1
    }
  }

  /// Prints `ended SUBJECT <reason>` when `session` ends.
  static func watch(_ session: SessionActor) -> Task<Void, Never> {
    Task {
      for await state in session.states {
        guard case .signedOut(let reason) = state else { continue }
        ReplicasWorker.say("ended \(session.key.subject) \(FollowerWorker.code(reason))")
        return
      }
    }
  }

  /// `signedIn`, `signedOut-<reason>` or `none`, as one word.
  static func state(_ session: SessionActor?) -> String {
    guard let session else { return "none" }
    switch session.currentState {
    case .signedOut(let reason): return "signedOut-\(FollowerWorker.code(reason))"
    case .signedIn: return "signedIn"
    case .degraded: return "degraded"
    }
  }

  static func usage() -> Int32 {
    FileHandle.standardError.write(
      Data("usage: events-worker --redis URL [--prefix P] --key BASE64URL(32+ bytes)\n".utf8))
    return 2
  }
}
