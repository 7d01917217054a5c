import Foundation
import SocialLoginCrypto

/// What a link file (`<stem>.link`) holds once opened: the key it belongs to and its account.
struct FileAccountLink: Codable {
  var format: Int
  var key: SessionKey
  var account: AccountID
}

/// What an account's index file (`_account_<sha256>.links`) holds once opened.
struct FileAccountIndex: Codable {
  var format: Int
  var account: AccountID
  var keys: [SessionKey]
}

/// Account links in the session directory, beside the session files and sealed like them.
///
/// - `<stem>.link` — the key's link (authoritative): the key and its account.
/// - `_account_<sha256 of the account id>.links` — the account's index: its keys.
/// - `accounts.lock` — the `flock(2)` every link and unlink holds, so two processes never
///   interleave their two writes.
///
/// A link is written before the index entry and removed before it, and a read of an account
/// keeps only the index entries whose link names that account: a crash between the two
/// writes, or a file copied from another account, never puts a key under the wrong account.
/// None of these names ends in `.json`, so listing sessions never reads them.
extension FileSessionStore: AccountLinkStore {
  static let accountLinkFormat = 1

  /// Links `key` to `account` (see ``AccountLinkStore/link(_:to:)``).
  ///
  /// - Throws: As the protocol; ``AuthError/Code/storageTampered`` or
  ///   ``AuthError/Code/storageSealedWithUnknownKey`` when the key's link file or the
  ///   account's index cannot be opened (left untouched); ``AuthError/Code/storageCorrupt``
  ///   when one cannot be decoded; ``AuthError/Code/storageFailed`` when writing fails.
  public func link(_ key: SessionKey, to account: AccountID) async throws {
    try await perform {
      try self.withAccountsLock { () throws(AuthError) in
        if let linked = try self.readLink(key) {
          guard linked == account else {
            throw AuthError.accountLinkConflict(key: key, linked: linked, requested: account)
          }
          return
        }
        var keys = try self.readIndex(account).filter { $0 != key }
        if keys.count >= AccountID.maximumLinks {
          // Entries a crash left without their link do not count.
          var authentic: [SessionKey] = []
          for linked in keys where try self.readAuthenticLink(linked) == account {
            authentic.append(linked)
          }
          keys = authentic
          guard keys.count < AccountID.maximumLinks else {
            throw AuthError.accountLinkLimitReached(account, key: key)
          }
        }
        try self.write(
          FileAccountLink(format: Self.accountLinkFormat, key: key, account: account),
          fileName: Self.linkFileName(key))
        try self.writeIndex(account, keys: keys + [key])
      }
    }
  }

  /// Removes `key`'s link and returns its account, or `nil` when it had none. A link file that
  /// opens but cannot be decoded is removed (and `nil` returned), so a damaged link never
  /// blocks relinking; one that does not open is left in place and throws.
  public func unlink(_ key: SessionKey) async throws -> AccountID? {
    try await perform {
      try self.withAccountsLock { () throws(AuthError) -> AccountID? in
        let account: AccountID?
        do throws(AuthError) {
          account = try self.readLink(key)
        } catch  where error.code == .storageCorrupt {
          account = nil
        }
        if try POSIXFile.remove(self.path(Self.linkFileName(key))) {
          try POSIXFile.syncDirectory(self.directoryPath)
        }
        guard let account else { return nil }
        let keys = try self.readIndex(account)
        try self.writeIndex(account, keys: keys.filter { $0 != key })
        return account
      }
    }
  }

  /// The account `key` is linked to, or `nil`.
  ///
  /// - Throws: ``AuthError/Code/storageTampered``,
  ///   ``AuthError/Code/storageSealedWithUnknownKey`` or ``AuthError/Code/storageCorrupt`` for
  ///   a link file that cannot be opened or decoded; ``AuthError/Code/storageFailed``.
  public func account(of key: SessionKey) async throws -> AccountID? {
    try await perform { try self.readLink(key) }
  }

  /// The keys linked to `account`, sorted: the index's entries whose own link opens and names
  /// `account` (others are ignored, never reported as this account's).
  public func sessionKeys(of account: AccountID) async throws -> [SessionKey] {
    try await perform {
      var keys: [SessionKey] = []
      for key in try self.readIndex(account) where try self.readAuthenticLink(key) == account {
        keys.append(key)
      }
      return keys.sorted()
    }
  }

