/// A store that links session keys to accounts of your service: several provider identities
/// (a LINE login, a Facebook login, a Firebase user) under one ``AccountID``.
///
/// Links are records of their own, apart from sessions: a link survives its session signing
/// out and the user signing in again with the same provider account, so the service finds
/// the same account at the next login. A shared store (Redis) keeps them where every replica
/// sees them, sealed like its sessions.
///
/// Linking is always explicit. Nothing in the SDK links by matching e-mail addresses: a
/// provider that lets users set an unverified address would let anyone who registers the
/// victim's address take over the victim's account (the account takeover that Auth.js
/// refuses with `OAuthAccountNotLinked` unless `allowDangerousEmailAccountLinking` is set).
/// A service that wants it decides itself, from verified e-mails only, and calls ``link(_:to:)``.
///
/// ```swift
/// let account = try AccountID(user.id)
/// try await store.link(session.key, to: account)
/// let keys = try await store.sessionKeys(of: account)  // sorted
/// ```
public protocol AccountLinkStore: Sendable {
  /// Links `key` to `account`. Linking a key to the account it is already linked to does
  /// nothing.
  ///
  /// - Throws: ``AuthError/Code/accountLinkConflict`` when `key` is linked to another account
  ///   (unlink it first: moving an identity between accounts is a decision, never a side
  ///   effect); ``AuthError/Code/accountLinkLimitReached`` when `account` already holds
  ///   ``AccountID/maximumLinks`` keys; store errors.
  func link(_ key: SessionKey, to account: AccountID) async throws

  /// Removes `key`'s link and returns the account it was linked to, or `nil` when it was not
  /// linked. The session itself is untouched.
  func unlink(_ key: SessionKey) async throws -> AccountID?

  /// The account `key` is linked to, or `nil`.
  func account(of key: SessionKey) async throws -> AccountID?

  /// The keys linked to `account`, sorted, whether or not their sessions are signed in.
  func sessionKeys(of account: AccountID) async throws -> [SessionKey]
}

extension AuthError.Code {
  /// A session key is already linked to another account than the one asked for (the message
  /// names the key and both accounts, never a token). Unlink it first if moving the identity
  /// is what the service means to do. Do not show the message to end users: it names another
  /// account.
  public static let accountLinkConflict = AuthError.Code(rawValue: "account_link_conflict")

  /// An account already holds ``AccountID/maximumLinks`` session keys.
  public static let accountLinkLimitReached = AuthError.Code(
    rawValue: "account_link_limit_reached")
}

extension AuthError {
  /// `key` is linked to `linked`, not `requested`.
  package static func accountLinkConflict(
    key: SessionKey, linked: AccountID, requested: AccountID
  ) -> AuthError {
    AuthError(
      .accountLinkConflict,
      "Session \(key) is linked to account \"\(linked)\", not \"\(requested)\"; unlink it "
        + "first to move it.",
      provider: key.provider)
  }

  /// `account` is full.
  package static func accountLinkLimitReached(_ account: AccountID, key: SessionKey) -> AuthError {
    AuthError(
      .accountLinkLimitReached,
      "Account \"\(account)\" already holds \(AccountID.maximumLinks) linked sessions; "
        + "unlink one before linking \(key).",
      provider: key.provider)
  }
}
