import Foundation
import SocialLogin

/// Account links in Redis, sealed like sessions and visible to every replica.
///
/// - `<prefix>:link:{<session tag>}` — the key's account, sealed and bound to this key name.
///   It is the truth: a key belongs to an account only if its link opens and names it.
/// - `<prefix>:account:{<account tag>}` — the account's index, a hash: field = the session's
///   tag, value = the sealed session key, bound to the index's name and the field.
///
/// On a cluster the two live in different hash slots, so no step changes both at once. A
/// link is written before its index entry and deleted before it; a read of an account opens
/// each index entry and keeps it only if the key's own link opens and names the account. A
/// crash between the two steps, a copied or planted entry, or garbage in either place can
/// therefore hide a key or leave a stale entry (pruned when the account is full), but never
/// put a key under an account it is not linked to, and so never signs out someone else.
/// One link costs one small string and one hash field.
extension RedisSessionStore: AccountLinkStore {
  /// Links `key` to `account` (see `AccountLinkStore.link(_:to:)`).
  ///
  /// - Throws: `accountLinkConflict`, `accountLinkLimitReached`; `storageTampered` or
  ///   `storageSealedWithUnknownKey` when the key's current link does not open (it is left
  ///   as it is); `storageCorrupt` when it opens but names no valid account;
  ///   `storageFailed` when Redis fails.
  public func link(_ key: SessionKey, to account: AccountID) async throws {
    let tag = RedisKeys.tag(for: key)
    let linkKey = keys.link(tag: tag)
    let sealedLink = sealing.seal(
      Array(account.rawValue.utf8), context: keys.linkContext(tag: tag))
    for _ in 0..<3 {
      if let linked = try await readLink(tag: tag, key: key) {
        guard linked.account == account else {
          throw AuthError.accountLinkConflict(key: key, linked: linked.account, requested: account)
        }
        // Linked already; make sure the index lists it (a crash may have skipped it).
        _ = try await addIndexEntry(key, tag: tag, account: account)
        return
      }
      try await makeRoom(in: account, for: key)
      let set: RESPValue
      do {
        set = try await client.send(
          RedisCommand(
            arguments: [Array("SET".utf8), Array(linkKey.utf8), sealedLink] + [
              Array("NX".utf8)
            ]))
      } catch {
        throw Self.storeError(error, "linking a session", key: key)
      }
      guard !set.isNull else { continue }  // linked meanwhile: look again
      guard try await addIndexEntry(key, tag: tag, account: account) else {
        // Filled meanwhile: take the link back, unless it changed since.
        _ = try? await client.evaluate(
          RedisScripts.deleteIfValue, keys: [linkKey], arguments: [sealedLink])
        throw AuthError.accountLinkLimitReached(account, key: key)
      }
      return
    }
    throw AuthError(
      .storageConflict, "Linking \(key) raced with other links; try again.",
      provider: key.provider)
  }

  /// Removes `key`'s link and returns its account (`nil`: none). A link that does not open is
  /// left in place and throws, as `account(of:)` does.
  public func unlink(_ key: SessionKey) async throws -> AccountID? {
    let tag = RedisKeys.tag(for: key)
    for _ in 0..<3 {
      guard let linked = try await readLink(tag: tag, key: key) else { return nil }
      let deleted: RESPValue
      do {
        deleted = try await client.evaluate(
          RedisScripts.deleteIfValue, keys: [keys.link(tag: tag)], arguments: [linked.stored])
      } catch {
        throw Self.storeError(error, "unlinking a session", key: key)
      }
      guard deleted.integer == 1 else { continue }  // changed meanwhile
      do {
        try await client.send(
          RedisCommand([
            "HDEL", keys.account(tag: RedisKeys.tag(for: linked.account)), tag,
          ]))
      } catch {
        // The link is gone, which is what counts; the entry is ignored from now on.
      }
      return linked.account
    }
    throw AuthError(
      .storageConflict, "Unlinking \(key) raced with other links; try again.",
      provider: key.provider)
  }

  /// The account `key` is linked to, or `nil`.
  ///
  /// - Throws: `storageTampered` or `storageSealedWithUnknownKey` when its link does not open;
  ///   `storageCorrupt` when it names no valid account; `storageFailed`.
  public func account(of key: SessionKey) async throws -> AccountID? {
    try await readLink(tag: RedisKeys.tag(for: key), key: key)?.account
  }

  /// The keys linked to `account`, sorted: the index entries that open, name the session of
  /// their field, and whose session's link opens and names `account`. Anything else in the
  /// index (stale, planted, copied, garbage) is ignored.
  public func sessionKeys(of account: AccountID) async throws -> [SessionKey] {
    try await authenticEntries(of: account).authentic.map(\.key).sorted()
  }

  // MARK: - Reading

  /// A link as read: the account and the stored bytes (for compare-and-delete).
  struct StoredLink {
    var account: AccountID
    var stored: [UInt8]
  }

  /// An index entry as read.
  struct IndexEntry {
    var field: String
    var stored: [UInt8]
    var key: SessionKey
  }

  func readLink(tag: String, key: SessionKey) async throws -> StoredLink? {
    let linkKey = keys.link(tag: tag)
    let reply: RESPValue
    do {
      reply = try await client.send(RedisCommand(["GET", linkKey]))
    } catch {
      throw Self.storeError(error, "reading a session's account link", key: key)
    }
    guard let stored = reply.bytes else { return nil }
    return try openLink(stored, tag: tag, location: linkKey, provider: key.provider)
  }

