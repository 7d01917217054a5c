import Testing

@testable import SocialLoginRedis

/// Every transition of ``RedisTopologyStateMachine``, in order and out of it, without a
/// server: a plain value stands in for the cluster.
@Suite(.timeLimit(.minutes(1))) struct RedisTopologyStateMachineTests {
  /// Stands in for ``RedisCluster``.
  struct FakeCluster: Equatable, Sendable {
    let name: String
  }

  typealias Machine = RedisTopologyStateMachine<FakeCluster>

  let cluster = FakeCluster(name: "a")

  /// The ID a `.startProbe` action carries; records an issue for any other action.
  func startedProbe(
    _ action: Machine.ProbeAction, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Machine.ProbeID? {
    guard case .startProbe(let id) = action else {
      Issue.record("expected a new probe, got \(action)", sourceLocation: sourceLocation)
      return nil
    }
    return id
  }

  @Test func startsIdleWithoutAMode() {
    let machine = Machine()
    #expect(machine.state == .idle)
    #expect(machine.mode == nil)
  }

  @Test func theFirstRequestStartsAProbeThatTheNextOnesWaitFor() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    #expect(machine.state == .probing(id, previous: nil))
    #expect(machine.mode == nil)
    #expect(machine.probeRequested() == .wait(id))
    #expect(machine.movedReceived() == .wait(id), "MOVED while probing joins the probe")
    #expect(machine.state == .probing(id, previous: nil))
  }

  @Test func aProbeThatFindsASingleNodeSettlesOnIt() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    #expect(machine.probeSucceeded(id, found: .single) == .use(.single))
    #expect(machine.state == .single)
    #expect(machine.mode == .single)
    #expect(machine.probeRequested() == .use(.single), "a single node is not probed again")
  }

  @Test func aProbeThatFindsAClusterSettlesOnIt() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    #expect(machine.probeSucceeded(id, found: .cluster(cluster)) == .use(.cluster(cluster)))
    #expect(machine.state == .cluster(cluster))
    #expect(machine.probeRequested() == .use(.cluster(cluster)))
    #expect(machine.movedReceived() == .use(.cluster(cluster)), "a cluster follows MOVED itself")
  }

  @Test func aFailedProbeLeavesNoModeSoTheNextRequestProbesAgain() throws {
    var machine = Machine()
    let first = try #require(startedProbe(machine.probeRequested()))
    machine.probeFailed(first)
    #expect(machine.state == .idle)
    let second = try #require(startedProbe(machine.probeRequested()))
    #expect(second != first, "each probe has its own ID")
  }

  @Test func moveOnASingleNodeProbesAgainAndKeepsItMeanwhile() throws {
    var machine = Machine()
    let first = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(first, found: .single)
    let second = try #require(startedProbe(machine.movedReceived()))
    #expect(machine.state == .probing(second, previous: .single))
    #expect(machine.mode == .single, "commands keep the single node while the probe is out")
    #expect(machine.probeSucceeded(second, found: .cluster(cluster)) == .use(.cluster(cluster)))
    #expect(machine.state == .cluster(cluster))
  }

  @Test func aFailedProbeAfterMovedFallsBackToTheSingleNode() throws {
    var machine = Machine()
    let first = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(first, found: .single)
    let second = try #require(startedProbe(machine.movedReceived()))
    machine.probeFailed(second)
    #expect(machine.state == .single)
  }

  @Test func aStaleProbeResultChangesNothing() throws {
    var machine = Machine()
    let first = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(first, found: .single)
    let second = try #require(startedProbe(machine.movedReceived()))
    // The first probe reports again (hostile order): the second one is still out.
    #expect(machine.probeSucceeded(first, found: .single) == .use(.single))
    machine.probeFailed(first)
    #expect(machine.state == .probing(second, previous: .single))
  }

  @Test func aKnownClusterIsNeverReplaced() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(id, found: .cluster(cluster))
    let other = FakeCluster(name: "b")
    #expect(machine.probeSucceeded(id, found: .cluster(other)) == .use(.cluster(cluster)))
    machine.probeFailed(id)
    #expect(machine.state == .cluster(cluster))
  }

  @Test func closingIdleFailsLaterRequests() {
    var machine = Machine()
    #expect(machine.closeRequested() == .none)
    #expect(machine.state == .closed(last: nil))
    guard case .fail(let error) = machine.probeRequested() else {
      Issue.record("a closed topology started a probe")
      return
    }
    #expect(error.kind == .closed)
    guard case .fail = machine.movedReceived() else {
      Issue.record("a closed topology started a probe after MOVED")
      return
    }
  }

  @Test func closingASingleNodeKeepsItsModeAndClosesNothingHere() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(id, found: .single)
    #expect(machine.closeRequested() == .none)
    #expect(machine.state == .closed(last: .single))
    #expect(machine.mode == .single, "commands still go to the (closed) pool and fail there")
  }

  @Test func closingAClusterClosesItOnceEvenWhenClosedTwice() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(id, found: .cluster(cluster))
    #expect(machine.closeRequested() == .closeCluster(cluster))
    #expect(machine.state == .closed(last: .cluster(cluster)))
    #expect(machine.closeRequested() == .none, "the second close does nothing")
    #expect(machine.state == .closed(last: .cluster(cluster)))
    #expect(machine.probeRequested() == .use(.cluster(cluster)))
  }

  @Test func aClusterFoundAfterTheCloseIsClosedAndKept() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    #expect(machine.closeRequested() == .none, "the probe closes what it finds")
    #expect(machine.state == .closed(last: nil))
    #expect(machine.probeSucceeded(id, found: .cluster(cluster)) == .closeAndUse(cluster))
    #expect(machine.state == .closed(last: .cluster(cluster)))
    #expect(machine.closeRequested() == .none)
  }

  @Test func aSingleNodeFoundAfterTheCloseIsKeptAsTheLastMode() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    _ = machine.closeRequested()
    #expect(machine.probeSucceeded(id, found: .single) == .use(.single))
    #expect(machine.state == .closed(last: .single))
  }

  @Test func aProbeFailureAfterTheCloseStaysClosed() throws {
    var machine = Machine()
    let first = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(first, found: .single)
    let second = try #require(startedProbe(machine.movedReceived()))
    _ = machine.closeRequested()
    #expect(machine.state == .closed(last: .single))
    machine.probeFailed(second)
    #expect(machine.state == .closed(last: .single))
  }

  @Test func aLateResultAfterAClosedClusterKeepsThatCluster() throws {
    var machine = Machine()
    let id = try #require(startedProbe(machine.probeRequested()))
    _ = machine.probeSucceeded(id, found: .cluster(cluster))
    _ = machine.closeRequested()
    let other = FakeCluster(name: "b")
    #expect(machine.probeSucceeded(id, found: .cluster(other)) == .use(.cluster(cluster)))
    #expect(machine.state == .closed(last: .cluster(cluster)))
  }
}
