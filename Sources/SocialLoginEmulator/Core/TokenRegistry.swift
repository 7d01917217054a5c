import Foundation
import SocialLogin
import SocialLoginCrypto

/// Something an emulated provider issued: a code, an access or refresh token, an OAuth 1.0a
/// request or access token.
struct IssuedToken: Sendable, Hashable {
  enum Kind: String, Sendable, Hashable {
    case code, access, refresh, requestToken, oauth1Access, idToken
  }

  var value: String
  var kind: Kind
  var provider: ProviderID
  var clientID: String
  /// The user's emulator id; empty for a request token not yet authorized or an app token.
  var userID: String
  var scopes: [String]
  var issuedAt: Date
  var expiresAt: Date?
  /// Tokens of one grant (login) share it; revoking the grant kills them all.
  var grantID: String
  var revoked = false
  /// Codes and rotated refresh tokens are spent once used.
  var spent = false
  /// Provider-specific facts: `redirect_uri`, `code_challenge`, `nonce`, OAuth 1.0a `secret`.
  var extra: [String: String] = [:]

  func isLive(at now: Date) -> Bool {
    !revoked && !spent && (expiresAt.map { now < $0 } ?? true)
  }
}

/// Every code and token the emulator issued, shared by all providers (so the Firebase helper
/// can check an IdP token, and controls can revoke a user's grants everywhere).
final class TokenRegistry: Sendable {
  private let tokens = Locked([String: IssuedToken]())

  /// A fresh random token value with a readable prefix.
  static func makeValue(prefix: String, byteCount: Int = 24) -> String {
    prefix + SecureRandom.urlSafeToken(byteCount: byteCount)
  }

  static func makeGrantID() -> String { SecureRandom.urlSafeToken(byteCount: 9) }

  func insert(_ token: IssuedToken) {
    tokens.withLock { $0[token.value] = token }
  }

  func lookup(_ value: String) -> IssuedToken? {
    tokens.withLock { $0[value] }
  }

  /// The token `value` when it is a live (not revoked, spent or expired) token of `kind` that
  /// `provider` issued: what a token endpoint or an API asks of the token it was sent.
  func live(_ value: String?, kind: IssuedToken.Kind, provider: ProviderID, at now: Date)
    -> IssuedToken?
  {
    guard let value, let token = lookup(value), token.kind == kind, token.provider == provider,
      token.isLive(at: now)
    else { return nil }
    return token
  }

  /// Looks `value` up and, atomically, lets `body` change it; returns what `body` returned.
  func update<T>(_ value: String, _ body: (inout IssuedToken?) -> T) -> T {
    tokens.withLock { tokens in
      var token = tokens[value]
      let result = body(&token)
      tokens[value] = token
      return result
    }
  }

  /// Marks a code spent if it is live and returns it as it was; a spent code also revokes the
  /// tokens already issued from it (RFC 6749 §4.1.2: a code used twice).
  func redeemCode(_ value: String, provider: ProviderID, now: Date) -> CodeRedemption {
    tokens.withLock { tokens in
      guard var token = tokens[value], token.kind == .code, token.provider == provider else {
        return .unknown
      }
      if token.spent {
        for key in tokens.keys where tokens[key]?.grantID == token.grantID {
          tokens[key]?.revoked = true
        }
        return .alreadyUsed(token)
      }
      if let expiresAt = token.expiresAt, now >= expiresAt { return .expired(token) }
      token.spent = true
      tokens[value] = token
      return .redeemed(token)
    }
  }

  enum CodeRedemption {
    case unknown
    case alreadyUsed(IssuedToken)
    case expired(IssuedToken)
    case redeemed(IssuedToken)
  }

  /// Revokes every token of `grantID`.
  func revokeGrant(_ grantID: String) {
    tokens.withLock { tokens in
      for key in tokens.keys where tokens[key]?.grantID == grantID { tokens[key]?.revoked = true }
    }
  }

  /// Revokes (or, with `expire`, expires) tokens of `provider` (all when `nil`) of `userID`
  /// (all when `nil`) of the given kinds; returns how many changed.
  @discardableResult
  func invalidate(
    provider: ProviderID?, userID: String?, kinds: Set<IssuedToken.Kind>,
    expireAt: Date? = nil
  ) -> Int {
    tokens.withLock { tokens in
      var changed = 0
      for (key, token) in tokens
      where kinds.contains(token.kind) && (provider == nil || token.provider == provider)
        && (userID == nil || token.userID == userID)
      {
        if let expireAt { tokens[key]?.expiresAt = expireAt } else { tokens[key]?.revoked = true }
        changed += 1
      }
      return changed
    }
  }

  var count: Int { tokens.withLock { $0.count } }
}
