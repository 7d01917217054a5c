import Foundation
import SocialLogin
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `replicas-worker --trace`: timestamps (wall clock, comparable across processes) of each step
/// of a cross-process refresh, kept in memory while it runs (a write per event would slow what
/// it measures) and printed to stderr at the end as `trace <pid> <event> <unix µs>`, so the
/// bench can break a waiter's latency down: when the lease is won, when the provider answered
/// (the save starts), when the record is written, when the release is published, when other
/// processes' followers get the lease back and how long their re-read takes.
enum ReplicasTrace {
  nonisolated(unsafe) static var enabled = false

  /// Microseconds since the Unix epoch (`CLOCK_REALTIME`, shared by every process).
  static func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
  }

  private static let events = Mutex<[(String, Int64)]>([])
  private static let save = Mutex<Int64>(0)

  /// When this process first started writing a session (the leader's write of the refreshed
  /// record), traced or not; 0 when it wrote none.
  static var firstSave: Int64 { save.withLock { $0 } }

  static func noteFirstSave() {
    save.withLock { if $0 == 0 { $0 = now() } }
  }

  static func mark(_ event: String) {
    guard enabled else { return }
    let time = now()
    events.withLock { $0.append((event, time)) }
  }

  /// Prints the events so far to stderr and forgets them.
  static func flush() {
    guard enabled else { return }
    let taken = events.withLock { events in
      defer { events = [] }
      return events
    }
    let text = taken.map { "trace \(getpid()) \($0.0) \($0.1)\n" }.joined()
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// A store that traces the start and end of every call it forwards (when tracing is on) and
/// tells the worker when it wins the lease.
struct TracingStore: SessionStore {
  let base: any SessionStore
  /// Runs whenever this replica wins the refresh lease.
  var onLease: @Sendable () -> Void = {}

  func load(_ key: SessionKey) async throws -> StoredSession? {
    ReplicasTrace.mark("load-start")
    defer { ReplicasTrace.mark("load-end") }
    return try await base.load(key)
  }

  func loadAll() async throws -> StoreSnapshot { try await base.loadAll() }

  func save(_ session: StoredSession, expectedVersion: UInt64?) async throws -> StoredSession {
    ReplicasTrace.noteFirstSave()
    ReplicasTrace.mark("save-start")
    defer { ReplicasTrace.mark("save-end") }
    return try await base.save(session, expectedVersion: expectedVersion)
  }

  func delete(_ key: SessionKey) async throws { try await base.delete(key) }
  func delete(_ key: SessionKey, ifVersion version: UInt64) async throws -> Bool {
    try await base.delete(key, ifVersion: version)
  }

  func lockRefresh(for key: SessionKey) async throws -> any RefreshLease {
    ReplicasTrace.mark("lock-start")
    let lease = try await base.lockRefresh(for: key)
    ReplicasTrace.mark("lock-won")
    onLease()
    return TracingLease(base: lease)
  }

  func lockRefresh(for key: SessionKey, unlessNewerThan version: UInt64) async throws
    -> RefreshTurn
  {
    ReplicasTrace.mark("turn-start")
    switch try await base.lockRefresh(for: key, unlessNewerThan: version) {
    case .acquired(let lease):
      ReplicasTrace.mark("lock-won")
      onLease()
      return .acquired(TracingLease(base: lease))
    case .current(let lease):
      ReplicasTrace.mark("lock-won")
      onLease()
      return .current(TracingLease(base: lease))
    case .superseded(let session):
      ReplicasTrace.mark("superseded")
      return .superseded(session)
    }
  }
}

/// A lease that traces its release.
struct TracingLease: RefreshLease {
  let base: any RefreshLease

  func release() async {
    ReplicasTrace.mark("release-start")
    await base.release()
    ReplicasTrace.mark("release-end")
  }

  func isHeld() async -> Bool { await base.isHeld() }

  func recordIntent(toSpend refreshTokenDigest: String) async throws {
    try await base.recordIntent(toSpend: refreshTokenDigest)
  }

  func interruptedIntent() async -> SpendIntent? { await base.interruptedIntent() }
}
