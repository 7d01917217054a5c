import SocialLogin
import Testing

@testable import SocialLoginRedis

/// ``RedisReconnectLoop`` on a manual clock: a sleep only moves the clock forward and records
/// the delay, so backoff, stopping, deadlines and reporting are checked without waiting.
@Suite(.timeLimit(.minutes(1))) struct RedisReconnectLoopTests {
  /// A clock that moves only when the loop sleeps; records every delay.
  final class ManualClock: Sendable {
    private let state: Locked<(now: ContinuousClock.Instant, sleeps: [Duration])>

    init() { state = Locked((ContinuousClock.now, [])) }

    var now: ContinuousClock.Instant { state.withLock { $0.now } }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(_ delay: Duration) {
      state.withLock { state in
        state.now = state.now + delay
        state.sleeps.append(delay)
      }
    }
  }

  struct Broke: Error {}

  let clock = ManualClock()

  /// A loop with 25 ms doubling to at most 200 ms, jittered as `jitter` says (a random source
  /// that always gives the top of its range, so the delays are exact).
  func loop(jitter: BackoffPolicy.Jitter = .none, random: Double? = nil) -> RedisReconnectLoop {
    let clock = clock
    return RedisReconnectLoop(
      backoff: BackoffPolicy(
        baseDelay: .milliseconds(25), maximumDelay: .milliseconds(200), jitter: jitter,
        random: { range in
          random.map { min(max($0, range.lowerBound), range.upperBound) } ?? range.upperBound
        }),
      attemptTimeout: .seconds(2), now: { clock.now }, sleep: { delay, _ in clock.sleep(delay) })
  }

  @Test func failuresBackOffExponentiallyUpToTheCap() {
    var turns = 0
    loop().run(
      isStopped: { turns == 7 },
      attempt: { _ in
        turns += 1
        throw Broke()
      })
    #expect(turns == 7)
    // No sleep after the last: it stopped the loop.
    #expect(clock.sleeps == [25, 50, 100, 200, 200, 200].map { .milliseconds($0) })
  }

  @Test func theDelayIsJitteredWithinThePolicysRange() {
    var turns = 0
    // Equal jitter: half the delay plus a random part of the other half; the source gives 0.
    loop(jitter: .equal, random: 0).run(
      isStopped: { turns == 4 },
      attempt: { _ in
        turns += 1
        throw Broke()
      })
    let milliseconds = clock.sleeps.map { RedisConnector.seconds($0) * 1000 }
    #expect(milliseconds.count == 3)
    for (slept, wanted) in zip(milliseconds, [12.5, 25, 50]) {
      #expect(abs(slept - wanted) < 0.001)
    }
  }

  @Test func anEstablishedLinkStartsTheBackoffOver() {
    var turns = 0
    loop().run(
      isStopped: { turns == 5 },
      attempt: { turn in
        turns += 1
        if turns == 3 { turn.established() }
        throw Broke()
      })
    #expect(clock.sleeps == [25, 50, 25, 50].map { .milliseconds($0) })
  }

  @Test func eachAttemptHasItsOwnDeadline() {
    var deadlines: [ContinuousClock.Instant] = []
    var expected: [ContinuousClock.Instant] = []
    loop().run(
      isStopped: { deadlines.count == 3 },
      attempt: { turn in
        expected.append(clock.now + .seconds(2))
        deadlines.append(turn.deadline)
        throw Broke()
      })
    #expect(deadlines == expected)
    #expect(deadlines[1] > deadlines[0], "the clock moved with the backoff")
  }

  @Test func aLostLinkIsReportedOnlyIfItWasUpAndAfterTheAttemptCleanedUp() {
    var turns = 0
    let events = Locked<[String]>([])
    loop().run(
      isStopped: { turns == 3 },
      onLink: { up in events.withLock { $0.append(up ? "resumed" : "interrupted") } },
      attempt: { turn in
        turns += 1
        defer { events.withLock { $0.append("closed \(turns)") } }
        if turns == 2 {
          turn.established()
          turn.established()
        }
        throw Broke()
      })
    #expect(
      events.withLock { $0 } == ["closed 1", "resumed", "closed 2", "interrupted", "closed 3"])
  }

  @Test func aStopDuringAnAttemptEndsTheLoopWithoutSleeping() {
    var stopped = false
    var turns = 0
    loop().run(
      isStopped: { stopped },
      attempt: { _ in
        turns += 1
        stopped = true
        throw Broke()
      })
    #expect(turns == 1)
    #expect(clock.sleeps.isEmpty)
  }

  @Test func aStoppedLoopMakesNoAttempt() {
    var turns = 0
    loop().run(isStopped: { true }, attempt: { _ in turns += 1 })
    #expect(turns == 0)
  }

  @Test func anAttemptThatReturnsEndsTheLoop() {
    var turns = 0
    var reports: [Bool] = []
    loop().run(
      isStopped: { false }, onLink: { reports.append($0) },
      attempt: { turn in
        turns += 1
        turn.established()
      })
    #expect(turns == 1)
    #expect(reports == [true, false])
    #expect(clock.sleeps.isEmpty)
  }

  @Test func theFailureCountIsBounded() {
    var turns = 0
    loop().run(
      isStopped: { turns == ConsecutiveFailures.maximum + 10 },
      attempt: { _ in
        turns += 1
        throw Broke()
      })
    #expect(clock.sleeps.last == .milliseconds(200))
  }

  @Test func theThreadSleepEndsAtOnceOnceStopped() {
    let start = ContinuousClock.now
    RedisReconnectLoop.sleepOnThread(.seconds(60), isStopped: { true })
    #expect(start.duration(to: .now) < .seconds(30))
  }
}
