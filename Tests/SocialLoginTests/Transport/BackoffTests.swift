import Foundation
import SocialLogin
import Testing

extension TransportTests {
  @Suite(.timeLimit(.minutes(5))) struct BackoffPolicyTests {
    static func seconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func withoutJitterDoublesUpToTheCap() {
      let policy = BackoffPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .none)
      #expect(
        (0...6).map { policy.delay(attempt: $0) } == [1, 2, 4, 8, 10, 10, 10].map { .seconds($0) })
      #expect(policy.delay(attempt: -3) == .seconds(1))
      #expect(policy.delay(attempt: 10_000) == .seconds(10))
      #expect(policy.delay(attempt: .max) == .seconds(10))
    }

    @Test func fullJitterSpansZeroToTheCeiling() {
      let high = BackoffPolicy(
        baseDelay: .milliseconds(500), maximumDelay: .seconds(60), jitter: .full,
        random: { $0.upperBound })
      let low = BackoffPolicy(
        baseDelay: .milliseconds(500), maximumDelay: .seconds(60), jitter: .full,
        random: { $0.lowerBound })
      #expect(high.delay(attempt: 3) == .seconds(4))
      #expect(low.delay(attempt: 3) == .zero)
      #expect(high.delay(attempt: 20) == .seconds(60))
    }

    @Test func equalJitterNeverGoesBelowHalf() {
      let low = BackoffPolicy(
        baseDelay: .seconds(2), maximumDelay: .seconds(60), jitter: .equal,
        random: { $0.lowerBound })
      let high = BackoffPolicy(
        baseDelay: .seconds(2), maximumDelay: .seconds(60), jitter: .equal,
        random: { $0.upperBound })
      #expect(low.delay(attempt: 2) == .seconds(4))
      #expect(high.delay(attempt: 2) == .seconds(8))
    }

    @Test func misbehavingRandomSourceIsClamped() {
      let wild = BackoffPolicy(
        baseDelay: .seconds(1), maximumDelay: .seconds(8), jitter: .full, random: { _ in 1e9 })
      let negative = BackoffPolicy(
        baseDelay: .seconds(1), maximumDelay: .seconds(8), jitter: .full, random: { _ in -5 })
      let nan = BackoffPolicy(
        baseDelay: .seconds(1), maximumDelay: .seconds(8), jitter: .equal, random: { _ in .nan })
      #expect(wild.delay(attempt: 1) == .seconds(2))
      #expect(negative.delay(attempt: 1) == .zero)
      #expect(nan.delay(attempt: 1) == .seconds(2))
    }

    @Test("default random jitter stays within bounds", arguments: 0..<12)
    func defaultRandomStaysInBounds(attempt: Int) {
      let policy = BackoffPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(30))
      for _ in 0..<50 {
        let delay = Self.seconds(policy.delay(attempt: attempt))
        #expect(delay >= 0)
        #expect(delay <= min(30, 0.1 * Double(1 << attempt)) + 1e-9)
      }
    }

    @Test func retryDateUsesBackoffWithoutRetryAfter() {
      let now = Date(timeIntervalSince1970: 1_000)
      let policy = BackoffPolicy(baseDelay: .seconds(1), jitter: .none)
      #expect(policy.retryDate(attempt: 2, now: now, retryAfter: nil) == now.addingTimeInterval(4))
    }

    @Test func retryDateNeverPrecedesRetryAfter() {
      let now = Date(timeIntervalSince1970: 1_000)
      let policy = BackoffPolicy(baseDelay: .seconds(1), maximumDelay: .seconds(60), jitter: .none)
      // The server asks for longer than the backoff (even longer than the backoff cap): honoured.
      let later = now.addingTimeInterval(900)
      #expect(policy.retryDate(attempt: 0, now: now, retryAfter: later) == later)
      // The server asks for less than the backoff: the backoff wins.
      let sooner = now.addingTimeInterval(1)
      #expect(
        policy.retryDate(attempt: 3, now: now, retryAfter: sooner) == now.addingTimeInterval(8))
      // A Retry-After in the past is ignored.
      let past = now.addingTimeInterval(-100)
      #expect(policy.retryDate(attempt: 0, now: now, retryAfter: past) == now.addingTimeInterval(1))
    }

    @Test func absurdRetryAfterIsClampedToTheLimit() {
      let now = Date(timeIntervalSince1970: 1_000)
      let policy = BackoffPolicy(
        baseDelay: .seconds(1), maximumDelay: .seconds(60), jitter: .none,
        retryAfterLimit: .seconds(3600))
      let nextYear = now.addingTimeInterval(365 * 86_400)
      #expect(
        policy.retryDate(attempt: 0, now: now, retryAfter: nextYear) == now.addingTimeInterval(3600)
      )
    }
  }
}
