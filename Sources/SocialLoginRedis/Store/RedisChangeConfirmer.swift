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
    /// Sessions waiting for a re-read, in arrival order, with the highest version hinted.
    var pending: [String: UInt64] = [:]
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
    if copies.isKnown(tag: hint.tag, version: hint.version, deletion: hint.kind == .deleted) {
      return
    }
    enum Action { case none, startWorker, overflow }
    let action = state.withLock { state -> Action in
      if let known = state.pending[hint.tag] {
        state.pending[hint.tag] = max(known, hint.version)
        return .none
      }
      guard state.order.count < Self.capacity else {
        state.pending.removeAll()
        state.order.removeAll()
        state.overflows += 1
        return .overflow
      }
      state.pending[hint.tag] = hint.version
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
    while let (tag, version) = next() {
      let change = await reader?(tag)
      state.withLock { _ = $0.reading.remove(tag) }
      report(change, tag: tag, hinted: version)
    }
  }

  /// The next queued session not being read, or `nil` after ending this worker.
  private func next() -> (String, UInt64)? {
    state.withLock { state in
      if let index = state.order.firstIndex(where: { !state.reading.contains($0) }) {
        let tag = state.order.remove(at: index)
        let version = state.pending.removeValue(forKey: tag) ?? 0
        state.reading.insert(tag)
        state.rereads += 1
        return (tag, version)
      }
      state.workers -= 1
      return nil
    }
  }

  private func report(_ change: SessionStoreChange?, tag: String, hinted: UInt64) {
    let confirmed: (version: UInt64, deletion: Bool)?
    switch change {
    case .written(let session): confirmed = (session.version, false)
    case .deleted(_, let version, _): confirmed = (version, true)
    default: confirmed = nil
    }
    guard let confirmed, let change, confirmed.version >= hinted else {
      state.withLock { $0.unconfirmed += 1 }
      return
    }
    guard copies.record(tag: tag, version: confirmed.version, deletion: confirmed.deletion)
    else { return }
    feed.publish(change)
  }
}

/// The changes already confirmed and reported, per session: its newest (version, deletion)
/// — a deletion at a version is newer than the write at that version. A hint at or below it
/// (a copy from another master on a cluster, a stale or repeated hint) is not read again, and
/// a change is reported once. Only confirmed changes are recorded, so no forged hint can make
/// a genuine one look like a copy. Keeps the last `capacity` sessions (fixed-size entries).
final class RedisMessageCopies: Sendable {
  private let capacity: Int
  private let state = Locked(State())

  private struct Newest {
    var version: UInt64
    var deletion: Bool

    func covers(_ version: UInt64, deletion: Bool) -> Bool {
      (version, deletion ? 1 : 0) <= (self.version, self.deletion ? 1 : 0)
    }
  }

  private struct State {
    var newest: [String: Newest] = [:]
    var order: [String] = []
    var next = 0
    var dropped = 0
  }

  /// How many hints were passed over as copies of a change already reported (tests).
  var dropped: Int { state.withLock { $0.dropped } }

  init(capacity: Int = 4096) {
    self.capacity = max(1, capacity)
  }

  /// Whether a change at least as new as this one was already reported for `tag`.
  func isKnown(tag: String, version: UInt64, deletion: Bool) -> Bool {
    state.withLock { state in
      guard let newest = state.newest[tag], newest.covers(version, deletion: deletion) else {
        return false
      }
      state.dropped += 1
      return true
    }
  }

  /// Records a confirmed change; `false` when one at least as new was already reported.
  func record(tag: String, version: UInt64, deletion: Bool) -> Bool {
    state.withLock { state in
      if let newest = state.newest[tag] {
        guard !newest.covers(version, deletion: deletion) else {
          state.dropped += 1
          return false
        }
        state.newest[tag] = Newest(version: version, deletion: deletion)
        return true
      }
      state.newest[tag] = Newest(version: version, deletion: deletion)
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
