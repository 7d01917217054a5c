import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// Issue 20, item 7: nonces are issued, kept, expire and are used once.
@Suite struct NonceStoreTests {
  enum Kind: String, CaseIterable, Sendable { case memory, file }

  func store(_ kind: Kind, clock: any AuthClock = SystemAuthClock()) throws -> any NonceStore {
    switch kind {
    case .memory: return InMemoryNonceStore(clock: clock)
    case .file:
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "nonces-\(UUID().uuidString)")
      return try FileNonceStore(directory: directory, clock: clock)
    }
  }

  @Test(arguments: Kind.allCases)
  func anIssuedNonceIsUsedOnceAndNeverAgain(kind: Kind) async throws {
    let clock = ManualClock()
    let nonces = NonceIssuer(store: try store(kind, clock: clock), clock: clock)
    let nonce = try await nonces.issue()
    #expect(nonce.revealed.count >= 43, "256 bits, base64url")
    try await nonces.consume(nonce)
    let again = await #expect(throws: AuthError.self) { try await nonces.consume(nonce) }
    #expect(again?.code == .invalidToken)
    await #expect(throws: AuthError.self) { try await nonces.consume("never-issued") }
  }

  @Test(arguments: Kind.allCases)
  func aNonceExpiresAfterItsLifetime(kind: Kind) async throws {
    let clock = ManualClock()
    let nonces = NonceIssuer(
      store: try store(kind, clock: clock), lifetime: .seconds(60), clock: clock)
    let kept = try await nonces.issue()
    let late = try await nonces.issue()
    clock.advance(by: .seconds(59))
    try await nonces.consume(kept)
    clock.advance(by: .seconds(2))
    await #expect(throws: AuthError.self) { try await nonces.consume(late) }
  }

  @Test(arguments: Kind.allCases)
  func ofManyConcurrentConsumersExactlyOneGetsTheNonce(kind: Kind) async throws {
    let store = try store(kind)
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

  @Test func aFileStoreKeepsNoNonceInClearAndSweepsExpiredFiles() async throws {
    let clock = ManualClock()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "nonces-\(UUID().uuidString)")
    let store = try FileNonceStore(directory: directory, clock: clock)
    try await store.insert("the-nonce", expiresAt: clock.wallTime.addingTimeInterval(30))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(names.count == 1)
    #expect(names.allSatisfy { !$0.contains("the-nonce") }, "named by digest")
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    await #expect(throws: AuthError.self) {
      try await store.insert("the-nonce", expiresAt: clock.wallTime.addingTimeInterval(30))
    }
    clock.advance(by: .seconds(120))
    try await store.insert("another", expiresAt: clock.wallTime.addingTimeInterval(30))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1,
      "the expired nonce's file was swept")
    #expect(try await store.consume("another"))
  }
}
