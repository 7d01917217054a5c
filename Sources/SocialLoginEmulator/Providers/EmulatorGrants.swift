import Foundation
import SocialLogin
import SocialLoginCrypto

/// Why a token request's code grant or device poll yields no tokens: what every OAuth 2.0
/// provider checks alike, each answering in its own words (see ``EmulatorEnvironment/redeemCodeGrant(_:provider:)``).
enum EmulatorGrantProblem: Error, Sendable, Equatable {
  /// No `code` (or `device_code`) in the form.
  case missingCode
  /// The code was already used (the tokens issued from it are now revoked).
  case alreadyUsed
  /// The code (or device code) expired.
  case expired
  /// No such code (or device code) of this provider and client.
  case unknown
  /// `redirect_uri` differs from the authorization request's.
  case redirectMismatch
  /// The PKCE verifier does not match the challenge.
  case pkceMismatch
  /// The user is gone or disabled.
  case accountDisabled
  /// Device polls: the user has not answered yet.
  case pending
  /// Device polls: too fast; the new interval.
  case slowDown(interval: TimeInterval)
  /// Device polls: the user said no.
  case denied
}

extension EmulatorEnvironment {
  /// Redeems the code of a token request for `provider`: single use, the same `redirect_uri`
  /// as the authorization request, the PKCE verifier, and a user who is not disabled, checked
  /// in that order.
  func redeemCodeGrant(_ request: EmulatorRequest, provider: ProviderID)
    -> Result<(code: IssuedToken, user: EmulatedUser), EmulatorGrantProblem>
  {
    guard let code = request.form("code") else { return .failure(.missingCode) }
    let issued: IssuedToken
    switch tokens.redeemCode(code, provider: provider, now: request.now) {
    case .redeemed(let token): issued = token
    case .alreadyUsed: return .failure(.alreadyUsed)
    case .expired: return .failure(.expired)
    case .unknown: return .failure(.unknown)
    }
    guard request.form("redirect_uri") == issued.extra["redirect_uri"] else {
      return .failure(.redirectMismatch)
    }
    guard
      EmulatorAuthorization.pkceMatches(
        challenge: issued.extra["code_challenge"], method: issued.extra["code_challenge_method"],
        verifier: request.form("code_verifier"))
    else { return .failure(.pkceMismatch) }
    guard let user = user(issued.userID), !user.isDisabled else {
      return .failure(.accountDisabled)
    }
    return .success((issued, user))
  }

  /// Polls the device login of the request's `device_code` for `provider` and `clientID`: the
  /// approved grant and its user, or why not (RFC 8628 §3.5).
  func pollDeviceGrant(_ request: EmulatorRequest, provider: ProviderID, clientID: String)
    -> Result<(grant: EmulatedDeviceGrants.Grant, user: EmulatedUser), EmulatorGrantProblem>
  {
    guard let deviceCode = request.form("device_code") else { return .failure(.missingCode) }
    switch devices.poll(
      deviceCode: deviceCode, provider: provider, clientID: clientID, now: request.now)
    {
    case .unknown: return .failure(.unknown)
    case .pending: return .failure(.pending)
    case .slowDown(let interval): return .failure(.slowDown(interval: interval))
    case .denied: return .failure(.denied)
    case .expired: return .failure(.expired)
    case .approved(let grant):
      guard case .approved(let userID) = grant.decision, let user = user(userID),
        !user.isDisabled
      else { return .failure(.accountDisabled) }
      return .success((grant, user))
    }
  }

  /// Issues and records an access or refresh token of `kind` for `user`: `prefix` plus random
  /// bytes, living `lifetime` seconds from `now` (`nil`: no expiry).
  func issueToken(
    _ kind: IssuedToken.Kind, prefix: String, provider: ProviderID, clientID: String,
    user: EmulatedUser, scopes: [String], grantID: String, now: Date, lifetime: TimeInterval?,
    extra: [String: String] = [:]
  ) -> String {
    let value = TokenRegistry.makeValue(prefix: prefix)
    tokens.insert(
      IssuedToken(
        value: value, kind: kind, provider: provider, clientID: clientID, userID: user.id,
        scopes: scopes, issuedAt: now, expiresAt: lifetime.map { now.addingTimeInterval($0) },
        grantID: grantID, extra: extra))
    return value
  }
}

extension EmulatedUser {
  /// The OpenID Connect claims of the user at `provider` for `scopes`: `sub`; `name` and
  /// `picture` with `profile`; `email` and `email_verified` with `email`.
  func openIDClaims(at provider: ProviderID, scopes: [String]) -> [String: JSONValue] {
    var claims: [String: JSONValue] = ["sub": .string(subject(at: provider))]
    if scopes.contains("profile") {
      claims["name"] = .string(name)
      if let picture { claims["picture"] = .string(picture) }
    }
    if scopes.contains("email"), let email {
      claims["email"] = .string(email)
      claims["email_verified"] = true
    }
    return claims
  }
}

/// `at_hash` (OpenID Connect Core §3.1.3.6): the left half of the access token's SHA-256.
func emulatorAccessTokenHash(_ accessToken: String) -> String {
  Base64URL.encode(SHA256.hash(Array(accessToken.utf8)).prefix(16))
}
