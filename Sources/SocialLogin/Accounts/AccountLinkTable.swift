/// The links of an in-process store: both directions, changed together under one lock.
struct AccountLinkTable: Sendable {
  private var accounts: [SessionKey: AccountID] = [:]
  private var keys: [AccountID: Set<SessionKey>] = [:]

  /// See ``AccountLinkStore/link(_:to:)``.
  mutating func link(_ key: SessionKey, to account: AccountID) throws(AuthError) {
    if let linked = accounts[key] {
      guard linked == account else {
        throw AuthError.accountLinkConflict(key: key, linked: linked, requested: account)
      }
      return
    }
    guard keys[account, default: []].count < AccountID.maximumLinks else {
      throw AuthError.accountLinkLimitReached(account, key: key)
    }
    accounts[key] = account
    keys[account, default: []].insert(key)
  }

  /// See ``AccountLinkStore/unlink(_:)``.
  mutating func unlink(_ key: SessionKey) -> AccountID? {
    guard let account = accounts.removeValue(forKey: key) else { return nil }
    keys[account]?.remove(key)
    if keys[account]?.isEmpty == true { keys[account] = nil }
    return account
  }

  func account(of key: SessionKey) -> AccountID? { accounts[key] }

  func sessionKeys(of account: AccountID) -> [SessionKey] {
    (keys[account] ?? []).sorted()
  }
}
