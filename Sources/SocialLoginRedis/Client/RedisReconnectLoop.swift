import Foundation
import SocialLogin

/// The one reconnect loop of the client's long-lived links — a store's subscription (the hint
/// channel) and a sentinel's `+switch-master` watch — so backoff, stopping, the deadline of
/// each attempt and the reporting of a lost link are written, and tested, once.
///
/// Each turn calls the attempt with a ``Turn``: it connects before ``Turn/deadline``, calls
/// ``Turn/established()`` once the link is up (which resets the backoff and reports the link
/// resumed), then serves the link until it breaks (it throws). A link that was up is reported
/// interrupted after the attempt has cleaned up. Failures are spaced by the configuration's
/// ``BackoffPolicy`` (exponential, capped, jittered, so replicas that lost the same server do
/// not all come back at the same instant); a failed turn never spins. The loop ends when
/// `isStopped` says so (checked before each turn and after each failure; a backoff sleep is
/// cut short by it) or when the attempt returns instead of throwing.
///
/// It runs on the caller's thread (the links block on their sockets); the clock and the sleep
/// are injected, so the tests drive it with a manual clock and never sleep.
struct RedisReconnectLoop: Sendable {
  /// How failures are spaced.
  let backoff: BackoffPolicy
  /// How long one attempt may take to connect: each turn gets its own deadline.
  let attemptTimeout: Duration
  /// The current instant.
  let now: @Sendable () -> ContinuousClock.Instant
  /// Sleeps for a delay, returning early once the check says the loop is stopped.
  let sleep: @Sendable (Duration, _ isStopped: () -> Bool) -> Void

  /// The longest a backoff sleep goes without looking at the stop flag.
  static let stopCheckInterval = Duration.milliseconds(50)

  /// A loop on the real clock.
  init(backoff: BackoffPolicy, attemptTimeout: Duration) {
    self.init(
      backoff: backoff, attemptTimeout: attemptTimeout, now: { .now },
      sleep: Self.sleepOnThread)
  }

  /// A loop on an injected clock (tests).
  init(
    backoff: BackoffPolicy, attemptTimeout: Duration,
    now: @escaping @Sendable () -> ContinuousClock.Instant,
    sleep: @escaping @Sendable (Duration, _ isStopped: () -> Bool) -> Void
  ) {
    self.backoff = backoff
    self.attemptTimeout = attemptTimeout
    self.now = now
    self.sleep = sleep
  }

  /// One turn of the loop, handed to the attempt.
  final class Turn {
    /// When connecting must have finished.
    let deadline: ContinuousClock.Instant
    /// Whether the link came up in this turn.
    private(set) var isEstablished = false
    private let onEstablished: () -> Void

    fileprivate init(deadline: ContinuousClock.Instant, onEstablished: @escaping () -> Void) {
      self.deadline = deadline
      self.onEstablished = onEstablished
    }

    /// The link is up: the backoff starts over and the link is reported resumed (once per
    /// turn).
    func established() {
      guard !isEstablished else { return }
      isEstablished = true
      onEstablished()
    }
  }

  /// Runs turns until `isStopped()` or until `attempt` returns.
  ///
  /// - Parameters:
  ///   - isStopped: Whether the owner was stopped.
  ///   - onLink: Told `true` when a turn's link comes up, `false` when one that was up is
  ///     lost (after the attempt cleaned up).
  ///   - attempt: Connects, calls ``Turn/established()``, serves the link; throws when it
  ///     breaks, returns to end the loop.
  func run(
    isStopped: () -> Bool, onLink: @escaping (Bool) -> Void = { _ in },
    attempt: (Turn) throws -> Void
  ) {
    var failures = ConsecutiveFailures()
    while !isStopped() {
      let turn = Turn(deadline: now() + attemptTimeout) { onLink(true) }
      let ended: Bool
      do {
        try attempt(turn)
        ended = true
      } catch {
        ended = false
      }
      if turn.isEstablished {
        failures.reset()
        onLink(false)
      }
      if ended || isStopped() { return }
      sleep(failures.record(backoff), isStopped)
    }
  }

  /// Sleeps the thread for `delay`, in slices of at most ``stopCheckInterval``, returning
  /// early once `isStopped()`.
  static func sleepOnThread(_ delay: Duration, isStopped: () -> Bool) {
    let end = ContinuousClock.now + delay
    while !isStopped() {
      let left = ContinuousClock.now.duration(to: end)
      guard left > .zero else { return }
      Thread.sleep(forTimeInterval: RedisConnector.seconds(min(left, stopCheckInterval)))
    }
  }
}
