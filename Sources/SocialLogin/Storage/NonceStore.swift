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
  /// - Throws: ``AuthError/Code/replayed`` when the nonce is already kept (what makes a store
  ///   a replay check for one-time ids, such as Apple notifications' `jti`);
  ///   ``AuthError/Code/configuration`` when it is empty; the store's error when it fails.
  func insert(_ nonce: Secret, expiresAt: Date) async throws

  /// Removes `nonce`: `true` when it was kept and had not expired. Single use: of concurrent
  /// calls for one nonce, exactly one gets `true`.
  ///
  /// - Throws: ``AuthError`` when the store fails (the nonce is then not consumed).
  func consume(_ nonce: Secret) async throws -> Bool

  /// Removes the nonce whose SHA-256 is `digest`: `true` when it was kept and had not
  /// expired. Apple's apps send the SHA-256 of the nonce the backend issued to Sign in with
  /// Apple, so the token's `nonce` claim is that digest (hex), not the nonce. Single use, as
  /// ``consume(_:)``.
  ///
  /// The default throws ``AuthError/Code/unsupported``: a store that keeps nonces by their
  /// SHA-256 (as the SDK's stores do) implements it.
  func consume(digest: [UInt8]) async throws -> Bool
}

extension NonceStore {
  /// Throws ``AuthError/Code/unsupported``: this store cannot find a nonce by its digest.
  public func consume(digest: [UInt8]) async throws -> Bool {
    throw AuthError(
      .unsupported, "This nonce store cannot consume a nonce by its SHA-256 (Apple's hashed nonce)."
    )
  }
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
  /// An endpoint that hands nonces to anyone must be rate-limited: a store full of valid
  /// nonces refuses new ones (``AuthError/Code/nonceStoreFull`` from ``InMemoryNonceStore``)
  /// rather than dropping nonces other users are about to use.
  ///
  /// - Throws: ``AuthError`` when the store fails or is full.
  public func issue() async throws -> Secret {
    let nonce = Secret(SecureRandom.urlSafeToken(byteCount: 32))
    try await store.insert(
      nonce, expiresAt: clock.wallTime.addingTimeInterval(lifetime.timeInterval))
    return nonce
  }

  /// Uses `nonce` up: a nonce issued here, or the hex SHA-256 of one, which is what an Apple
  /// app puts in its token (it hashes the backend's nonce before Sign in with Apple).
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` when it was not issued here, was used already
  ///   or expired; the store's error when it fails.
  public func consume(_ nonce: Secret) async throws {
    guard try await consumeIssued(nonce) else {
      throw AuthError(
        .invalidToken,
        "The token's nonce was not issued here, was used already, or expired; ask for a new "
          + "nonce and sign in again.")
    }
  }
  /// Consumes `nonce`, or, when it is the hex SHA-256 of a nonce issued here (what an Apple
  /// app puts in the token), that nonce.
  private func consumeIssued(_ nonce: Secret) async throws -> Bool {
    if try await store.consume(nonce) { return true }
    guard let digest = HexEncoding.decodeSHA256(nonce.revealed) else { return false }
    return try await store.consume(digest: digest)
  }

}

/// A ``NonceStore`` in process memory: keyed by the nonce's SHA-256, expiring on the injected
/// clock, at most `capacity` valid nonces.
///
/// Expired nonces are dropped first, found through a heap of expiries (no scan of the store).
/// When `capacity` nonces that have not expired are kept, a new one is refused with
/// ``AuthError/Code/nonceStoreFull`` instead of evicting a nonce an app is about to use: an
/// endpoint that hands out nonces to anyone could otherwise flush every user's nonce. Put a
/// rate limit in front of that endpoint.
public final class InMemoryNonceStore: NonceStore {
  /// The maximum number of valid nonces kept.
  public let capacity: Int
  private let clock: any AuthClock
  private let nonces = Locked(NonceExpiries())

  /// An empty store.
  ///
  /// - Parameters:
  ///   - clock: The clock expiry is checked against.
  ///   - capacity: The most nonces kept (100,000 by default).
  public init(clock: any AuthClock = SystemAuthClock(), capacity: Int = 100_000) {
    self.clock = clock
    self.capacity = max(1, capacity)
  }

  /// The number of nonces kept, expired ones not dropped yet included.
  public var count: Int { nonces.withLock { $0.count } }

  /// The expiry entries held (for tests: bounded by twice the nonces kept plus the capacity).
  var expiryEntries: Int { nonces.withLock { $0.heapCount } }

  /// Keeps `nonce` until `expiresAt`, after dropping the nonces that have expired.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for an empty nonce,
  ///   ``AuthError/Code/replayed`` for one already kept, ``AuthError/Code/nonceStoreFull``
  ///   when `capacity` valid nonces are kept.
  public func insert(_ nonce: Secret, expiresAt: Date) async throws {
    guard !nonce.isEmpty else { throw AuthError(.configuration, "A nonce cannot be empty.") }
    let key = SHA256.hash(Array(nonce.revealed.utf8))
    let now = clock.wallTime
    let capacity = self.capacity
    switch nonces.withLock({ $0.insert(key, expiresAt: expiresAt, now: now, capacity: capacity) })
    {
    case .inserted: return
    case .alreadyKept: throw AuthError(.replayed, "This nonce is already kept.")
    case .full:
      throw AuthError(
        .nonceStoreFull,
        "The nonce store holds \(capacity) nonces that have not expired; no nonce is evicted "
          + "to make room. Rate-limit the endpoint that issues nonces, or raise the capacity.")
    }
  }

  /// Removes `nonce`; `true` when it was kept and had not expired.
  public func consume(_ nonce: Secret) async throws -> Bool {
    try await consume(digest: SHA256.hash(Array(nonce.revealed.utf8)))
  }

  /// Removes the nonce whose SHA-256 is `digest`; `true` when it was kept and had not expired.
  public func consume(digest: [UInt8]) async throws -> Bool {
    let now = clock.wallTime
    return nonces.withLock { $0.consume(digest, now: now) }
  }
}
