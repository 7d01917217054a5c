import Foundation

/// Where CPU-heavy test work runs: debug-build crypto loops, key generation, fuzz replays.
///
/// `swift test` runs every suite of the process in parallel on Swift's cooperative pool, which
/// has one thread per core (two on the CI machine). A test that computes for seconds without
/// suspending holds one of those threads the whole time; two of them stop every other test's
/// tasks — the loopback servers' handlers, Redis lease renewals, the deadlines of waiting
/// tests — until they finish. ``run(_:)`` moves such a body onto one thread of its own (the
/// task keeps its task-locals, so `#expect` and `Issue.record` report to the running test):
/// the kernel then time-slices it against the pool instead of the pool waiting for it, and at
/// most one core is spent on heavy test work at a time, however many such tests run at once.
public enum HeavyWork {
  /// Runs `body` on the heavy-work thread. Its `await`s go back to that thread (a task executor
  /// preference), except for actor-isolated calls, which run on their actor as always.
  public static func run<T, Failure: Error>(
    _ body: () async throws(Failure) -> T
  ) async throws(Failure) -> T {
    try await withTaskExecutorPreference(HeavyWorkExecutor.shared, operation: body)
  }

  /// Whether the calling (synchronous) code runs on the heavy-work thread.
  public static var isCurrentThread: Bool { HeavyWorkExecutor.shared.isCurrentThread }
}

/// One thread that runs the jobs of the tasks that prefer it, in the order they were enqueued.
/// Heavy tests interleave on it wherever they suspend (`Task.yield()` between vectors).
final class HeavyWorkExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: `jobs` is only touched with `condition` locked.
  static let shared = HeavyWorkExecutor()

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  /// The thread's `pthread_self()`, set once it runs (under `condition`).
  private var thread: pthread_t?

  private init() {
    let thread = Thread { [unowned self] in
      condition.lock()
      self.thread = pthread_self()
      condition.unlock()
      self.serve()
    }
    thread.name = "heavy-test-work"
    thread.start()
  }

  var isCurrentThread: Bool {
    condition.lock()
    defer { condition.unlock() }
    return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func serve() -> Never {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
