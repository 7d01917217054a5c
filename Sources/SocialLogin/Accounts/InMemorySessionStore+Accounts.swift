extension InMemorySessionStore: AccountLinkStore {
  /// Links `key` to `account` in this store (see ``AccountLinkStore/link(_:to:)``).
  public func link(_ key: SessionKey, to account: AccountID) async throws {
    try accountLinks.withLock { try $0.link(key, to: account) }
  }

  /// Removes `key`'s link; returns the account it had.
  public func unlink(_ key: SessionKey) async throws -> AccountID? {
    accountLinks.withLock { $0.unlink(key) }
  }

  /// The account `key` is linked to, or `nil`.
  public func account(of key: SessionKey) async throws -> AccountID? {
    accountLinks.withLock { $0.account(of: key) }
  }

  /// The keys linked to `account`, sorted.
  public func sessionKeys(of account: AccountID) async throws -> [SessionKey] {
    accountLinks.withLock { $0.sessionKeys(of: account) }
  }
}
