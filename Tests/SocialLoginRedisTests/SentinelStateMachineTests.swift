import SocialLogin
import Testing

@testable import SocialLoginRedis

/// Every decision of ``SentinelStateMachine`` — which master, when to ask the sentinels again,
/// when the generation moves, whether a failed attempt is retried — without a sentinel.
@Suite(.timeLimit(.minutes(1))) struct SentinelStateMachineTests {
  typealias Machine = SentinelStateMachine

  let a = RedisConfiguration.Endpoint.tcp(host: "10.0.0.1", port: 6379)
  let b = RedisConfiguration.Endpoint.tcp(host: "10.0.0.2", port: 6379)
  let t0 = ContinuousClock.now

  /// 50 ms doubling up to 400 ms, without jitter, so every delay is exact.
  let backoff = BackoffPolicy(
    baseDelay: .milliseconds(50), maximumDelay: .milliseconds(400), jitter: .none)

  /// A machine following `master` after sentinel 0 named it.
  func following(_ master: RedisConfiguration.Endpoint, sentinels: Int = 3) -> Machine {
    var machine = Machine(sentinelCount: sentinels)
    _ = machine.sentinelNamed(master, by: 0)
    return machine
  }

  @Test func startsByAskingTheSentinelsInOrder() {
    let machine = Machine(sentinelCount: 3)
    #expect(machine.state == .unknown)
    #expect(machine.master == nil)
    #expect(machine.connectRequested() == .discover(order: [0, 1, 2], generation: 1))
  }

  @Test func theFirstMasterNamedIsUsedWithoutMovingTheGeneration() {
    var machine = Machine(sentinelCount: 3)
    let adoption = machine.sentinelNamed(a, by: 2)
    #expect(adoption == .init(generation: 1, moved: false))
    #expect(machine.state == .following(a))
    #expect(machine.connectRequested() == .connect(a, generation: 1))
    #expect(machine.switches == 0)
  }

  @Test func theSentinelThatAnsweredIsAskedFirstNextTime() {
    var machine = Machine(sentinelCount: 3)
    _ = machine.sentinelNamed(a, by: 2)
    machine.masterFailed(generation: 1)
    #expect(machine.connectRequested() == .discover(order: [2, 0, 1], generation: 1))
  }

  @Test func anIndexOutOfRangeDoesNotBecomeThePreferredSentinel() {
    var machine = Machine(sentinelCount: 2)
    _ = machine.sentinelNamed(a, by: 7)
    #expect(machine.preferredSentinel == 0)
  }

  @Test func aFailedMasterIsRediscoveredAndTheSameAnswerKeepsTheGeneration() {
    var machine = following(a)
    machine.masterFailed(generation: 1)
    #expect(machine.state == .rediscovering(previous: a))
    #expect(machine.master == nil)
    #expect(machine.connectRequested() == .discover(order: [0, 1, 2], generation: 1))
    // A master refusing writes while its replica resynchronises: named again, nothing moves.
    let adoption = machine.sentinelNamed(a, by: 1)
    #expect(adoption == .init(generation: 1, moved: false))
    #expect(machine.state == .following(a))
    #expect(machine.switches == 0)
  }

  @Test func anotherMasterNamedAfterAFailureMovesTheGeneration() {
    var machine = following(a)
    machine.masterFailed(generation: 1)
    let adoption = machine.sentinelNamed(b, by: 0)
    #expect(adoption == .init(generation: 2, moved: true))
    #expect(machine.connectRequested() == .connect(b, generation: 2))
    #expect(machine.switches == 1)
  }

  @Test func twoConnectionsRediscoveringAtOnceMoveTheGenerationOnce() {
    var machine = following(a)
    machine.masterFailed(generation: 1)
    var adoption = machine.sentinelNamed(b, by: 0)
    #expect(adoption == .init(generation: 2, moved: true))
    adoption = machine.sentinelNamed(b, by: 1)
    #expect(adoption == .init(generation: 2, moved: false))
    #expect(machine.switches == 1)
  }

  @Test func aStaleFailureIsIgnored() {
    var machine = following(a)
    machine.masterFailed(generation: 1)
    _ = machine.sentinelNamed(b, by: 0)
    machine.masterFailed(generation: 1)
    #expect(machine.state == .following(b), "a failure of the old master's generation")
    machine.masterFailed(generation: 2)
    #expect(machine.state == .rediscovering(previous: b))
  }

  @Test func aFailureBeforeAnyMasterChangesNothing() {
    var machine = Machine(sentinelCount: 1)
    machine.masterFailed(generation: 1)
    #expect(machine.state == .unknown)
  }

  @Test func anAnnouncementOfAnotherMasterMovesTheGeneration() {
    var machine = following(a)
    var adoption = machine.switchAnnounced(b)
    #expect(adoption == .init(generation: 2, moved: true))
    #expect(machine.connectRequested() == .connect(b, generation: 2))
    adoption = machine.switchAnnounced(b)
    #expect(adoption == .init(generation: 2, moved: false))
    #expect(machine.switches == 1)
  }

  @Test func anAnnouncementDuringARediscoveryIsComparedWithTheFailedMaster() {
    var machine = following(a)
    machine.masterFailed(generation: 1)
    var adoption = machine.switchAnnounced(a)
    #expect(adoption == .init(generation: 1, moved: false))
    #expect(machine.state == .following(a))
    machine.masterFailed(generation: 1)
    adoption = machine.switchAnnounced(b)
    #expect(adoption == .init(generation: 2, moved: true))
  }

  @Test func theWatchCatchesUpOnlyWhileAMasterIsInUse() {
    var machine = Machine(sentinelCount: 3)
    var caughtUp = machine.watchAnswered(a)
    #expect(caughtUp == nil, "before the first connection")
    #expect(machine.state == .unknown)
    _ = machine.sentinelNamed(a, by: 0)
    machine.masterFailed(generation: 1)
    caughtUp = machine.watchAnswered(b)
    #expect(caughtUp == nil, "the next connection asks the sentinels anyway")
    #expect(machine.state == .rediscovering(previous: a))
    _ = machine.sentinelNamed(a, by: 0)
    caughtUp = machine.watchAnswered(a)
    #expect(caughtUp == .init(generation: 1, moved: false))
    caughtUp = machine.watchAnswered(b)
    #expect(caughtUp == .init(generation: 2, moved: true), "a missed switch")
  }

  @Test func aReplicaAnsweringRoleSendsTheClientBackToTheSentinels() {
    var machine = following(a)
    let isMaster = machine.roleAnswered(.other("slave"), generation: 1, at: t0)
    #expect(!isMaster)
    #expect(machine.state == .rediscovering(previous: a))
    #expect(machine.cachedReplicas(at: t0) == nil)
  }

  @Test func aMasterAnsweringRoleIsUsedAndItsReplicasKept() {
    var machine = following(a)
    let isMaster = machine.roleAnswered(.master(replicas: 2), generation: 1, at: t0)
    #expect(isMaster)
    #expect(machine.state == .following(a))
    #expect(machine.cachedReplicas(at: t0 + .seconds(4)) == 2)
    #expect(machine.cachedReplicas(at: t0 + Machine.replicaCountLifetime) == nil, "expired")
  }

  @Test func aReplicaCountOfAnotherMasterIsNotUsed() {
    var machine = following(a)
    machine.replicasNoted(2, generation: 1, at: t0)
    _ = machine.switchAnnounced(b)
    #expect(machine.cachedReplicas(at: t0) == nil, "learnt for the old master")
    machine.replicasNoted(5, generation: 1, at: t0)
    #expect(machine.replicas?.count == 2, "a late count for the old master is dropped")
    machine.replicasNoted(1, generation: 2, at: t0)
    #expect(machine.cachedReplicas(at: t0) == 1)
  }

  @Test func aTransientFailureIsRetriedUntilTheDeadline() {
    var machine = following(a)
    let action = machine.attemptFailed(
      .connectionFailed, generation: 1, backoff: backoff, now: t0, deadline: t0 + .seconds(1))
    #expect(action == .retry(after: .milliseconds(50)))
    #expect(machine.state == .rediscovering(previous: a), "the master counts as failed")
    let late = machine.attemptFailed(
      .connectionFailed, generation: 1, backoff: backoff, now: t0 + .milliseconds(900),
      deadline: t0 + .seconds(1))
    #expect(late == .giveUp, "the next attempt would start at the deadline")
  }

  /// The pool's attempts and the connector's own retries add to one count: the delay grows
  /// with every failure whoever made it, a caller arriving meanwhile waits it out (or gives up
  /// when it would reach its deadline), and one success starts it over for everyone.
  @Test func everyCallerBacksOffFromOneCountOfFailuresInARow() {
    var machine = Machine(sentinelCount: 0)
    let far = t0 + .seconds(60)
    #expect(machine.beforeAttempt(backoff: backoff, now: t0, deadline: far) == .retry(after: .zero))
    var delays: [Duration] = []
    for _ in 0..<6 {
      let action = machine.attemptFailed(
        .connectionFailed, generation: 1, backoff: backoff, now: t0, deadline: far)
      guard case .retry(let delay) = action else {
        Issue.record("a transient failure far from the deadline is retried")
        return
      }
      delays.append(delay)
    }
    #expect(delays == [50, 100, 200, 400, 400, 400].map { .milliseconds($0) })
    #expect(machine.failures.count == 6)
    // Another caller backs off from the same count, not from a fresh one.
    #expect(
      machine.beforeAttempt(backoff: backoff, now: t0, deadline: far)
        == .retry(after: .milliseconds(400)))
    #expect(
      machine.beforeAttempt(backoff: backoff, now: t0, deadline: t0 + .milliseconds(300))
        == .giveUp, "the wait would reach its deadline")
    machine.connected()
    #expect(machine.failures.count == 0)
    #expect(machine.beforeAttempt(backoff: backoff, now: t0, deadline: far) == .retry(after: .zero))
    let next = machine.attemptFailed(
      .connectionFailed, generation: 1, backoff: backoff, now: t0, deadline: far)
    #expect(next == .retry(after: .milliseconds(50)), "the backoff started over")
  }

  @Test func theCountStopsGrowingAtItsCap() {
    var machine = Machine(sentinelCount: 0)
    for _ in 0..<(ConsecutiveFailures.maximum + 5) {
      _ = machine.attemptFailed(
        .connectionFailed, generation: 1, backoff: backoff, now: t0, deadline: t0 + .seconds(60))
    }
    #expect(machine.failures.count == ConsecutiveFailures.maximum)
  }

  /// A call (the pool's) tries again after a transient failure, up to its attempts; never
  /// after an error retrying cannot cure, a refused command or the close.
  @Test func aCallRetriesOnlyTransientFailuresUpToItsAttempts() {
    var machine = Machine(sentinelCount: 0)
    #expect(machine.retriesCall(after: .connectionFailed, attempt: 1, maximumAttempts: 3))
    #expect(machine.retriesCall(after: .timedOut, attempt: 2, maximumAttempts: 3))
    #expect(!machine.retriesCall(after: .connectionFailed, attempt: 3, maximumAttempts: 3))
    #expect(!machine.retriesCall(after: .server, attempt: 1, maximumAttempts: 3))
    for kind in Machine.permanentKinds {
      #expect(!machine.retriesCall(after: kind, attempt: 1, maximumAttempts: 3), "\(kind)")
    }
    machine.closeRequested()
    #expect(!machine.retriesCall(after: .connectionFailed, attempt: 1, maximumAttempts: 3))
  }

  @Test(arguments: Array(SentinelStateMachine.permanentKinds))
  func aPermanentFailureIsThrownAtOnce(kind: RedisError.Kind) {
    var machine = following(a)
    let action = machine.attemptFailed(
      kind, generation: 1, backoff: backoff, now: t0, deadline: t0 + .seconds(60))
    #expect(action == .giveUp)
    #expect(machine.state == .rediscovering(previous: a))
  }

  @Test func afterTheCloseNothingIsRetriedAndNoWatchStarts() {
    var machine = following(a)
    var starts = machine.watchRequested()
    #expect(starts)
    starts = machine.watchRequested()
    #expect(!starts, "started once")
    machine.closeRequested()
    let action = machine.attemptFailed(
      .connectionLost, generation: 1, backoff: backoff, now: t0, deadline: t0 + .seconds(60))
    #expect(action == .giveUp)
    var fresh = Machine(sentinelCount: 1)
    fresh.closeRequested()
    starts = fresh.watchRequested()
    #expect(!starts)
  }

  @Test func theWatchStartsAtTheSentinelThatAnsweredLastAndMovesOnAfterAFailure() {
    var machine = Machine(sentinelCount: 3)
    _ = machine.sentinelNamed(a, by: 1)
    var tried: [Int] = []
    for _ in 0..<4 { tried.append(machine.watchAttempt()) }
    #expect(tried == [1, 2, 0, 1], "each failed sentinel hands over to the next, in a ring")
  }

  @Test func aWatchLinkThatWasUpIsTriedAgainOnTheSameSentinel() {
    var machine = Machine(sentinelCount: 3)
    var index = machine.watchAttempt()
    #expect(index == 0)
    machine.watchSubscribed(to: index)
    index = machine.watchAttempt()
    #expect(index == 0, "the link broke after it was up: the same sentinel first")
    index = machine.watchAttempt()
    #expect(index == 1, "that attempt failed: the next one")
  }

  @Test func aWatchWithoutSentinelsNamesNoneOutOfRange() {
    var machine = Machine(sentinelCount: 0)
    let index = machine.watchAttempt()
    #expect(index == 0)
  }
}
