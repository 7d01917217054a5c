import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 20, item 7: nonces are issued, kept, expire and are used once.
@Suite struct NonceStoreTests {
  @Test func anIssuedNonceIsUsedOnceAndNeverAgain() async throws {
    let clock = ManualClock()
    let nonces = NonceIssuer(store: InMemoryNonceStore(clock: clock), clock: clock)
    let nonce = try await nonces.issue()
    #expect(nonce.revealed.count >= 43, "256 bits, base64url")
    try await nonces.consume(nonce)
    let again = await #expect(throws: AuthError.self) { try await nonces.consume(nonce) }
    #expect(again?.code == .invalidToken)
    await #expect(throws: AuthError.self) { try await nonces.consume("never-issued") }
  }

  @Test func aNonceExpiresAfterItsLifetime() async throws {
    let clock = ManualClock()
    let nonces = NonceIssuer(
      store: InMemoryNonceStore(clock: clock), lifetime: .seconds(60), clock: clock)
    let kept = try await nonces.issue()
    let late = try await nonces.issue()
    clock.advance(by: .seconds(59))
    try await nonces.consume(kept)
    clock.advance(by: .seconds(2))
    await #expect(throws: AuthError.self) { try await nonces.consume(late) }
  }

  @Test func ofManyConcurrentConsumersExactlyOneGetsTheNonce() async throws {
    let store = InMemoryNonceStore()
    let nonces = NonceIssuer(store: store)
    let nonce = try await nonces.issue()
    let winners = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<200 { group.addTask { (try? await store.consume(nonce)) ?? false } }
      var count = 0
      for await won in group where won { count += 1 }
      return count
    }
    #expect(winners == 1)
  }

  @Test func aFullStoreDropsTheNoncesExpiringFirst() async throws {
    let clock = ManualClock()
    let store = InMemoryNonceStore(clock: clock, capacity: 2)
    let now = clock.wallTime
    try await store.insert("soon", expiresAt: now.addingTimeInterval(10))
    try await store.insert("later", expiresAt: now.addingTimeInterval(100))
    try await store.insert("newest", expiresAt: now.addingTimeInterval(50))
    #expect(store.count == 2)
    #expect(try await store.consume("later"))
    #expect(try await store.consume("newest"))
    #expect(try await store.consume("soon") == false)
    await #expect(throws: AuthError.self) { try await store.insert("", expiresAt: now) }
  }
}
