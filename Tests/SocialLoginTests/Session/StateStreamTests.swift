import Foundation
import SocialLoginTesting
import Testing

@testable import SocialLogin

@Suite struct StateStreamTests {
  @Test func thousandSubscribersSeeInitialValueThenEveryChangeInOrder() async throws {
    let broadcaster = StateBroadcaster<Int>(0)
    let streams = (0..<1000).map { _ in broadcaster.subscribe() }
    for value in 1...50 { broadcaster.publish(value) }
    broadcaster.finish(with: 51)
    try await withThrowingTaskGroup(of: [Int].self) { group in
      for stream in streams {
        group.addTask {
          var seen: [Int] = []
          for await value in stream { seen.append(value) }
          return seen
        }
      }
      for try await seen in group { #expect(seen == Array(0...51)) }
    }
  }

  @Test func subscribingMidwayStartsFromTheCurrentValue() async {
    let broadcaster = StateBroadcaster<Int>(0)
    broadcaster.publish(1)
    broadcaster.publish(2)
    let stream = broadcaster.subscribe()
    broadcaster.publish(3)
    broadcaster.finish(with: 4)
    var seen: [Int] = []
    for await value in stream { seen.append(value) }
    #expect(seen == [2, 3, 4])
  }

  @Test func aNewestOnlyStreamKeepsTheLatestStateForASlowConsumer() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let latestOnly = session.states(bufferingPolicy: .bufferingNewest(1))
    let everything = session.states
    // Nobody consumes while the session refreshes, degrades and signs out.
    _ = try await session.freshAccessToken()
    await fixture.provider.enqueueRefresh { _ in throw AuthError(.serverUnavailable, "503") }
    fixture.clock.advance(by: .seconds(7200))
    await #expect(throws: AuthError.self) { try await session.freshAccessToken() }
    try await session.signOut(revoke: false)

    var latest: [AuthState] = []
    for await state in latestOnly { latest.append(state) }
    #expect(latest == [.signedOut(.userInitiated)])
    var all: [AuthState] = []
    for await state in everything { all.append(state) }
    #expect(all.count == 4)
    #expect(all.first == .signedIn)
    #expect(all.last == .signedOut(.userInitiated))
  }

  @Test func clientEventsCanKeepOnlyTheNewest() async throws {
    let clock = ManualClock()
    let provider = ScriptedProvider(clock: clock)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let newest = client.events(bufferingPolicy: .bufferingNewest(2))
    for index in 0..<5 {
      _ = try await client.register(
        credential: Credential(accessToken: "at", refreshToken: "rt"),
        identity: Identity(provider: provider.id, subject: "u\(index)"))
    }
    var iterator = newest.makeAsyncIterator()
    #expect(await iterator.next()?.key.subject == "u3")
    #expect(await iterator.next()?.key.subject == "u4")
  }

  @Test func sessionStreamsYieldCurrentStateThenRefreshesInOrder() async throws {
    let fixture = SessionFixture()
    let session = fixture.makeSession(record: try await fixture.storeInitial())
    let streams = (0..<1000).map { _ in session.states }
    _ = try await session.freshAccessToken()
    try await session.signOut(revoke: false)
    try await withThrowingTaskGroup(of: [AuthState].self) { group in
      for stream in streams {
        group.addTask {
          var seen: [AuthState] = []
          for await state in stream { seen.append(state) }
          return seen
        }
      }
      for try await seen in group {
        #expect(seen == [.signedIn, .signedIn, .signedOut(.userInitiated)])
      }
    }
  }

  @Test func breakingOutOrCancellingUnsubscribes() async throws {
    let broadcaster = StateBroadcaster<Int>(0)
    // Break out of the loop.
    for _ in 0..<100 {
      for await _ in broadcaster.subscribe() { break }
    }
    #expect(broadcaster.subscriberCount == 0)
    // Cancel consuming tasks that are suspended waiting for the next value.
    let consumers = (0..<100).map { _ in
      let stream = broadcaster.subscribe()
      return Task {
        var count = 0
        for await _ in stream { count += 1 }
        return count
      }
    }
    #expect(broadcaster.subscriberCount == 100)
    for consumer in consumers { consumer.cancel() }
    for consumer in consumers { _ = await consumer.value }
    #expect(broadcaster.subscriberCount == 0)
  }

  @Test func clientEventsReplayLiveSessionsThenChanges() async throws {
    let clock = ManualClock()
    let provider = ScriptedProvider(clock: clock)
    let client = try LoginClient(
      providers: [provider], store: InMemorySessionStore(), clock: clock,
      policy: RefreshPolicy(proactiveMargin: nil))
    let alice = Identity(provider: "scripted", subject: "alice")
    let bob = Identity(provider: "scripted", subject: "bob")
    let session = try await client.register(
      credential: Credential(accessToken: "a", refreshToken: "ra"), identity: alice)
    let events = client.events
    try await client.register(credential: Credential(accessToken: "b"), identity: bob)
    try await session.signOut(revoke: false)
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == SessionEvent(key: alice.sessionKey, state: .signedIn))
    #expect(await iterator.next() == SessionEvent(key: bob.sessionKey, state: .signedIn))
    #expect(
      await iterator.next()
        == SessionEvent(key: alice.sessionKey, state: .signedOut(.userInitiated)))
    #expect(client.sessionCount == 1)
  }
}
