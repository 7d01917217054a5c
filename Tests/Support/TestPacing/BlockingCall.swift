import Foundation

/// Runs a blocking call (`Process.waitUntilExit`, reading a pipe to its end) on a thread of its
/// own and awaits its result, so the wait holds no cooperative-pool thread: two tests blocked
/// there would stop every other test's tasks for as long as their child processes run.
public func blockingCall<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws
  -> T
{
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
