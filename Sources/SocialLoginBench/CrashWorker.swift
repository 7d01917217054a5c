import Dispatch
import Foundation
import SocialLogin
import SocialLoginRedis
import SocialLoginTesting

/// `sociallogin-bench crash-worker`: one process holding one session on a file or Redis store,
/// refreshing it against a token endpoint, that can stop at a chosen step of the refresh so
/// that the crash-matrix tests kill it (SIGKILL) or restart Redis exactly there.
///
/// It opens the store (`--store DIR` or `--store redis://...`, sealed with the bench's key
/// ring), loads the session of provider `crash` and `--subject`, prints `ready`, waits for
/// `go` on stdin, then runs `--callers` concurrent `freshAccessToken()` calls. At the step
/// named by `--pause-at` it prints `at <step>` and waits for another `go` (a test kills it or
/// lets it go on). Each caller prints `outcome token:<access token>` or
/// `outcome error:<code>[:<sign-out reason>]`, and the process prints `done` at the end.
///
/// Steps: `lease` (the lease was taken, nothing recorded or sent), `answered` (the provider's
/// answer arrived, before the store write), `written` (the write landed — on Redis with its
/// hint — before the lease was released), `release` (just before the release), `none`. The
/// step "the request was sent" is the token server's to hold (`RotatingTokenServer`).
///
/// ```
/// sociallogin-bench crash-worker --store redis://127.0.0.1:6390 --prefix p \
///   --token-endpoint http://127.0.0.1:5000/token --subject u --pause-at answered
/// ```
enum CrashWorker {
  /// The provider id of the crash-matrix sessions.
  static let provider: ProviderID = "crash"

  enum Step: String, CaseIterable, Sendable {
    case lease, answered, written, release, none
  }

  struct Options {
    var store = ""
    var prefix = "sociallogin"
    var tokenEndpoint: URL?
    var subject = "crash-user"
    var pauseAt = Step.none
    var callers = 1
    var leaseTTL = Duration.seconds(10)
    var claimTTL = Duration.seconds(60)
    var grace: Duration?
    var pollInterval = Duration.milliseconds(100)

    init?(_ arguments: [String]) {
      let parsed = BenchArguments.forEachPair(arguments) { name, value in
        switch name {
        case "--store": store = value
        case "--prefix": prefix = value
        case "--token-endpoint": tokenEndpoint = URL(string: value)
        case "--subject": subject = value
        case "--pause-at":
          guard let step = Step(rawValue: value) else { return false }
          pauseAt = step
        case "--callers":
          guard let count = Int(value), (1...1000).contains(count) else { return false }
          callers = count
        case "--lease-ttl-ms": return BenchArguments.set(&leaseTTL, milliseconds: value)
        case "--claim-ttl-ms": return BenchArguments.set(&claimTTL, milliseconds: value)
        case "--grace-ms":
          grace = BenchArguments.milliseconds(value)
          return grace != nil
        case "--poll-ms": return BenchArguments.set(&pollInterval, milliseconds: value)
        default: return false
        }
        return true
      }
      if !parsed || store.isEmpty || tokenEndpoint == nil { return nil }
    }
  }

  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// Opens the store `options.store` names.
  static func openStore(_ options: Options) async throws -> any SessionStore {
    guard options.store.hasPrefix("redis") else {
      return try FileSessionStore(directory: URL(fileURLWithPath: options.store))
    }
    return try await RedisSessionStore.connect(
      url: options.store, sealing: BenchSealing.sealing,
      options: RedisSessionStore.Options(
        keyPrefix: options.prefix, leaseTimeToLive: options.leaseTTL,
        leasePollInterval: options.pollInterval, spendClaimTimeToLive: options.claimTTL,
        refreshTokenReuseGrace: options.grace.map { [provider: $0] } ?? [:]))
  }

