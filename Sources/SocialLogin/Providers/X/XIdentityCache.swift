import Foundation
import SocialLoginCrypto

/// How ``XProvider`` remembers whose an OAuth 2.0 access token is.
///
/// Since February 2026 X bills every read of a user, `/2/users/me` included. A backend that
/// verifies the same token on every request would pay for each call, so the provider keeps
/// the identity `/2/users/me` answered for a token until the token's life ends (or
/// ``maximumAge``, whichever is first) and answers repeated ``XProvider/verify(_:)`` and
/// ``XProvider/fetchIdentity(for:)`` calls from memory. The cache is keyed by the SHA-256 of
/// the token, never the token itself, holds at most ``maximumEntries`` identities (the
/// oldest go first), and forgets a token the provider revokes.
///
/// ```swift
/// var configuration = try XProvider.Configuration(clientID: id, clientSecret: secret)
/// configuration.identityCache.maximumAge = 600   // ask X again after ten minutes
/// configuration.identityCache.isEnabled = false  // or every time
/// ```
public struct XIdentityCachePolicy: Hashable, Sendable {
  /// Whether identities are cached; `true` by default.
  public var isEnabled: Bool
  /// The longest an identity is reused, in seconds; 7,200 (X's access-token life) by default.
  /// A credential that expires sooner bounds it further.
  public var maximumAge: TimeInterval
  /// The most identities kept; 10,000 by default.
  public var maximumEntries: Int

  /// Creates a policy.
  public init(isEnabled: Bool = true, maximumAge: TimeInterval = 7200, maximumEntries: Int = 10_000)
  {
    self.isEnabled = isEnabled
    self.maximumAge = maximumAge
    self.maximumEntries = maximumEntries
  }
}

/// The identities of access tokens, keyed by the tokens' SHA-256, each until its expiry.
struct XIdentityCache: Sendable {
  private struct Entry: Sendable {
    var identity: Identity
    var expiresAt: Date
  }

  private var entries: [[UInt8]: Entry] = [:]
  /// Keys in insertion order, for evicting the oldest.
  private var order: [[UInt8]] = []

  /// How many identities are held.
  var count: Int { entries.count }

  /// The key of `token`: its SHA-256 (the raw token is never stored).
  static func key(_ token: Secret) -> [UInt8] { SHA256.hash(Array(token.revealed.utf8)) }

  /// The identity cached for `token`, if it has not expired at `now`.
  mutating func identity(for token: Secret, now: Date) -> Identity? {
    let key = Self.key(token)
    guard let entry = entries[key] else { return nil }
    guard now < entry.expiresAt else {
      entries[key] = nil
      return nil
    }
    return entry.identity
  }

  /// Keeps `identity` for `token` until `expiresAt`, within `policy`'s bounds.
  mutating func insert(
    _ identity: Identity, for token: Secret, now: Date, expiresAt: Date?,
    policy: XIdentityCachePolicy
  ) {
    guard policy.isEnabled, policy.maximumEntries > 0, policy.maximumAge > 0 else { return }
    let limit = now.addingTimeInterval(policy.maximumAge)
    let expiry = min(expiresAt ?? limit, limit)
    guard expiry > now else { return }
    let key = Self.key(token)
    if entries.updateValue(Entry(identity: identity, expiresAt: expiry), forKey: key) == nil {
      order.append(key)
    }
    guard entries.count > policy.maximumEntries else { return }
    // Drop expired entries first, then the oldest until within bounds.
    order.removeAll { key in
      guard let entry = entries[key] else { return true }
      if entry.expiresAt <= now {
        entries[key] = nil
        return true
      }
      return false
    }
    while entries.count > policy.maximumEntries, !order.isEmpty {
      entries[order.removeFirst()] = nil
    }
  }

  /// Forgets `token`.
  mutating func remove(_ token: Secret) {
    let key = Self.key(token)
    if entries.removeValue(forKey: key) != nil { order.removeAll { $0 == key } }
  }
}
