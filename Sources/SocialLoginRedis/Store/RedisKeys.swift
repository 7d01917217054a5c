import SocialLogin
import SocialLoginCrypto

/// The key names of one store, under its prefix.
///
/// Every key of one session shares one `{tag}`, so Redis Cluster puts them in one hash slot and
/// the scripts that touch several of them stay legal there. The tag is the first 128 bits of
/// the SHA-256 of the length-prefixed provider and subject, in hex: fixed length, no raw user
/// text in key names, and no way for one subject to spell another's key.
///
/// - `<prefix>:{<tag>}:s` — the session hash: `v` (version), `d` (the sealed record) or, after
///   a delete, `dv` (the deleted version, so versions never go back) and `dr` (the sealed
///   ``RedisDeletionNotice``: whose session, and why it ended).
/// - `<prefix>:{<tag>}:l` — the refresh lease (owner token, with a time to live).
/// - `<prefix>:{<tag>}:c` — the spend claim on the session's refresh token (store and owner).
/// - `<prefix>:{<tag>}:i` — the leader's intent to spend (store and owner, a digest of the
///   refresh token, the time), left for the next leader when it never saved or released.
/// - `<prefix>:{<tag>}:corrupt:<unix time>-<random>` — a record set aside as unreadable.
/// - `<prefix>:providers`, `<prefix>:index:<provider>` — sets for listing.
/// - `<prefix>:pending:{<sha256 of state>}` and `...:claim` — pending logins (sealed).
/// - `<prefix>:nonce:{<sha256 of nonce>}` — nonces kept for single use (the value is `1`).
/// - `<prefix>:link:{<tag>}` — the account a session key is linked to (sealed; authoritative).
/// - `<prefix>:account:{<account tag>}` — an account's index: a hash whose fields are the tags
///   of its linked keys and whose values are the sealed keys (only trusted when the key's
///   link names the account).
/// - channel `<prefix>:hints` — one fixed-size hint per released lease, written session and
///   deleted session (``RedisStoreMessage``): tag, version and kind, nothing else.
struct RedisKeys: Sendable {
  let prefix: String

  /// The length of every tag: 32 lowercase hex characters.
  static let tagLength = 32

  static func tag(for key: SessionKey) -> String {
    HexEncoding.lowercase(key.digest.prefix(16))
  }

  func session(tag: String) -> String { "\(prefix):{\(tag)}:s" }
  func lease(tag: String) -> String { "\(prefix):{\(tag)}:l" }
  func spendClaim(tag: String) -> String { "\(prefix):{\(tag)}:c" }
  func spendIntent(tag: String) -> String { "\(prefix):{\(tag)}:i" }
  func corrupt(tag: String, suffix: String) -> String { "\(prefix):{\(tag)}:corrupt:\(suffix)" }
  var providers: String { "\(prefix):providers" }
  func index(provider: ProviderID) -> String { "\(prefix):index:\(provider.rawValue)" }
  /// The channel of the store's hints (``RedisStoreMessage``).
  var hintChannel: String { "\(prefix):hints" }
  func pending(digest: String) -> String { "\(prefix):pending:{\(digest)}" }
  func pendingClaim(digest: String) -> String { "\(prefix):pending:{\(digest)}:claim" }
  func nonce(digest: String) -> String { "\(prefix):nonce:{\(digest)}" }
  func link(tag: String) -> String { "\(prefix):link:{\(tag)}" }
  func account(tag: String) -> String { "\(prefix):account:{\(tag)}" }

  /// An account's tag: the first 128 bits of the SHA-256 of its id, in hex (like a session's).
  static func tag(for account: AccountID) -> String {
    HexEncoding.lowercase(account.digest.prefix(16))
  }

  /// What a link's seal is bound to: its key name, so a link copied to another session's key
  /// does not open.
  func linkContext(tag: String) -> [UInt8] {
    Array("sociallogin-link\u{0}\(link(tag: tag))".utf8)
  }

  /// What an account index entry's seal is bound to: the index's key name and the field.
  func accountEntryContext(accountTag: String, field: String) -> [UInt8] {
    Array("sociallogin-account\u{0}\(account(tag: accountTag))\u{0}\(field)".utf8)
  }

  /// What a session record's seal is bound to: its key name and version, so a value copied to
  /// another session's key, or written back at another version, fails to open.
  func recordContext(tag: String, version: UInt64) -> [UInt8] {
    Array("sociallogin-session\u{0}\(session(tag: tag))\u{0}\(version)".utf8)
  }

  /// What a tombstone's notice is bound to: the session's key name and the deleted version.
  func tombstoneContext(tag: String, version: UInt64) -> [UInt8] {
    Array("sociallogin-tombstone\u{0}\(session(tag: tag))\u{0}\(version)".utf8)
  }

  /// What a pending login's seal is bound to: its key name.
  func pendingContext(digest: String) -> [UInt8] {
    Array("sociallogin-pending\u{0}\(pending(digest: digest))".utf8)
  }
}
