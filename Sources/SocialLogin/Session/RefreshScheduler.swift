import Foundation

/// Wakes sessions for their automatic refreshes with one sleeping task for all of them.
///
/// A task per session cost about 3 KB each (100,000 sessions with proactive refresh on: 395 MB
/// instead of 110 MB). Here each planned wake-up is a heap entry of a few dozen bytes, and a
/// single driver task sleeps on the clock until the earliest one. Planning an earlier wake-up
/// replaces the driver; a later one only adds an entry.
///
/// Each session has at most one live plan. Re-planning or cancelling leaves the old heap entry
/// in place, marked stale by its sequence number, and it is dropped when it reaches the top
/// (or when stale entries outnumber live ones). Sessions are held weakly: a session that is
/// gone is never woken and never kept alive.
///
/// Due sessions are woken each in their own task, so one slow refresh never delays another,
/// but at most `maxConcurrent` at a time, first due first served: a service restarted after
/// an outage, with thousands of expired sessions, must not answer its provider's 429s with a
/// bigger burst. (Callers asking a session for a token are never queued here.)
final class RefreshScheduler: Sendable {
  /// The longest single sleep; a wake-up further away is reached in steps, so absurd expiry
  /// dates cannot overflow the conversion to a `Duration`.
  static let maximumSleep: TimeInterval = 86_400

  /// Wake-ups this close to the clock's reading are due: the driver's sleep and the wall
  /// time are computed separately, and rounding must not make it wake just short of a plan.
  static let tolerance: TimeInterval = 0.001

  fileprivate struct Entry: Sendable {
    var wake: Date
    var sequence: UInt64
    var id: ObjectIdentifier
    weak var session: SessionActor?

    func precedes(_ other: Entry) -> Bool {
      (wake, sequence) < (other.wake, other.sequence)
    }
  }

  fileprivate struct State: Sendable {
    /// A binary min-heap on (wake, sequence).
    var heap: [Entry] = []
    /// The sequence number of each session's live plan.
    var live: [ObjectIdentifier: UInt64] = [:]
    var nextSequence: UInt64 = 0
    /// The task sleeping until ``armedFor``.
    var driver: Task<Void, Never>?
    var armedFor: Date?
    /// Due sessions waiting for a free slot, oldest first, from `readyHead` on.
    var ready: [SessionActor] = []
    var readyHead = 0
    /// Wake-ups running now.
    var running = 0
  }

  private let clock: any AuthClock
  private let maxConcurrent: Int
  private let state = Locked(State())

  init(clock: any AuthClock, maxConcurrent: Int) {
    self.clock = clock
    self.maxConcurrent = max(1, maxConcurrent)
  }

  deinit {
    state.withLock { $0.driver?.cancel() }
  }

  /// Plans `session`'s next wake-up at `wake`, replacing any earlier plan of it.
  func schedule(_ session: SessionActor, at wake: Date) {
    state.withLock { state in
      state.nextSequence += 1
      let id = ObjectIdentifier(session)
      state.live[id] = state.nextSequence
      state.push(Entry(wake: wake, sequence: state.nextSequence, id: id, session: session))
      state.compactIfMostlyStale()
      if state.armedFor.map({ wake < $0 }) ?? true { arm(&state) }
    }
  }

  /// Drops `session`'s plan, if any.
  func cancel(_ session: SessionActor) {
    state.withLock { state in
      _ = state.live.removeValue(forKey: ObjectIdentifier(session))
      if state.live.isEmpty {
        state.driver?.cancel()
        state.driver = nil
        state.armedFor = nil
        state.heap.removeAll()
      }
    }
  }

  /// Whether `session` has a planned wake-up.
  func hasPlan(_ session: SessionActor) -> Bool {
    state.withLock { $0.live[ObjectIdentifier(session)] != nil }
  }

  /// Replaces the driver with one that sleeps until the earliest live plan. Call under the lock.
  private func arm(_ state: inout State) {
    state.driver?.cancel()
    state.driver = nil
    state.armedFor = nil
    guard let earliest = state.earliestLive() else { return }
    let delay = min(
      max(0, earliest.wake.timeIntervalSince(clock.wallTime)), Self.maximumSleep)
    state.armedFor = earliest.wake
    // The deadline is fixed now, not when the task first runs, so time passing before it
    // starts (a busy machine, a manual clock advanced at once) cannot push the wake-up back.
    // Rounded to the nearest microsecond: rounding up could land just after a plan that a
    // clock advanced by exactly the planned amount reaches; ``tolerance`` covers waking early.
    let sleep = Duration.microseconds(Int64((delay * 1e6).rounded()))
    state.driver = clock.startTimer(after: sleep) {
      [weak self] in self?.wakeDueSessions()
    }
  }

  /// Moves every due plan to the ready queue, re-arms for the next one, then wakes as many
  /// ready sessions as there are free slots.
  private func wakeDueSessions() {
    let now = clock.wallTime.addingTimeInterval(Self.tolerance)
    state.withLock { state in
      while let top = state.heap.first, top.wake <= now {
        state.popTop()
        guard state.live[top.id] == top.sequence else { continue }  // stale
        state.live[top.id] = nil
        if let session = top.session { state.ready.append(session) }
      }
      arm(&state)
    }
    startReadySessions()
  }

  private func startReadySessions() {
    let starting = state.withLock { state -> [SessionActor] in
      var starting: [SessionActor] = []
      while state.running < maxConcurrent, let next = state.popReady() {
        state.running += 1
        starting.append(next)
      }
      return starting
    }
    for session in starting {
      Task { [weak self] in
        await session.scheduledRefreshFired()
        self?.finishedOne()
      }
    }
  }

  private func finishedOne() {
    state.withLock { $0.running -= 1 }
    startReadySessions()
  }
}

extension RefreshScheduler.State {
  /// The oldest ready session; the queue's storage is reclaimed once it is half consumed.
  fileprivate mutating func popReady() -> SessionActor? {
    guard readyHead < ready.count else { return nil }
    let next = ready[readyHead]
    readyHead += 1
    if readyHead == ready.count {
      ready.removeAll(keepingCapacity: false)
      readyHead = 0
    } else if readyHead > 1024, readyHead * 2 > ready.count {
      ready.removeFirst(readyHead)
      readyHead = 0
    }
    return next
  }

  /// The earliest plan that is still live, dropping stale entries from the top.
  fileprivate mutating func earliestLive() -> RefreshScheduler.Entry? {
    while let top = heap.first {
      if live[top.id] == top.sequence, top.session != nil { return top }
      if live[top.id] == top.sequence { live[top.id] = nil }  // the session is gone
      popTop()
    }
    return nil
  }

  /// Rebuilds the heap from live entries when stale ones are the large majority, so that
  /// sessions re-planning far-away wake-ups cannot grow it without bound.
  fileprivate mutating func compactIfMostlyStale() {
    guard heap.count > 64, heap.count > 4 * live.count else { return }
    let kept = heap.filter { live[$0.id] == $0.sequence && $0.session != nil }
    heap = []
    heap.reserveCapacity(kept.count)
    for entry in kept { push(entry) }
    let keptIDs = Set(kept.map(\.id))
    live = live.filter { keptIDs.contains($0.key) }
  }

  fileprivate mutating func push(_ entry: RefreshScheduler.Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  fileprivate mutating func popTop() {
    guard !heap.isEmpty else { return }
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
      if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