  // MARK: - Files

  static func linkFileName(_ key: SessionKey) -> String { stem(for: key) + ".link" }

  static func indexFileName(_ account: AccountID) -> String {
    "_account_" + HexEncoding.lowercase(account.digest) + ".links"
  }

  /// Runs `body` holding `accounts.lock`.
  func withAccountsLock<T>(_ body: () throws(AuthError) -> T) throws(AuthError) -> T {
    let fd = try PrivateFiles.openLocked(path("accounts.lock"))
    defer { POSIXFile.closeFile(fd) }
    return try body()
  }

  /// The account in `key`'s link file, or `nil` when there is none.
  func readLink(_ key: SessionKey) throws(AuthError) -> AccountID? {
    let fileName = Self.linkFileName(key)
    guard let link = try read(FileAccountLink.self, fileName: fileName) else { return nil }
    guard link.format == Self.accountLinkFormat, link.key == key else {
      throw AuthError(
        .storageCorrupt, "Session store: \(path(fileName)) holds another session's link.")
    }
    return link.account
  }

  /// ``readLink(_:)``, with a link that cannot be opened or decoded counting as none: for
  /// checking an index entry, where only an authentic link may count.
  func readAuthenticLink(_ key: SessionKey) throws(AuthError) -> AccountID? {
    do throws(AuthError) {
      return try readLink(key)
    } catch
      where [.storageCorrupt, .storageTampered, .storageSealedWithUnknownKey].contains(error.code)
    {
      return nil
    }
  }

  /// The keys in `account`'s index (none without one).
  func readIndex(_ account: AccountID) throws(AuthError) -> [SessionKey] {
    let fileName = Self.indexFileName(account)
    guard let index = try read(FileAccountIndex.self, fileName: fileName) else { return [] }
    guard index.format == Self.accountLinkFormat, index.account == account else {
      throw AuthError(
        .storageCorrupt, "Session store: \(path(fileName)) holds another account's index.")
    }
    return index.keys
  }

  /// Writes `account`'s index (sorted, without repeats), or removes it when `keys` is empty.
  func writeIndex(_ account: AccountID, keys: [SessionKey]) throws(AuthError) {
    let fileName = Self.indexFileName(account)
    guard !keys.isEmpty else {
      if try POSIXFile.remove(path(fileName)) { try POSIXFile.syncDirectory(directoryPath) }
      return
    }
    try write(
      FileAccountIndex(
        format: Self.accountLinkFormat, account: account, keys: Set(keys).sorted()),
      fileName: fileName)
  }

  /// Encodes, seals (bound to `fileName`) and atomically writes `value`.
  func write<Value: Encodable>(_ value: Value, fileName: String) throws(AuthError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json: Data
    do {
      json = try encoder.encode(value)
    } catch {
      throw AuthError(.storageFailed, "Session store: an account link could not be encoded.")
    }
    let context = Self.accountsContext(fileName: fileName)
    try PrivateFiles.write(Data(sealing.seal(Array(json), context: context)), to: path(fileName))
  }

  /// Reads, opens and decodes `fileName`; `nil` when there is no such file.
  func read<Value: Decodable>(_ type: Value.Type, fileName: String) throws(AuthError) -> Value? {
    let location = path(fileName)
    guard let data = try PrivateFiles.read(location, limit: Self.maximumFileSize) else {
      return nil
    }
    let opened: [UInt8]
    do {
      opened = try sealing.open(Array(data), context: Self.accountsContext(fileName: fileName))
        .bytes
    } catch {
      throw AuthError(sealing: error, location: location)
    }
    guard let value = try? JSONDecoder().decode(Value.self, from: Data(opened)) else {
      throw AuthError(.storageCorrupt, "Session store: \(location) cannot be decoded.")
    }
    return value
  }

  /// What a sealed link or index file is bound to: `"sociallogin-file-account\0"` and its
  /// name, so neither can be copied over another (or over a session file) and still open.
  static func accountsContext(fileName: String) -> [UInt8] {
    Array("sociallogin-file-account\u{0}\(fileName)".utf8)
  }
}