  static func run(_ arguments: [String]) async -> Int32 {
    guard let options = Options(arguments), let endpoint = options.tokenEndpoint else {
      FileHandle.standardError.write(
        Data(
          ("usage: crash-worker --store DIR|redis://... --token-endpoint URL [--subject S] "
            + "[--pause-at lease|answered|written|release|none] [--callers N] [--prefix P] "
            + "[--lease-ttl-ms N] [--claim-ttl-ms N] [--grace-ms N] [--poll-ms N]\n").utf8))
      return 2
    }
    do {
      let store = PausingStore(base: try await openStore(options), step: options.pauseAt)
      let key = SessionKey(provider: provider, subject: options.subject)
      guard let record = try await store.load(key) else {
        let reason = try await store.deletionReason(for: key)
        say("outcome gone:\(reason.map { "\($0)" } ?? "none")")
        say("done")
        return 0
      }
      let refresher = RefreshOnlyProvider(id: provider, tokenEndpoint: endpoint)
      let session = SessionActor(
        record: record, provider: refresher, store: store,
        policy: RefreshPolicy(proactiveMargin: nil))
      say("ready")
      _ = await ReplicasWorker.readLineOffThePool()
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<options.callers {
          group.addTask {
            do {
              say("outcome token:" + (try await session.freshAccessToken(timeout: .seconds(60))))
            } catch let error as AuthError {
              say(
                "outcome error:\(error.code.rawValue)"
                  + (error.signOutReason.map { ":\($0)" } ?? ""))
            } catch {
              say("outcome error:\(type(of: error))")
            }
          }
        }
      }
      // The callers have their answers before the session gives its lease back (it does not
      // make them wait for that round trip); a process that exits at once would leave the
      // lease to lapse. Wait for the release, as a process about to exit should.
      await session.finishRefreshes()
      say("done")
      return 0
    } catch {
      FileHandle.standardError.write(Data("crash-worker failed: \(error)\n".utf8))
      return 1
    }
  }
}

/// A store that stops once at a step of the refresh (``CrashWorker/Step``): it prints
/// `at <step>` and waits for a `go` line on stdin before going on.
struct PausingStore: SessionStore {
  let base: any SessionStore
  let step: CrashWorker.Step
  private let paused = Locked(false)

  /// Stops at `here` if it is the step, the first time only.
  func pause(at here: CrashWorker.Step) async {
    guard here == step, !paused.withLock({ $0 }) else { return }
    paused.withLock { $0 = true }
    CrashWorker.say("at \(here.rawValue)")
    _ = await ReplicasWorker.readLineOffThePool()
  }

  func load(_ key: SessionKey) async throws -> StoredSession? { try await base.load(key) }
  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }

  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    // Only the answer of a refresh is saved by the worker's sessions.
    await pause(at: .answered)
    let saved = try await base.save(session, expectedVersion: expectedVersion)
    await pause(at: .written)
    return saved
  }

  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }
  func delete(_ key: SessionKey, ifVersion version: UInt64, reason: SignOutReason) async throws
    -> Bool
  {
    try await base.delete(key, ifVersion: version, reason: reason)
  }
  func deletionReason(for key: SessionKey) async throws -> SignOutReason? {
    try await base.deletionReason(for: key)
  }
  func changes() -> AsyncStream<SessionStoreChange>? { base.changes() }

  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    let lease = try await base.lockRefresh(for: key)
    await pause(at: .lease)
    return PausingLease(base: lease, store: self)
  }

  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    switch try await base.lockRefresh(for: key, unlessNewerThan: version) {
    case .acquired(let lease):
      await pause(at: .lease)
      return .acquired(PausingLease(base: lease, store: self))
    case .current(let lease):
      await pause(at: .lease)
      return .current(PausingLease(base: lease, store: self))
    case .superseded(let session):
      return .superseded(session)
    }
  }
}

/// A lease that stops before its release when the step is ``CrashWorker/Step/release``.
struct PausingLease: RefreshLease {
  let base: any RefreshLease
  let store: PausingStore

  func release() async {
    await store.pause(at: .release)
    await base.release()
  }

  func isHeld() async -> Bool { await base.isHeld() }

  func recordIntent(toSpend refreshTokenDigest: String) async throws {
    try await base.recordIntent(toSpend: refreshTokenDigest)
  }

  func interruptedIntent() async -> SpendIntent? { await base.interruptedIntent() }
}
