import Foundation
import SocialLoginCrypto
import SocialLoginTesting
import Testing

@testable import SocialLogin

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

  /// Issue 34: a full store refuses a new nonce instead of evicting a valid one (an endpoint
  /// anyone can call could otherwise flush every user's nonce), and expired nonces go first.
  @Test func aFullStoreRefusesANewNonceAndNeverEvictsAValidOne() async throws {
    let clock = ManualClock()
    let store = InMemoryNonceStore(clock: clock, capacity: 2)
    let now = clock.wallTime
    try await store.insert("soon", expiresAt: now.addingTimeInterval(10))
    try await store.insert("later", expiresAt: now.addingTimeInterval(100))
    let full = await #expect(throws: AuthError.self) {
      try await store.insert("newest", expiresAt: now.addingTimeInterval(50))
    }
    #expect(full?.code == .nonceStoreFull)
    #expect(store.count == 2)
    clock.advance(by: .seconds(11))  // "soon" expires: its room is taken back first
    try await store.insert("newest", expiresAt: clock.wallTime.addingTimeInterval(50))
    #expect(try await store.consume("later"))
    #expect(try await store.consume("newest"))
    #expect(try await store.consume("soon") == false)
    await #expect(throws: AuthError.self) { try await store.insert("", expiresAt: now) }
  }

  /// Nonces issued and used at once (a busy endpoint, or an attacker) never grow what the
  /// store holds beyond a bound, however many pass through.
  @Test func issuingAndUsingNoncesKeepsTheStoreBounded() async throws {
    let clock = ManualClock()
    let store = InMemoryNonceStore(clock: clock, capacity: 100)
    for index in 0..<20_000 {
      let nonce = Secret("n-\(index)")
      try await store.insert(nonce, expiresAt: clock.wallTime.addingTimeInterval(600))
      #expect(try await store.consume(nonce))
    }
    #expect(store.count == 0)
    #expect(store.expiryEntries <= 2 * store.count + store.capacity + 1)
  }

  /// Apple's apps hash the backend's nonce (SHA-256, hex) before Sign in with Apple, so the
  /// token carries the digest; the issuer finds the nonce it issued by that digest, once.
  @Test(arguments: Kind.allCases)
  func anAppleHashedNonceConsumesTheNonceItHashes(kind: Kind) async throws {
    let clock = ManualClock()
    let nonces = NonceIssuer(store: try store(kind, clock: clock), clock: clock)
    let raw = try await nonces.issue()
    let hashed = Secret(HexDigest.sha256(raw.revealed))
    try await nonces.consume(hashed)
    await #expect(throws: AuthError.self) { try await nonces.consume(hashed) }
    await #expect(throws: AuthError.self) { try await nonces.consume(raw) }
    // Upper-case hex is the same digest; a digest of something never issued is refused.
    let other = try await nonces.issue()
    try await nonces.consume(Secret(HexDigest.sha256(other.revealed).uppercased()))
    await #expect(throws: AuthError.self) {
      try await nonces.consume(Secret(HexDigest.sha256("never-issued")))
    }
    for garbage in [String(repeating: "g", count: 64), String(repeating: "a", count: 63), ""] {
      await #expect(throws: AuthError.self) { try await nonces.consume(Secret(garbage)) }
    }
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

/// The hex SHA-256 an Apple app sends in place of the nonce.
enum HexDigest {
  static func sha256(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}
