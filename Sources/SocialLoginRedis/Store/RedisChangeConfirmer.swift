import SocialLogin

/// Turns the store's hints into changes it can vouch for: each hint for a write or delete is
/// a reason to re-read that session from Redis and open what is there, and only what opens
/// and is at least as new as the hint is reported on the change feed.
///
/// A hint costs whoever can publish on the server nothing and could name any session at any
/// version, so:
/// - hints wait in a bounded queue, one entry per session (the highest version hinted); a
///   flood that overflows it is reported as a cut feed (`interrupted`, then `resumed`), which
///   makes every live session re-read the store itself — nothing is lost, and nothing an
///   outsider sends grows memory past the bound;
/// - at most ``concurrency`` re-reads run at once, never two for one session;
/// - a re-read that finds nothing newer than the hint (a forged or stale hint) reports
///   nothing; one that finds a newer change reports that change.
final class RedisChangeConfirmer: Sendable {
  /// How many sessions may wait for a re-read; a longer queue is dropped as a cut feed.
  static let capacity = 1024
  /// How many re-reads run at once.
  static let concurrency = 4

  private let feed: SessionStoreChangeFeed
  private let copies: RedisMessageCopies
  private let state = Locked(State())
  private let readerBox = Locked<(@Sendable (String) async -> SessionStoreChange?)?>(nil)

  private struct State {
    /// Sessions waiting for a re-read, in arrival order, with the newest change hinted.
    var pending: [String: RedisChangeRank] = [:]
    var order: [String] = []
    /// Sessions being re-read now.
    var reading: Set<String> = []
    var workers = 0
    var rejected = 0
    var overflows = 0
    var unconfirmed = 0
    var hints = 0
    var rereads = 0
  }

  init(feed: SessionStoreChangeFeed, copies: RedisMessageCopies) {
    self.feed = feed
    self.copies = copies
  }

  /// Reads the session of a tag from the store and opens it: a written record, a deletion
  /// with its sealed notice, or `nil` when there is neither (or it does not open).
  var reader: (@Sendable (String) async -> SessionStoreChange?)? {
    get { readerBox.withLock { $0 } }
    set { readerBox.withLock { $0 = newValue } }
  }

  /// Payloads dropped for their shape (tests, metrics).
  var rejectedHints: Int { state.withLock { $0.rejected } }
  /// Hints whose re-read found nothing at least as new (tests).
  var unconfirmedHints: Int { state.withLock { $0.unconfirmed } }
  /// Whether no hint waits and no re-read runs (tests).
  var isIdle: Bool { state.withLock { $0.workers == 0 && $0.order.isEmpty } }
  /// Write and delete hints handed to ``enqueue(_:)`` (tests).
  var hintsSeen: Int { state.withLock { $0.hints } }
  /// Re-reads made (tests, the bench).
  var rereads: Int { state.withLock { $0.rereads } }
  /// Times the queue overflowed and was reported as a cut feed.
  var overflows: Int { state.withLock { $0.overflows } }

  func countRejected() { state.withLock { $0.rejected += 1 } }

  /// Queues a re-read for a write or delete hint (already parsed and shape-checked).
  func enqueue(_ hint: RedisStoreMessage) {
    state.withLock { $0.hints += 1 }
    // A copy of a change already confirmed and reported costs nothing more.
    let rank = RedisChangeRank(version: hint.version, deletion: hint.kind == .deleted)
    if copies.isKnown(tag: hint.tag, rank) { return }
    enum Action { case none, startWorker, overflow }
    let action = state.withLock { state -> Action in
      if let known = state.pending[hint.tag] {
        state.pending[hint.tag] = max(known, rank)
        return .none
      }
      guard state.order.count < Self.capacity else {
        state.pending.removeAll()
        state.order.removeAll()
        state.overflows += 1
        return .overflow
      }
      state.pending[hint.tag] = rank
      state.order.append(hint.tag)
      guard state.workers < Self.concurrency else { return .none }
      state.workers += 1
      return .startWorker
    }
    switch action {
    case .none: break
    case .startWorker: Task { await self.drain() }
    case .overflow:
      // Whatever was queued is dropped: every live session re-reads the store instead.
      feed.publish(.interrupted)
      feed.publish(.resumed)
    }
  }

