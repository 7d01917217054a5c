import Dispatch
import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench chaos-worker`: one replica of the `chaos` bench, killed (SIGKILL) at any
/// step. It loops forced refreshes of one session through a `LoginClient` on the shared store
/// and prints one line per outcome, so the parent counts what survives the kills:
///
/// ```
/// outcome <subject> refreshed
/// outcome <subject> signedout <reason>
/// outcome <subject> error <code>
/// outcome <subject> missing
/// ```
///
/// After its session is lost it waits for a `session <subject>` line on stdin (the parent
/// seeds a new session and says which); it exits when stdin ends, so it never outlives the
/// parent.
///
/// ```
/// sociallogin-bench chaos-worker --store redis://127.0.0.1:6390 --prefix p \
///   --token-endpoint http://127.0.0.1:5000/token --subject chaos-0
/// ```
enum ChaosWorker {
  struct Options: Equatable {
    /// `redis://...`/`rediss://...`, or `file:DIR`.
    var store = ""
    var prefix = "sociallogin"
    var tokenEndpoint: URL?
    var subject = ""
    var leaseTTL = Duration.seconds(2)
    /// The spend claim's time to live: how long a dead leader's claim holds the others off.
    var claimTTL = Duration.seconds(3)
    /// The provider's reuse grace (`RedisSessionStore.Options.refreshTokenReuseGrace`: a dead
    /// leader's spend claim is waited for at most half of it, so the retry lands inside it).
    var grace: Duration?

    init?(_ arguments: [String]) {
      let parsed = BenchArguments.forEachPair(arguments, allowsEmptyValues: false) {
        name, value in
        switch name {
        case "--store": store = value
        case "--prefix": prefix = value
        case "--token-endpoint":
          guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https"
          else { return false }
          tokenEndpoint = url
        case "--subject": subject = value
        case "--lease-ttl-ms": return BenchArguments.set(&leaseTTL, milliseconds: value)
        case "--claim-ttl-ms": return BenchArguments.set(&claimTTL, milliseconds: value)
        case "--grace-ms":
          grace = BenchArguments.milliseconds(value, atLeast: 0)
          return grace != nil
        default: return false
        }
        return true
      }
      guard parsed, !store.isEmpty, tokenEndpoint != nil, !subject.isEmpty else { return nil }
    }

    /// The arguments that parse back to these options (how the parent starts a worker).
    var arguments: [String] {
      var result = [
        "--store", store, "--prefix", prefix, "--token-endpoint",
        tokenEndpoint?.absoluteString ?? "", "--subject", subject,
        "--lease-ttl-ms", String(Self.milliseconds(leaseTTL)),
        "--claim-ttl-ms", String(Self.milliseconds(claimTTL)),
      ]
      if let grace { result += ["--grace-ms", String(Self.milliseconds(grace))] }
      return result
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
  }

  /// One outcome line: `outcome <subject> <kind> [<detail>]`, with no spaces inside a field.
  static func outcomeLine(subject: String, _ result: Result<Void, any Error>) -> String {
    switch result {
    case .success: return "outcome \(subject) refreshed"
    case .failure(let error as AuthError):
      if let reason = error.signOutReason {
        return "outcome \(subject) signedout \(token(reason))"
      }
      return "outcome \(subject) error \(error.code.rawValue)"
    case .failure(let error): return "outcome \(subject) error \(token("\(type(of: error))"))"
    }
  }

  /// `reason` as one field: `SignOutReason`'s case name where it has one.
  static func token(_ reason: SignOutReason) -> String {
    switch reason {
    case .refreshResponseLost: return "refreshResponseLost"
    case .reuseDetected: return "reuseDetected"
    case .refreshTokenRevoked: return "refreshTokenRevoked"
    case .storageLost: return "storageLost"
    case .refreshTokenExpired: return "refreshTokenExpired"
    case .sessionInvalidated: return "sessionInvalidated"
    case .providerRejected(let code): return "providerRejected:" + token(code)
    default: return token("\(reason)")
    }
  }

  static func token(_ text: String) -> String {
    let cleaned = text.map { $0.isWhitespace ? "_" : $0 }
    return cleaned.isEmpty ? "-" : String(cleaned)
  }

  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  static func run(_ arguments: [String]) async -> Int32 {
    guard let options = Options(arguments), let endpoint = options.tokenEndpoint else {
      FileHandle.standardError.write(
        Data(
          ("usage: chaos-worker --store (redis://...|file:DIR) --token-endpoint URL "
            + "--subject S [--prefix P] [--lease-ttl-ms N] [--claim-ttl-ms N] [--grace-ms N]\n")
            .utf8))
      return 2
    }
    let subject = Locked(options.subject)
    // The parent names each new session on stdin; the end of stdin means the parent is gone.
    Thread.detachNewThread {
      while let line = readLine() {
        if line.hasPrefix("session ") { subject.withLock { $0 = String(line.dropFirst(8)) } }
      }
      exit(0)
    }
    do {
      let store = try await openStore(options)
      let provider = RefreshOnlyProvider(
        id: .twitter, tokenEndpoint: endpoint, transport: LoopbackTransport())
      let client = try LoginClient(providers: [provider], store: store)
      var lost: String?
      while true {
        let current = subject.withLock { $0 }
        if current == lost {
          try await Task.sleep(for: .milliseconds(20))
          continue
        }
        let key = SessionKey(provider: .twitter, subject: current)
        let result: Result<Void, any Error>
        do {
          guard let session = try await client.loadSession(key) else {
            say("outcome \(current) missing")
            try await Task.sleep(for: .milliseconds(100))
            continue
          }
          _ = try await session.forceRefresh(timeout: .seconds(30))
          result = .success(())
        } catch {
          result = .failure(error)
        }
        say(outcomeLine(subject: current, result))
        if case .failure(let error as AuthError) = result {
          if error.signOutReason != nil {
            lost = current
          } else {
            // Transient (Redis restarting, the provider slow): do not spin.
            try await Task.sleep(for: .milliseconds(50))
          }
        } else if case .failure = result {
          try await Task.sleep(for: .milliseconds(50))
        }
      }
    } catch {
      FileHandle.standardError.write(Data("chaos worker failed: \(error)\n".utf8))
      return 1
    }
  }

  static func openStore(_ options: Options) async throws -> any SessionStore {
    if options.store.hasPrefix("file:") {
      let directory = URL(fileURLWithPath: String(options.store.dropFirst("file:".count)))
      guard case .keyRing(let ring) = BenchSealing.sealing else {
        return try FileSessionStore(directory: directory)
      }
      return try FileSessionStore(directory: directory, sealing: ring)
    }
    return try await RedisSessionStore.connect(
      url: options.store, sealing: BenchSealing.sealing,
      options: RedisSessionStore.Options(
        keyPrefix: options.prefix, leaseTimeToLive: options.leaseTTL,
        leasePollInterval: .milliseconds(50), spendClaimTimeToLive: options.claimTTL,
        refreshTokenReuseGrace: options.grace.map { [.twitter: $0] } ?? [:]))
  }
}
