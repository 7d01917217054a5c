import Foundation
import SocialLogin

/// The behaviour every `AccountLinkStore` must share (explicit links, conflicts, the bound
/// per account, links that outlive sessions), written once and run by each store's tests: in
/// memory, files, Redis, or your own store.
///
/// ```swift
/// @Test(arguments: AccountLinkStoreContract.allCases)
/// func myStoreKeepsTheLinkContract(check: AccountLinkStoreContract) async throws {
///   try await check.run(on: MyStore(fresh: true))
/// }
/// ```
///
/// Each check needs a fresh, empty store and throws ``ContractViolation`` on the first broken
/// promise.
public enum AccountLinkStoreContract: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Keys of several providers link to one account, list sorted, and name their account.
  case linksListSortedAndNameTheirAccount
  /// Linking a key again to its own account changes nothing.
  case relinkingToTheSameAccountIsANoOp
  /// A key linked to one account cannot be linked to another (`accountLinkConflict`, naming
  /// both); after `unlink` it can.
  case linkingToAnotherAccountConflictsUntilUnlinked
  /// `unlink` returns the account, or `nil` for a key that had none, and the key leaves the
  /// account's list.
  case unlinkReturnsTheAccountAndRemovesTheKey
  /// An account holds at most `AccountID.maximumLinks` keys (`accountLinkLimitReached`).
  case anAccountHoldsABoundedNumberOfLinks
  /// A link is not a session: saving and deleting the session leaves it alone.
  case linksOutliveTheirSessions
  /// Ids differing only in Unicode normalization are two accounts.
  case accountsCompareByBytes

  /// The check's name.
  public var description: String { rawValue }

  /// Runs the check against `store`, which must be empty (of links and sessions).
  ///
  /// - Throws: ``ContractViolation`` when the store breaks the contract, or what the store
  ///   threw where it should not have.
  public func run(on store: any AccountLinkStore) async throws {
    let ada = try AccountID("ada")
    let bob = try AccountID("bob")
    let line = SessionKey(provider: .line, subject: "U1")
    let facebook = SessionKey(provider: .facebook, subject: "10")
    let firebase = SessionKey(provider: "firebase", subject: "uid-1")
    switch self {
    case .linksListSortedAndNameTheirAccount:
      for key in [line, firebase, facebook] { try await store.link(key, to: ada) }
      try await store.link(SessionKey(provider: .line, subject: "U2"), to: bob)
      try check(
        try await store.sessionKeys(of: ada) == [line, firebase, facebook].sorted(),
        "the account lists its keys, sorted")
      try check(try await store.account(of: facebook) == ada, "a key names its account")
      try check(
        try await store.account(of: SessionKey(provider: .line, subject: "U3")) == nil,
        "an unlinked key has no account")
      try check(
        try await store.sessionKeys(of: try AccountID("nobody")).isEmpty,
        "an unknown account has no keys")

    case .relinkingToTheSameAccountIsANoOp:
      try await store.link(line, to: ada)
      try await store.link(line, to: ada)
      try check(try await store.sessionKeys(of: ada) == [line], "one key, listed once")

    case .linkingToAnotherAccountConflictsUntilUnlinked:
      try await store.link(line, to: ada)
      do {
        try await store.link(line, to: bob)
        throw ContractViolation("\(rawValue): linking to another account must fail")
      } catch let error as AuthError where error.code == .accountLinkConflict {
        try check(
          error.message.contains("\"ada\"") && error.message.contains("\"bob\""),
          "the conflict names both accounts")
      }
      try check(try await store.account(of: line) == ada, "the conflict changed nothing")
      try check(try await store.sessionKeys(of: bob).isEmpty, "bob got nothing")
      _ = try await store.unlink(line)
      try await store.link(line, to: bob)
      try check(try await store.account(of: line) == bob, "after unlink the key can move")

    case .unlinkReturnsTheAccountAndRemovesTheKey:
      try await store.link(line, to: ada)
      try await store.link(facebook, to: ada)
      try check(try await store.unlink(line) == ada, "unlink returns the account")
      try check(try await store.unlink(line) == nil, "a second unlink returns nil")
      try check(try await store.account(of: line) == nil, "the key has no account")
      try check(try await store.sessionKeys(of: ada) == [facebook], "the key left the list")
      try check(try await store.unlink(facebook) == ada, "the last key unlinks")
      try check(try await store.sessionKeys(of: ada).isEmpty, "the account is empty")

    case .anAccountHoldsABoundedNumberOfLinks:
      let limit = AccountID.maximumLinks
      for index in 0..<limit {
        try await store.link(SessionKey(provider: .line, subject: "U\(index)"), to: ada)
      }
      let extra = SessionKey(provider: .line, subject: "U-extra")
      do {
        try await store.link(extra, to: ada)
        throw ContractViolation("\(rawValue): link number \(limit + 1) must fail")
      } catch let error as AuthError where error.code == .accountLinkLimitReached {}
      try check(try await store.account(of: extra) == nil, "the refused key is not linked")
      try check(try await store.sessionKeys(of: ada).count == limit, "the account is full")
      try await store.link(SessionKey(provider: .line, subject: "U0"), to: ada)
      _ = try await store.unlink(SessionKey(provider: .line, subject: "U0"))
      try await store.link(extra, to: ada)
      try check(try await store.account(of: extra) == ada, "an unlink makes room")

    case .linksOutliveTheirSessions:
      try await store.link(line, to: ada)
      if let sessions = store as? any SessionStore {
        let session = SessionStoreContract.sampleSession("U1", provider: .line)
        let saved = try await sessions.save(session, expectedVersion: nil)
        _ = try await sessions.delete(line, ifVersion: saved.version, reason: .userInitiated)
        _ = try await sessions.save(session, expectedVersion: nil)
        try await sessions.delete(line)
      }
      try check(try await store.account(of: line) == ada, "the link survived the sign-out")
      try check(try await store.sessionKeys(of: ada) == [line], "the account still lists it")

    case .accountsCompareByBytes:
      let composed = try AccountID("\u{E9}")
      let decomposed = try AccountID("e\u{301}")
      try await store.link(line, to: composed)
      try await store.link(facebook, to: decomposed)
      try check(try await store.sessionKeys(of: composed) == [line], "composed holds its own")
      try check(try await store.account(of: facebook) == decomposed, "decomposed is its own")
    }
  }

  private func check(_ condition: Bool, _ promise: String) throws {
    if !condition { throw ContractViolation("\(rawValue): \(promise)") }
  }
}
