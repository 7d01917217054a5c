import Foundation
import SocialLogin
import SocialLoginCrypto

/// A `NonceStore` in Redis, so that the replica that issued a nonce and the one that verifies
/// the app's ID token share it.
///
/// - Keys are the SHA-256 of the nonce (no secret in key names or `MONITOR` output).
/// - Each nonce expires in Redis at its expiry (`SET NX PX`).
/// - Consuming is one `DEL`: atomic, so of concurrent verifications of one token exactly one
///   uses the nonce.
///
/// ```swift
/// let nonces = NonceIssuer(store: store.nonces())  // a RedisSessionStore's client and prefix
/// ```
public final class RedisNonceStore: NonceStore {
  /// The client the commands go through.
  public let client: RedisClient
  private let keys: RedisKeys
  private let clock: any AuthClock

  /// A store on `client` under `keyPrefix`.
  ///
  /// - Parameters:
  ///   - client: The Redis client.
  ///   - keyPrefix: The prefix of every key (the session store's, by default).
  ///   - clock: The clock expiry times are counted from.
  public init(
    client: RedisClient, keyPrefix: String = "sociallogin",
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.client = client
    keys = RedisKeys(prefix: keyPrefix)
    self.clock = clock
  }

  /// Keeps `nonce` until `expiresAt` (`SET NX PX`).
  ///
  /// - Throws: `AuthError` `.configuration` for an empty or expired nonce, `.replayed` for one
  ///   already kept;
  ///   `.storageFailed` when Redis fails.
  public func insert(_ nonce: Secret, expiresAt: Date) async throws {
    guard !nonce.isEmpty else { throw AuthError(.configuration, "A nonce cannot be empty.") }
    let remaining = expiresAt.timeIntervalSince(clock.wallTime)
    guard remaining > 0 else {
      throw AuthError(.configuration, "The nonce's expiry has already passed.")
    }
    let stored: Bool
    do {
      stored = try await client.setIfAbsent(
        key(for: nonce), Array("1".utf8), expiringIn: remaining)
    } catch {
      throw RedisSessionStore.storeError(error, "storing a nonce")
    }
    guard stored else {
      throw AuthError(.replayed, "This nonce is already kept.")
    }
  }

  /// Removes `nonce` (`DEL`); `true` when it was kept and had not expired.
  ///
  /// - Throws: `AuthError` `.storageFailed` when Redis fails or answers something else.
  public func consume(_ nonce: Secret) async throws -> Bool {
    try await consume(digest: SHA256.hash(Array(nonce.revealed.utf8)))
  }

  /// Removes the nonce whose SHA-256 is `digest` (Apple's hashed nonce; `DEL`); `true` when it
  /// was kept and had not expired.
  ///
  /// - Throws: `AuthError` `.storageFailed` when Redis fails or answers something else.
  public func consume(digest: [UInt8]) async throws -> Bool {
    guard digest.count == 32 else { return false }
    let key = keys.nonce(digest: HexEncoding.lowercase(digest))
    let reply: RESPValue
    do {
      reply = try await client.send(RedisCommand(arguments: [Array("DEL".utf8), Array(key.utf8)]))
    } catch {
      throw RedisSessionStore.storeError(error, "consuming a nonce")
    }
    guard case .integer(let removed) = reply else {
      throw AuthError(.storageFailed, "Redis answered DEL with something other than a number.")
    }
    return removed == 1
  }

  private func key(for nonce: Secret) -> String {
    keys.nonce(digest: HexEncoding.lowercase(SHA256.hash(Array(nonce.revealed.utf8))))
  }
}

extension RedisSessionStore {
  /// A `RedisNonceStore` on this store's client and key prefix, for `NonceIssuer`.
  ///
  /// - Parameter clock: The clock nonce expiry is counted from.
  public func nonces(clock: any AuthClock = SystemAuthClock()) -> RedisNonceStore {
    RedisNonceStore(client: client, keyPrefix: options.keyPrefix, clock: clock)
  }
}
