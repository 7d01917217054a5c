import SocialLogin
import SocialLoginCrypto

/// The key names of one store, under its prefix.
///
/// Every key of one session shares one `{tag}`, so Redis Cluster puts them in one hash slot and
/// the scripts that touch several of them stay legal there. The tag is the first 128 bits of
/// the SHA-256 of the length-prefixed provider and subject, in hex: fixed length, no raw user
/// text in key names, and no way for one subject to spell another's key.
///
/// - `<prefix>:{<tag>}:s` — the session hash: `v` (version), `d` (the JSON record) or, after a
///   delete, only `dv` (the deleted version, so versions never go back).
/// - `<prefix>:{<tag>}:l` — the refresh lease (owner token, with a time to live).
/// - `<prefix>:{<tag>}:corrupt:<unix time>-<random>` — a record set aside as unreadable.
/// - `<prefix>:providers`, `<prefix>:index:<provider>` — sets for listing.
/// - `<prefix>:pending:{<sha256 of state>}` and `...:claim` — pending logins.
/// - channel `<prefix>:lease-released` — one message (the tag) per released lease and per
///   written session.
struct RedisKeys: Sendable {
  let prefix: String

  static func tag(for key: SessionKey) -> String {
    HexEncoding.lowercase(key.digest.prefix(16))
  }

  func session(tag: String) -> String { "\(prefix):{\(tag)}:s" }
  func lease(tag: String) -> String { "\(prefix):{\(tag)}:l" }
  func spendClaim(tag: String) -> String { "\(prefix):{\(tag)}:c" }
  func corrupt(tag: String, suffix: String) -> String { "\(prefix):{\(tag)}:corrupt:\(suffix)" }
  var providers: String { "\(prefix):providers" }
  func index(provider: ProviderID) -> String { "\(prefix):index:\(provider.rawValue)" }
  var leaseChannel: String { "\(prefix):lease-released" }
  func pending(digest: String) -> String { "\(prefix):pending:{\(digest)}" }
  func pendingClaim(digest: String) -> String { "\(prefix):pending:{\(digest)}:claim" }
  func nonce(digest: String) -> String { "\(prefix):nonce:{\(digest)}" }
}