  func openLink(_ stored: [UInt8], tag: String, location: String, provider: ProviderID?)
    throws(AuthError) -> StoredLink
  {
    let opened: [UInt8]
    do {
      opened = try sealing.open(stored, context: keys.linkContext(tag: tag)).bytes
    } catch {
      throw AuthError(sealing: error, location: location, provider: provider)
    }
    guard let text = String(validating: opened, as: UTF8.self),
      let account = try? AccountID(text)
    else {
      throw AuthError(
        .storageCorrupt, "Redis session store: \(location) holds no valid account id.",
        provider: provider)
    }
    return StoredLink(account: account, stored: stored)
  }

  /// The index entries of `account` that open and whose link names it, and those that do not.
  func authenticEntries(of account: AccountID) async throws
    -> (authentic: [IndexEntry], stale: [(field: String, stored: [UInt8])])
  {
    let accountTag = RedisKeys.tag(for: account)
    let reply: RESPValue
    do {
      reply = try await client.send(RedisCommand(["HGETALL", keys.account(tag: accountTag)]))
    } catch {
      throw Self.storeError(error, "reading an account's links")
    }
    var candidates: [IndexEntry] = []
    var stale: [(field: String, stored: [UInt8])] = []
    for (fieldBytes, stored) in Self.pairs(reply) {
      let field = String(decoding: fieldBytes, as: UTF8.self)
      guard
        let opened = try? sealing.open(
          stored, context: keys.accountEntryContext(accountTag: accountTag, field: field)),
        let key = try? JSONDecoder().decode(SessionKey.self, from: Data(opened.bytes)),
        RedisKeys.tag(for: key) == field
      else {
        stale.append((field, stored))
        continue
      }
      candidates.append(IndexEntry(field: field, stored: stored, key: key))
    }
    guard !candidates.isEmpty else { return ([], stale) }
    let links: [RESPValue]
    do {
      links = try await client.pipeline(
        candidates.map { RedisCommand(["GET", keys.link(tag: $0.field)]) })
    } catch {
      throw Self.storeError(error, "reading an account's links")
    }
    var authentic: [IndexEntry] = []
    for (entry, link) in zip(candidates, links) {
      if let stored = link.bytes,
        let linked = try? openLink(
          stored, tag: entry.field, location: "", provider: entry.key.provider),
        linked.account == account
      {
        authentic.append(entry)
      } else if case .error = link {
        throw AuthError(
          .storageFailed, "Redis session store: reading an account's links failed.",
          provider: entry.key.provider)
      } else {
        stale.append((entry.field, entry.stored))
      }
    }
    return (authentic, stale)
  }

  /// The field/value pairs of an `HGETALL` reply (RESP2 array or RESP3 map); anything that is
  /// not a byte string is skipped.
  static func pairs(_ reply: RESPValue) -> [([UInt8], [UInt8])] {
    var result: [([UInt8], [UInt8])] = []
    if case .map(let pairs) = reply {
      for pair in pairs {
        if let field = pair.key.bytes, let value = pair.value.bytes {
          result.append((field, value))
        }
      }
      return result
    }
    let flat = reply.elements ?? []
    var index = 0
    while index + 1 < flat.count {
      if let field = flat[index].bytes, let value = flat[index + 1].bytes {
        result.append((field, value))
      }
      index += 2
    }
    return result
  }

  // MARK: - Writing

  /// Adds `key`'s entry to `account`'s index unless it is full; returns whether it is there.
  func addIndexEntry(_ key: SessionKey, tag: String, account: AccountID) async throws -> Bool {
    let accountTag = RedisKeys.tag(for: account)
    let json: [UInt8]
    do {
      json = Array(try JSONEncoder().encode(key))
    } catch {
      throw AuthError(
        .storageFailed, "Redis session store: a session key could not be encoded.",
        provider: key.provider)
    }
    let sealed = sealing.seal(
      json, context: keys.accountEntryContext(accountTag: accountTag, field: tag))
    do {
      let reply = try await client.evaluate(
        RedisScripts.addIndexEntry, keys: [keys.account(tag: accountTag)],
        arguments: [Array(tag.utf8), sealed, Array(String(AccountID.maximumLinks).utf8)])
      return reply.integer == 1
    } catch {
      throw Self.storeError(error, "linking a session", key: key)
    }
  }

  /// Throws `accountLinkLimitReached` when `account` holds its maximum of authentic links;
  /// when the index is full only of stale entries, removes those (each only if unchanged).
  func makeRoom(in account: AccountID, for key: SessionKey) async throws {
    let indexKey = keys.account(tag: RedisKeys.tag(for: account))
    let count: Int64
    do {
      count = try await client.send(RedisCommand(["HLEN", indexKey])).integer ?? 0
    } catch {
      throw Self.storeError(error, "linking a session", key: key)
    }
    guard count >= AccountID.maximumLinks else { return }
    let entries = try await authenticEntries(of: account)
    guard entries.authentic.count < AccountID.maximumLinks else {
      throw AuthError.accountLinkLimitReached(account, key: key)
    }
    for entry in entries.stale {
      _ = try? await client.evaluate(
        RedisScripts.removeIndexEntryIfValue, keys: [indexKey],
        arguments: [Array(entry.field.utf8), entry.stored])
    }
  }
}
