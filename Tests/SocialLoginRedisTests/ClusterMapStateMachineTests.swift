import Testing

@testable import SocialLoginRedis

/// Every transition of ``ClusterMapStateMachine``, in order and out of it, without a server:
/// a plain value stands in for a node's pool.
@Suite(.timeLimit(.minutes(1))) struct ClusterMapStateMachineTests {
  typealias Machine = ClusterMapStateMachine<String>
  typealias Endpoint = RedisConfiguration.Endpoint

  let seed = Endpoint.tcp(host: "seed", port: 7000)
  let a = Endpoint.tcp(host: "a", port: 7001)
  let b = Endpoint.tcp(host: "b", port: 7002)

  /// A map whose masters are `masters`, the slots split between them in order.
  func map(_ masters: [Endpoint]) throws -> ClusterSlotMap {
    let share = Int64(HashSlot.count / masters.count)
    let ranges = masters.enumerated().map { index, endpoint -> (Int64, Int64, String, Int64) in
      guard case .tcp(let host, let port) = endpoint else { return (0, 0, "", 0) }
      let start = Int64(index) * share
      let end = index == masters.count - 1 ? Int64(HashSlot.count - 1) : start + share - 1
      return (start, end, host, Int64(port))
    }
    return try ClusterSlotMap.parse(slots: ClusterRoutingTests.slots(ranges), askedHost: "seed")
  }

  func machine() throws -> Machine {
    Machine(seed: seed, map: try map([seed, a]))
  }

  @Test func startsIdleWithTheProbedMapAndNoPools() throws {
    let machine = try machine()
    #expect(machine.state == .idle)
    #expect(machine.pools.isEmpty)
    #expect(machine.refreshes == 0)
    #expect(machine.knows(seed) && machine.knows(a) && !machine.knows(b))
  }

  @Test func aPoolIsOpenedOnceAndThenReused() throws {
    var machine = try machine()
    #expect(machine.poolNeeded(a) == .open)
    #expect(machine.poolOpened(a, "pool-a") == false)
    #expect(machine.poolNeeded(a) == .use("pool-a"))
  }

  @Test func theFirstRefreshStartsAndTheNextOnesWait() throws {
    var machine = try machine()
    guard case .startRefresh(let id, let candidates) = machine.refreshRequested(preferring: nil)
    else {
      Issue.record("no refresh started")
      return
    }
    #expect(candidates == [seed, a], "the masters, then the nodes and the seed, each once")
    #expect(machine.state == .refreshing(id))
    #expect(machine.refreshRequested(preferring: a) == .wait(id))
    machine.refreshEnded(id)
    #expect(machine.state == .idle)
    #expect(machine.refreshes == 1)
  }

  @Test func aKnownPreferredNodeIsAskedFirstAndAnUnknownOneNever() throws {
    var machine = try machine()
    guard case .startRefresh(let first, let known) = machine.refreshRequested(preferring: a)
    else {
      Issue.record("no refresh started")
      return
    }
    #expect(known == [a, seed])
    machine.refreshEnded(first)
    guard case .startRefresh(_, let unknown) = machine.refreshRequested(preferring: b) else {
      Issue.record("no refresh started")
      return
    }
    #expect(unknown == [seed, a], "a node the map does not name is not asked")
  }

  @Test func aNewMapClosesThePoolsOfNodesThatLeft() throws {
    var machine = try machine()
    _ = machine.poolOpened(a, "pool-a")
    let next = try map([seed, b])
    #expect(machine.mapRefreshed(next) == .adopted(closing: ["pool-a"]))
    #expect(machine.map == next)
    #expect(machine.pools.isEmpty)
    #expect(machine.knows(b) && !machine.knows(a))
  }

  @Test func aMapWithoutSlotsIsIgnored() throws {
    var machine = try machine()
    let before = machine.map
    #expect(machine.mapRefreshed(ClusterSlotMap()) == .ignored)
    #expect(machine.map == before)
  }

  @Test func aRefreshFailureKeepsTheMapAndEndsTheRefresh() throws {
    var machine = try machine()
    let before = machine.map
    guard case .startRefresh(let id, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("no refresh started")
      return
    }
    // No candidate answered: the refresh ends without a map.
    machine.refreshEnded(id)
    #expect(machine.map == before)
    #expect(machine.state == .idle)
    guard case .startRefresh(let next, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("a failed refresh blocked the next one")
      return
    }
    #expect(next != id)
  }

  @Test func aStaleRefreshEndLeavesTheCurrentRefreshOut() throws {
    var machine = try machine()
    guard case .startRefresh(let first, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("no refresh started")
      return
    }
    machine.refreshEnded(first)
    guard case .startRefresh(let second, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("no refresh started")
      return
    }
    machine.refreshEnded(first)
    #expect(machine.state == .refreshing(second))
  }

  @Test func movedToAKnownNodePatchesTheSlotAndToAnUnknownOneDoesNot() throws {
    var machine = try machine()
    #expect(machine.map.master(for: 0) == seed)
    let known = machine.movedReceived(0, to: a)
    #expect(known)
    #expect(machine.map.master(for: 0) == a)
    let unknown = machine.movedReceived(1, to: b)
    #expect(!unknown)
    #expect(machine.map.master(for: 1) == seed)
  }

  @Test func movedDuringARefreshPatchesUntilTheNewMapArrives() throws {
    var machine = try machine()
    guard case .startRefresh(let id, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("no refresh started")
      return
    }
    let patched = machine.movedReceived(0, to: a)
    #expect(patched)
    let next = try map([seed, a])
    _ = machine.mapRefreshed(next)
    machine.refreshEnded(id)
    #expect(machine.map.master(for: 0) == seed, "the new map wins over the patch")
  }

  @Test func closingClosesEveryPoolOnceEvenWhenClosedTwice() throws {
    var machine = try machine()
    _ = machine.poolOpened(a, "pool-a")
    #expect(machine.closeRequested() == ["pool-a"])
    #expect(machine.state == .closed(refreshing: nil))
    #expect(machine.closeRequested().isEmpty, "the second close does nothing")
  }

  @Test func aPoolHandedOutAfterTheCloseIsClosedFirst() throws {
    var machine = try machine()
    _ = machine.poolOpened(a, "pool-a")
    _ = machine.closeRequested()
    #expect(machine.poolNeeded(a) == .closeAndUse("pool-a"))
    let closeFirst = machine.poolOpened(b, "pool-b")
    #expect(closeFirst, "a pool opened after the close is closed first")
  }

  @Test func aCloseDuringARefreshStillSharesItAndEndsIt() throws {
    var machine = try machine()
    guard case .startRefresh(let id, _) = machine.refreshRequested(preferring: nil) else {
      Issue.record("no refresh started")
      return
    }
    _ = machine.closeRequested()
    #expect(machine.state == .closed(refreshing: id))
    #expect(machine.refreshRequested(preferring: nil) == .wait(id))
    machine.refreshEnded(id)
    #expect(machine.state == .closed(refreshing: nil))
    #expect(machine.refreshes == 1)
  }
}
