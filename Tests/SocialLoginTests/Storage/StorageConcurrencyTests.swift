import Foundation
import Testing

@testable import SocialLogin

/// Locking across tasks, store instances and processes.
@Suite(.timeLimit(.minutes(1))) struct StorageConcurrencyTests {
  // MARK: AsyncKeyedLock

  @Test func keyedLockServesWaitersInArrivalOrder() async throws {
    let lock = AsyncKeyedLock<Int>()
    let order = Locked<[Int]>([])
    try await lock.lock(1)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<8 {
        group.addTask {
          try await lock.lock(1)
          order.withLock { $0.append(index) }
          lock.unlock(1)
        }
        await waitUntil { lock.waiterCount(1) == index + 1 }
      }
      try await lock.lock(2)  // other keys are independent
      lock.unlock(2)
      #expect(lock.isLocked(1))
      lock.unlock(1)
      try await group.waitForAll()
    }
    #expect(order.withLock { $0 } == Array(0..<8))
    #expect(!lock.isLocked(1))
  }

  @Test func cancelledWaiterLeavesTheQueueAndTheOthersStillGetTheLock() async throws {
    let lock = AsyncKeyedLock<String>()
    try await lock.lock("k")
    let first = Task { try await lock.lock("k") }
    await waitUntil { lock.waiterCount("k") == 1 }
    let second = Task {
      try await lock.lock("k")
      lock.unlock("k")
    }
    await waitUntil { lock.waiterCount("k") == 2 }

    first.cancel()
    await #expect(throws: CancellationError.self) { try await first.value }
    #expect(lock.waiterCount("k") == 1)
    lock.unlock("k")
    try await second.value
    #expect(!lock.isLocked("k"))
  }

  @Test func alreadyCancelledTaskNeverTakesTheLock() async {
    let lock = AsyncKeyedLock<Int>()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await lock.lock(7)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!lock.isLocked(7))
  }

  // MARK: In-memory lease

  @Test func inMemoryWaiterCancelledWhileWaitingThrowsPromptly() async throws {
    let store = InMemorySessionStore()
    let key = sampleSession().key
    let holder = try await store.lockRefresh(for: key)
    let waiter = Task { try await store.lockRefresh(for: key) }
    await waitUntil { store.refreshLocks.waiterCount(key) == 1 }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { _ = try await waiter.value }
    await holder.release()
    let next = try await store.lockRefresh(for: key)
    await next.release()
  }

  @Test func droppedLeaseReleasesItself() async throws {
    let store = InMemorySessionStore()
    let key = sampleSession().key
    do { _ = try await store.lockRefresh(for: key) }
    #expect(!store.refreshLocks.isLocked(key))
  }

  // MARK: File store: two instances (two open file descriptions, as two processes would be)

  @Test func twoInstancesNeverLoseAnUpdate() async throws {
    try await withTemporaryDirectory { directory in
      let stores = [
        try FileSessionStore(directory: directory), try FileSessionStore(directory: directory),
      ]
      let key = try await stores[0].save(sampleSession(token: "0"), expectedVersion: nil).key
      let conflicts = Locked(0)
      try await withThrowingDiscardingTaskGroup { group in
        for index in 0..<50 {
          let store = stores[index % 2]
          group.addTask {
            _ = try await store.load(key)  // an unlocked read, as a session does first
            let lease = try await store.lockRefresh(for: key)
            let current = try #require(try await store.load(key))  // re-read under the lease
            let count = try #require(Int(current.credential.accessToken.revealed))
            var next = current
            next.credential.accessToken = Secret(String(count + 1))
            do {
              _ = try await store.save(next, expectedVersion: current.version)
            } catch let error as AuthError where error.code == .storageConflict {
              conflicts.withLock { $0 += 1 }
            }
            await lease.release()
          }
        }
      }
      let final = try #require(try await stores[1].load(key))
      #expect(final.credential.accessToken.revealed == "50")
      #expect(final.version == 51)
      #expect(conflicts.withLock { $0 } == 0)
    }
  }

  @Test func sameVersionWritersOnTwoInstancesHaveOneWinnerPerRound() async throws {
    try await withTemporaryDirectory { directory in
      let stores = [
        try FileSessionStore(directory: directory), try FileSessionStore(directory: directory),
      ]
      var base = try await stores[0].save(sampleSession(), expectedVersion: nil)
      for round in 0..<10 {
        let expected = base
        let winners = try await withThrowingTaskGroup(of: StoredSession?.self) { group in
          for index in 0..<16 {
            let store = stores[index % 2]
            group.addTask {
              var next = expected
              next.credential.accessToken = Secret("round-\(round)-writer-\(index)")
              do {
                return try await store.save(next, expectedVersion: expected.version)
              } catch let error as AuthError where error.code == .storageConflict {
                return nil
              }
            }
          }
          return try await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
        }
        #expect(winners.count == 1, "round \(round)")
        let stored = try #require(try await stores[1].load(expected.key))
        #expect(stored == winners.first)
        base = stored
      }
    }
  }

  @Test func leaseExcludesAnotherInstanceAndCancellationLeaksNothing() async throws {
    try await withTemporaryDirectory { directory in
      let mine = try FileSessionStore(directory: directory)
      let theirs = try FileSessionStore(directory: directory)
      let key = sampleSession().key
      let holder = try await mine.lockRefresh(for: key)

      // `theirs` passes its in-process lock and polls the flock held by `mine`.
      let waiter = Task { try await theirs.lockRefresh(for: key) }
      await waitUntil { theirs.refreshLocks.isLocked(key) }
      waiter.cancel()
      await #expect(throws: CancellationError.self) { _ = try await waiter.value }
      #expect(!theirs.refreshLocks.isLocked(key))

      // Same instance: the waiter queues in-process and leaves the queue on cancellation.
      let queued = Task { try await mine.lockRefresh(for: key) }
      await waitUntil { mine.refreshLocks.waiterCount(key) == 1 }
      queued.cancel()
      await #expect(throws: CancellationError.self) { _ = try await queued.value }

      await holder.release()
      let next = try await theirs.lockRefresh(for: key)  // nothing leaked
      await next.release()
      let again = try await mine.lockRefresh(for: key)
      await again.release()
    }
  }

  @Test func waiterOnAnotherInstanceGetsTheLeaseAfterRelease() async throws {
    try await withTemporaryDirectory { directory in
      let mine = try FileSessionStore(directory: directory)
      let theirs = try FileSessionStore(directory: directory)
      let key = sampleSession().key
      let released = Locked(false)
      let holder = try await mine.lockRefresh(for: key)
      let waiter = Task {
        let lease = try await theirs.lockRefresh(for: key)
        let sawRelease = released.withLock { $0 }
        await lease.release()
        return sawRelease
      }
      await waitUntil { theirs.refreshLocks.isLocked(key) }
      released.withLock { $0 = true }
      await holder.release()
      #expect(try await waiter.value)
    }
  }

  // MARK: File store: a real second process

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
  func leaseExcludesAnotherProcess() async throws {
    try await withTemporaryDirectory { directory in
      let store = try FileSessionStore(directory: directory)
      let key = sampleSession().key
      let leaseFile = directory.appendingPathComponent(
        FileSessionStore.stem(for: key) + ".lease"
      ).path

      // While we hold the lease, flock(1) in another process cannot take it.
      let lease = try await store.lockRefresh(for: key)
      #expect(try await run("/usr/bin/flock", ["-n", "-E", "3", leaseFile, "true"]) == 3)
      await lease.release()
      // Released: another process gets it. Not always at the first try: a child another test
      // is spawning at that moment holds a copy of every descriptor from its fork until its
      // exec closes them (O_CLOEXEC), and with it the lock. A bounded retry, not a sleep.
      var taken = false
      let deadline = ContinuousClock.now + .seconds(20)
      while !taken, ContinuousClock.now < deadline {
        taken = try await run("/usr/bin/flock", ["-n", "-E", "3", leaseFile, "true"]) == 0
      }
      #expect(taken, "another process takes the released lease")

      // While another process holds it, we wait, and get it once that process lets go.
      let child = Process()
      child.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
      child.arguments = [leaseFile, "-c", "echo locked; read line"]
      let input = Pipe()
      let output = Pipe()
      child.standardInput = input
      child.standardOutput = output
      try child.run()
      #expect(try await readLine(from: output.fileHandleForReading) == "locked")
      let released = Locked(false)
      let waiter = Task {
        let lease = try await store.lockRefresh(for: key)
        let sawRelease = released.withLock { $0 }
        await lease.release()
        return sawRelease
      }
      await waitUntil { store.refreshLocks.isLocked(key) }
      released.withLock { $0 = true }
      try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
      #expect(try await waiter.value)
      child.waitUntilExit()
    }
  }
}

/// Runs a program and returns its exit status, without blocking a cooperative thread.
private func run(_ path: String, _ arguments: [String]) async throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  return try await withCheckedThrowingContinuation { continuation in
    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
    do {
      try process.run()
    } catch {
      process.terminationHandler = nil
      continuation.resume(throwing: error)
    }
  }
}

/// Reads one line from `handle` on a background thread.
private func readLine(from handle: FileHandle) async throws -> String {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async {
      var bytes = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        bytes.append(chunk)
        if bytes.contains(UInt8(ascii: "\n")) { break }
      }
      let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? ""
      continuation.resume(returning: String(line))
    }
  }
}
