import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct UserAgentPendingLoginTests {
  let clock = ManualClock()

  func pending(_ state: String, lifetime: TimeInterval = 600) -> PendingLogin {
    PendingLogin(
      provider: "scripted", state: Secret(state), redirectURI: "https://app.example/cb",
      createdAt: clock.wallTime, expiresAt: clock.wallTime.addingTimeInterval(lifetime))
  }

  @Test func takeIsSingleUse() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1"))
    #expect(try await store.take(state: "s1").state == "s1")
    let error = await #expect(throws: AuthError.self) { try await store.take(state: "s1") }
    #expect(error?.code == .stateMismatch)
    #expect(store.count == 0)
  }

  @Test func unknownStateIsAStateMismatch() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1"))
    let error = await #expect(throws: AuthError.self) { try await store.take(state: "s2") }
    #expect(error?.code == .stateMismatch)
    #expect(store.count == 1)
  }

  @Test func failedValidationDoesNotConsume() async throws {
    struct Forged: Error {}
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1"))
    await #expect(throws: Forged.self) {
      try await store.take(state: "s1") { _ -> Int in throw Forged() }
    }
    #expect(try await store.take(state: "s1") { $0.redirectURI } == "https://app.example/cb")
  }

  @Test func aLoginBeingValidatedCannotBeTakenTwice() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1"))
    let gate = Gate()
    let first = Task {
      try await store.take(state: "s1") { pending -> String in
        await gate.wait()
        return pending.state.revealed
      }
    }
    try await gate.waitForWaiters(count: 1)
    let error = await #expect(throws: AuthError.self) { try await store.take(state: "s1") }
    #expect(error?.code == .invalidCallback)
    gate.open()
    #expect(try await first.value == "s1")
    #expect(store.count == 0)
  }

  @Test func expiredLoginsAreRejectedAndRemoved() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1", lifetime: 60))
    clock.advance(by: .seconds(60))
    let error = await #expect(throws: AuthError.self) { try await store.take(state: "s1") }
    #expect(error?.code == .stateMismatch)
    #expect(error?.message.contains("expired") == true)
    #expect(store.count == 0)
  }

  @Test func insertPurgesExpiredLoginsPeriodically() async throws {
    let store = InMemoryPendingLoginStore(clock: clock, purgeInterval: .seconds(60))
    for index in 0..<5 { try await store.insert(pending("old-\(index)", lifetime: 10)) }
    clock.advance(by: .seconds(30))
    try await store.insert(pending("mid"))
    #expect(store.count == 6)  // expired, but the purge interval has not passed
    clock.advance(by: .seconds(31))
    try await store.insert(pending("new"))
    #expect(store.count == 2)
    #expect(try await store.take(state: "mid").state == "mid")
  }

  @Test func aFullStoreEvictsTheOldestLogins() async throws {
    let store = InMemoryPendingLoginStore(clock: clock, capacity: 3)
    for index in 0..<5 { try await store.insert(pending("s\(index)")) }
    #expect(store.count == 3)
    for index in 0..<2 {
      let error = await #expect(throws: AuthError.self) { try await store.take(state: "s\(index)") }
      #expect(error?.code == .stateMismatch)
    }
    for index in 2..<5 {
      #expect(try await store.take(state: "s\(index)").state.revealed == "s\(index)")
    }
  }

  @Test func evictionStaysBoundedUnderChurn() async throws {
    let store = InMemoryPendingLoginStore(clock: clock, capacity: 10)
    for index in 0..<5000 {
      try await store.insert(pending("s\(index)"))
      if index.isMultiple(of: 2) { _ = try await store.take(state: "s\(index)") }
    }
    #expect(store.count == 10)
    #expect(try await store.take(state: "s4999").state == "s4999")
  }

  @Test func rejectsEmptyAndDuplicateStates() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    await #expect(throws: AuthError.self) { try await store.insert(pending("")) }
    try await store.insert(pending("s1"))
    await #expect(throws: AuthError.self) { try await store.insert(pending("s1")) }
  }

  @Test func removeForgetsALogin() async throws {
    let store = InMemoryPendingLoginStore(clock: clock)
    try await store.insert(pending("s1"))
    await store.remove(state: "s1")
    await store.remove(state: "never-there")
    #expect(store.count == 0)
  }
}
