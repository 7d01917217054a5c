import Foundation
import SocialLogin

/// The demo's clock: real time plus an offset the demo moves forward, so that "two hours
/// later" takes no time. The emulator and the client share it, as a test shares `ManualClock`.
final class DemoClock: AuthClock {
  private let offset = Locked(0.0)

  var now: ContinuousClock.Instant { ContinuousClock.now }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }
  var wallTime: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }

  /// Moves wall time forward by `seconds`.
  func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
