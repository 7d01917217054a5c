import Foundation
import SocialLogin
import SocialLoginCrypto

/// A `PendingLoginStore` in Redis, so that `beginLogin` on one replica and the
/// callback's `completeLogin` on another find the same pending login.
///
/// - Keys are the SHA-256 of the state (no secret in key names or `MONITOR` output), under
///   the store's prefix; the stored state is then compared in constant time.
/// - Each login (its PKCE verifier, nonce and state) is sealed with the store's
///   `RecordSealing` and bound to its key: a value copied to another key or altered does not
///   open, and is refused like an unknown state.
/// - Each login expires in Redis at its `PendingLogin.expiresAt` (`SET NX PX`),
///   and is checked against the clock again when taken.
/// - A take is single use: a script takes the login with `GETDEL` and marks it claimed while
///   `validate` runs, so a concurrent callback with the same state gets `invalidCallback`. When
///   `validate` throws, the login is put back (a forged callback does not burn the genuine one).
///
/// ```swift
/// let pending = store.pendingLogins()  // a RedisSessionStore's client and key prefix
/// let client = try LoginClient(providers: [...], store: store, pendingLogins: pending)
/// ```
public final class RedisPendingLoginStore: PendingLoginStore {
  /// The client the store talks through.
  public let client: RedisClient
  /// How logins are sealed before they are stored.
  public let sealing: RecordSealing
  private let keys: RedisKeys
  private let clock: any AuthClock

  /// Creates a store on `client`, with keys under `keyPrefix`.
  ///
  /// - Parameters:
  ///   - client: The Redis client.
  ///   - sealing: How logins are protected (`.unsealed` for development only; see
  ///     ``RedisSessionStore/init(client:sealing:options:)``).
  ///   - keyPrefix: The prefix of every key.
  ///   - clock: The clock that checks a login's expiry.
  public init(
    client: RedisClient, sealing: RecordSealing, keyPrefix: String = "sociallogin",
    clock: any AuthClock = SystemAuthClock()
  ) {
    self.client = client
    self.sealing = sealing
    keys = RedisKeys(prefix: keyPrefix)
    self.clock = clock
  }

  /// Stores `pending` until its expiry.
  ///
  /// - Throws: `configuration` for an empty or already pending state or an expired login;
  ///   `storageFailed` when Redis cannot be reached.
  public func insert(_ pending: PendingLogin) async throws {
    guard !pending.state.isEmpty else {
      throw AuthError(
        .configuration, "A pending login needs a non-empty state.", provider: pending.provider)
    }
    let remaining = pending.expiresAt.timeIntervalSince(clock.wallTime)
    guard remaining > 0 else {
      throw AuthError(
        .configuration, "The pending login has already expired.", provider: pending.provider)
    }
    let digest = Self.digest(pending.state.revealed)
    let value: Data
    do {
      value = try JSONEncoder().encode(pending)
    } catch {
      throw AuthError(.storageFailed, "The pending login could not be encoded.")
    }
    let stored: Bool
    do {
      stored = try await client.setIfAbsent(
        keys.pending(digest: digest),
        sealing.seal(Array(value), context: keys.pendingContext(digest: digest)),
        expiringIn: remaining)
    } catch {
      throw RedisSessionStore.storeError(error, "storing a pending login")
    }
    guard stored else {
      throw AuthError(
        .configuration, "A login with this state is already pending.", provider: pending.provider)
    }
  }

  /// Claims the login for `state`, runs `validate`, and removes it for good only if `validate`
  /// returns. See `PendingLoginStore.take(state:validate:)`.
  public func take<Value: Sendable>(
    state callbackState: String, validate: @Sendable (PendingLogin) async throws -> Value
  ) async throws -> Value {
    let digest = Self.digest(callbackState)
    let loginKey = keys.pending(digest: digest)
    let claimKey = keys.pendingClaim(digest: digest)
    let reply: RESPValue
    do {
      // The claim outlives any validation (provider calls time out well before 10 minutes).
      reply = try await client.evaluate(
        RedisScripts.claimPending, keys: [loginKey, claimKey], arguments: [Array("600000".utf8)])
    } catch {
      throw RedisSessionStore.storeError(error, "taking a pending login")
    }
    if reply.integer == -1 {
      throw AuthError(
        .invalidCallback, "This login is already being completed by another callback.")
    }
    guard let bytes = reply.bytes else {
      throw AuthError(.stateMismatch, "The callback's state does not match any pending login.")
    }
    guard
      let opened = try? sealing.open(bytes, context: keys.pendingContext(digest: digest)),
      let pending = try? JSONDecoder().decode(PendingLogin.self, from: Data(opened.bytes)),
      ConstantTime.equals(Array(pending.state.revealed.utf8), Array(callbackState.utf8))
    else {
      _ = try? await client.send(RedisCommand(["DEL", claimKey]))
      throw AuthError(.stateMismatch, "The callback's state does not match any pending login.")
    }
    guard pending.expiresAt > clock.wallTime else {
      _ = try? await client.send(RedisCommand(["DEL", claimKey]))
      throw AuthError(
        .stateMismatch, "The login has expired; start it again.", provider: pending.provider)
    }
    do {
      let value = try await validate(pending)
      _ = try? await client.send(RedisCommand(["DEL", claimKey]))
      return value
    } catch {
      let remaining = Int64(pending.expiresAt.timeIntervalSince(clock.wallTime) * 1000)
      _ = try? await client.evaluate(
        RedisScripts.unclaimPending, keys: [loginKey, claimKey],
        arguments: [bytes, Array(String(max(0, remaining)).utf8)])
      throw error
    }
  }

  /// Forgets the login for `state`, if any.
  public func remove(state callbackState: String) async {
    let digest = Self.digest(callbackState)
    _ = try? await client.send(
      RedisCommand(["DEL", keys.pending(digest: digest), keys.pendingClaim(digest: digest)]))
  }

  private static func digest(_ state: String) -> String {
    HexEncoding.lowercase(SHA256.hash(Array(state.utf8)))
  }
}
