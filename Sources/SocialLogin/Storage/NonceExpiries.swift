import Foundation

/// The nonces an ``InMemoryNonceStore`` keeps, with their expiries in a min-heap, so that the
/// expired ones are found first and dropped in amortized O(log n) per insert, without scanning
/// the store, and a valid nonce is never dropped to make room.
///
/// Consumed nonces leave the table at once and their heap entries later (when they expire or
/// when the heap is rebuilt): the heap is rebuilt from the table once it holds twice as many
/// entries as the table plus the capacity, so it stays bounded whatever is issued and used.
struct NonceExpiries {
  private(set) var table: [[UInt8]: Date] = [:]
  private var heap: [(expiresAt: Date, key: [UInt8])] = []

  var count: Int { table.count }
  var heapCount: Int { heap.count }

  /// What ``insert(_:expiresAt:now:capacity:)`` did.
  enum Insertion: Equatable {
    case inserted
    case alreadyKept
    case full
  }

  /// Drops the expired nonces, then keeps `key` unless it is kept already or `capacity`
  /// valid nonces are.
  mutating func insert(_ key: [UInt8], expiresAt: Date, now: Date, capacity: Int) -> Insertion {
    dropExpired(now: now)
    guard table[key] == nil else { return .alreadyKept }
    guard table.count < capacity else { return .full }
    table[key] = expiresAt
    push((expiresAt, key))
    if heap.count > 2 * table.count + capacity { rebuild() }
    return .inserted
  }

  /// Removes `key`: `true` when it was kept and had not expired at `now`.
  mutating func consume(_ key: [UInt8], now: Date) -> Bool {
    guard let expiresAt = table.removeValue(forKey: key) else { return false }
    return expiresAt > now
  }

  /// Pops every heap entry that expired at `now`, dropping its nonce unless it was consumed
  /// (or kept again with another expiry) meanwhile.
  private mutating func dropExpired(now: Date) {
    while let top = heap.first, top.expiresAt <= now {
      popTop()
      if table[top.key] == top.expiresAt { table.removeValue(forKey: top.key) }
    }
  }

  private mutating func rebuild() {
    heap = table.map { ($0.value, $0.key) }
    guard heap.count > 1 else { return }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func push(_ entry: (expiresAt: Date, key: [UInt8])) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].expiresAt < heap[parent].expiresAt else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popTop() {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    if !heap.isEmpty { siftDown(0) }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count, heap[left].expiresAt < heap[smallest].expiresAt { smallest = left }
      if right < heap.count, heap[right].expiresAt < heap[smallest].expiresAt { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
