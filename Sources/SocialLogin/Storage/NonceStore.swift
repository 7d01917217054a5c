import Foundation
import SocialLoginCrypto

/// Keeps the nonces a backend issued to its apps until each is used once or expires.
///
/// A mobile app asks the backend for a nonce, passes it to the provider's SDK, and sends the
/// ID token it gets back; the token's `nonce` claim must be one the backend issued, not used
/// before and not expired, so that a token captured from another sign-in cannot be replayed.
/// ``NonceIssuer`` issues and consumes them; ``LoginClient/verify(idToken:from:nonces:)``
/// verifies a token and consumes its nonce in one call.
///
/// ``InMemoryNonceStore`` serves one process, ``FileNonceStore`` the processes of one machine;
/// replicas share `RedisNonceStore` (`SocialLoginRedis`).
public protocol NonceStore: Sendable {
  /// Keeps `nonce` until `expiresAt`.
  ///
  /// - Throws: ``AuthError`` when the nonce is empty or already kept, or the store fails.
  func insert(_ nonce: Secret, expiresAt: Date) async throws

  /// Removes `nonce`: `true` when it was kept and had not expired. Single use: of concurrent
  /// calls for one nonce, exactly one gets `true`.
  ///
  /// - Throws: ``AuthError`` when the store fails (the nonce is then not consumed).
  func consume(_ nonce: Secret) async throws -> Bool
}

/// Issues nonces and uses them up, over a ``NonceStore``.
///
/// ```swift
/// let nonces = NonceIssuer(store: InMemoryNonceStore())
/// // GET /nonce: hand the app a fresh nonce for the provider's SDK
/// let nonce = try await nonces.issue()
/// // POST /session: the app sends the ID token it got
/// let verified = try await client.verify(idToken: idToken, from: .line, nonces: nonces)
/// ```
public struct NonceIssuer: Sendable {
  /// Where the nonces are kept.
  public let store: any NonceStore
  /// How long a nonce stays usable after it is issued.
  public let lifetime: Duration
  private let clock: any AuthClock

  /// An issuer over `store`.
  ///
  /// - Parameters:
  ///   - store: Where nonces are kept (shared by the replicas that verify).
  ///   - lifetime: How long an app has to sign in with a nonce (ten minutes by default).
  ///   - clock: The clock expiry is counted on.
  public init(
    store: any NonceStore, lifetime: Duration = .seconds(600),
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.store = store
    self.lifetime = lifetime
    self.clock = clock
  }

  /// A new random nonce (256 bits, base64url), kept until it is used or ``lifetime`` passes.
  ///
  /// - Throws: ``AuthError`` when the store fails.
  public func issue() async throws -> Secret {
    let nonce = Secret(SecureRandom.urlSafeToken(byteCount: 32))
    try await store.insert(
      nonce, expiresAt: clock.wallTime.addingTimeInterval(lifetime.timeInterval))
    return nonce
  }

  /// Uses `nonce` up.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` when it was not issued here, was used already
  ///   or expired; the store's error when it fails.
  public func consume(_ nonce: Secret) async throws {
    guard try await store.consume(nonce) else {
      throw AuthError(
        .invalidToken,
        "The token's nonce was not issued here, was used already, or expired; ask for a new "
          + "nonce and sign in again.")
    }
  }
}

/// A ``NonceStore`` in process memory: keyed by the nonce's SHA-256, expiring on the injected
/// clock, at most `capacity` nonces (the oldest expiring first are dropped when full).
public final class InMemoryNonceStore: NonceStore {
  /// The maximum number of nonces kept.
  public let capacity: Int
  private let clock: any AuthClock
  private let nonces = Locked([[UInt8]: Date]())

  /// An empty store.
  ///
  /// - Parameters:
  ///   - clock: The clock expiry is checked against.
  ///   - capacity: The most nonces kept (100,000 by default).
  public init(clock: any AuthClock = SystemAuthClock(), capacity: Int = 100_000) {
    self.clock = clock
    self.capacity = max(1, capacity)
  }

  /// The number of nonces kept, expired ones not swept yet included.
  public var count: Int { nonces.withLock { $0.count } }

  /// Keeps `nonce` until `expiresAt`; sweeps expired nonces when full.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an empty nonce or one already kept.
  public func insert(_ nonce: Secret, expiresAt: Date) async throws {
    guard !nonce.isEmpty else { throw AuthError(.configuration, "A nonce cannot be empty.") }
    let key = SHA256.hash(Array(nonce.revealed.utf8))
    let now = clock.wallTime
    let capacity = self.capacity
    let inserted = nonces.withLock { nonces -> Bool in
      guard nonces[key] == nil else { return false }
      if nonces.count >= capacity {
        nonces = nonces.filter { $0.value > now }
        while nonces.count >= capacity, let soonest = nonces.min(by: { $0.value < $1.value }) {
          nonces.removeValue(forKey: soonest.key)
        }
      }
      nonces[key] = expiresAt
      return true
    }
    guard inserted else { throw AuthError(.configuration, "This nonce is already kept.") }
  }

  /// Removes `nonce`; `true` when it was kept and had not expired.
  public func consume(_ nonce: Secret) async throws -> Bool {
    let key = SHA256.hash(Array(nonce.revealed.utf8))
    let now = clock.wallTime
    return nonces.withLock { $0.removeValue(forKey: key) }.map { $0 > now } ?? false
  }
}