  /// Re-reads queued sessions until none is left that is not being read.
  private func drain() async {
    while let (tag, hinted) = next() {
      let change = await reader?(tag)
      state.withLock { _ = $0.reading.remove(tag) }
      report(change, tag: tag, hinted: hinted)
    }
  }

  /// The next queued session not being read, or `nil` after ending this worker.
  private func next() -> (String, RedisChangeRank)? {
    state.withLock { state in
      if let index = state.order.firstIndex(where: { !state.reading.contains($0) }) {
        let tag = state.order.remove(at: index)
        let hinted =
          state.pending.removeValue(forKey: tag) ?? RedisChangeRank(version: 0, deletion: false)
        state.reading.insert(tag)
        state.rereads += 1
        return (tag, hinted)
      }
      state.workers -= 1
      return nil
    }
  }

  /// Reports what the re-read found if it is at least as new as the newest change hinted (a
  /// deletion hint is confirmed only by a deletion at that version or by something newer).
  private func report(_ change: SessionStoreChange?, tag: String, hinted: RedisChangeRank) {
    let confirmed: RedisChangeRank?
    switch change {
    case .written(let session):
      confirmed = RedisChangeRank(version: session.version, deletion: false)
    case .deleted(_, let version, _): confirmed = RedisChangeRank(version: version, deletion: true)
    default: confirmed = nil
    }
    guard let confirmed, let change, confirmed >= hinted else {
      state.withLock { $0.unconfirmed += 1 }
      return
    }
    guard copies.record(tag: tag, confirmed) else { return }
    feed.publish(change)
  }
}

/// Where a change stands in a session's history: its version, and a deletion after the write
/// of the same version. Fixed size: what hints are de-duplicated and confirmed on.
struct RedisChangeRank: Comparable, Hashable, Sendable {
  var version: UInt64
  var deletion: Bool

  static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.version, lhs.deletion ? 1 : 0) < (rhs.version, rhs.deletion ? 1 : 0)
  }
}

/// The changes already confirmed and reported, per session: its newest ``RedisChangeRank``. A
/// hint at or below it (a copy from another master on a cluster, a stale or repeated hint) is
/// not read again, and a change is reported once. Only confirmed changes are recorded, so no
/// forged hint can make a genuine one look like a copy. Keeps the last `capacity` sessions.
final class RedisMessageCopies: Sendable {
  private let capacity: Int
  private let state = Locked(State())

  private struct State {
    var newest: [String: RedisChangeRank] = [:]
    var order: [String] = []
    var next = 0
    var dropped = 0
  }

  /// How many hints were passed over as copies of a change already reported (tests).
  var dropped: Int { state.withLock { $0.dropped } }

  init(capacity: Int = 4096) {
    self.capacity = max(1, capacity)
  }

  /// Whether a change at least as new as `rank` was already reported for `tag`.
  func isKnown(tag: String, _ rank: RedisChangeRank) -> Bool {
    state.withLock { state in
      guard let newest = state.newest[tag], rank <= newest else { return false }
      state.dropped += 1
      return true
    }
  }

  /// Records a confirmed change; `false` when one at least as new was already reported.
  func record(tag: String, _ rank: RedisChangeRank) -> Bool {
    state.withLock { state in
      if let newest = state.newest[tag] {
        guard newest < rank else {
          state.dropped += 1
          return false
        }
        state.newest[tag] = rank
        return true
      }
      state.newest[tag] = rank
      if state.order.count < capacity {
        state.order.append(tag)
      } else {
        state.newest.removeValue(forKey: state.order[state.next])
        state.order[state.next] = tag
        state.next = (state.next + 1) % capacity
      }
      return true
    }
  }
}
