import Foundation
import SocialLoginCrypto

/// The claim checks applied after a JWT's signature verifies (RFC 7519 §4.1, OIDC Core
/// §3.1.3.7).
///
/// Times are compared with ``leeway`` seconds of tolerance: a token is expired when
/// `now >= exp + leeway`, not yet valid when `now < nbf - leeway`, and issued in the future
/// when `iat > now + leeway`.
///
/// ```swift
/// var policy = JWTClaimsPolicy(issuer: "https://issuer.example", audience: "my-client")
/// policy.leeway = 30
/// policy.requiredClaims = ["exp", "sub"]
/// ```
public struct JWTClaimsPolicy: Sendable, Hashable {
  /// The exact `iss` required, if any.
  public var issuer: String?
  /// Other spellings of ``issuer`` that are accepted as exactly as it is: Google signs
  /// `https://accounts.google.com` and `accounts.google.com`. Empty by default.
  public var alternativeIssuers: Set<String> = []
  /// An audience `aud` must contain (as its string, or as one element of its array), if any.
  public var audience: String?
  /// Other client ids of the same application that may stand in for ``audience`` in `aud`
  /// and in `azp`: a Google ID token that an Android or iOS app obtained names the app's own
  /// client id in `azp` (and, without a server client id, in `aud`). Empty by default.
  public var alternativeAudiences: Set<String> = []
  /// When `true`, every `aud` entry must be ``audience`` or one of ``trustedAudiences``.
  public var rejectsUntrustedAudiences: Bool
  /// Extra audiences accepted next to ``audience`` when ``rejectsUntrustedAudiences`` is set.
  public var trustedAudiences: Set<String>
  /// When `true` and `aud` has several entries, `azp` must be present and equal ``audience``.
  /// An `azp` that is present must equal ``audience`` whenever an audience is expected.
  public var requiresAuthorizedPartyForMultipleAudiences: Bool
  /// The `nonce` that must be present and equal, if any (compared in constant time).
  public var nonce: String?
  /// When `true` and no ``nonce`` is expected, a token that carries one is refused: a
  /// backend verifying an app's ID token must say which nonce it issued (or opt out with
  /// ``ExternalToken/idTokenAcceptingAnyNonce(_:)``). `false` by default (a login's ID token
  /// refreshed without its nonce).
  public var refusesUnexpectedNonce = false
  /// Clock-skew tolerance for `exp`, `nbf`, `iat` and `auth_time`, in seconds.
  public var leeway: TimeInterval
  /// OIDC `max_age`: `auth_time` is then required and must be at most this old.
  public var maximumAuthenticationAge: TimeInterval?
  /// When set, `iat` is required and must be at most this old.
  public var maximumTokenAge: TimeInterval?
  /// Claims that must be present (for example `exp`, `sub`).
  public var requiredClaims: Set<String>

  /// Creates a policy. By default only `exp` is required.
  public init(
    issuer: String? = nil,
    audience: String? = nil,
    nonce: String? = nil,
    leeway: TimeInterval = 60,
    requiredClaims: Set<String> = ["exp"]
  ) {
    self.issuer = issuer
    self.audience = audience
    self.nonce = nonce
    self.leeway = leeway
    self.requiredClaims = requiredClaims
    rejectsUntrustedAudiences = false
    trustedAudiences = []
    requiresAuthorizedPartyForMultipleAudiences = false
    maximumAuthenticationAge = nil
    maximumTokenAge = nil
  }

  /// Checks `claims` at time `now` (seconds since 1970). `accessToken`, when given, is checked
  /// against `at_hash` if the token has one, using the hash of `algorithm`.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason.
  public func check(
    _ claims: JSONValue, algorithm: JWSAlgorithm, now: TimeInterval, accessToken: String? = nil
  ) throws(AuthError) {
    guard case .object(let members) = claims else {
      throw JOSEError(.payloadNotJSON, "The claims are not a JSON object.").asAuthError
    }
    do throws(JOSEError) {
      try check(members, algorithm: algorithm, now: now, accessToken: accessToken)
    } catch {
      throw error.asAuthError
    }
  }

  func check(
    _ claims: [String: JSONValue], algorithm: JWSAlgorithm, now: TimeInterval,
    accessToken: String?
  ) throws(JOSEError) {
    for name in requiredClaims where claims[name] == nil {
      throw JOSEError(.missingClaim, "The token has no '\(name)' claim.")
    }
    try checkTimes(claims, now: now)
    if let issuer {
      guard case .string(let actual)? = claims["iss"] else {
        throw JOSEError(.issuerMismatch, "The token has no string 'iss'; expected '\(issuer)'.")
      }
      guard actual == issuer || alternativeIssuers.contains(actual) else {
        throw JOSEError(.issuerMismatch, "The issuer '\(actual)' is not '\(issuer)'.")
      }
    }
    if let audience { try checkAudience(claims, expected: audience) }
    if nonce == nil, refusesUnexpectedNonce, claims["nonce"] != nil {
      throw JOSEError(
        .nonceMismatch,
        "The token carries a nonce but none was expected: pass the nonce you issued "
          + "(LoginClient.verify(idToken:from:nonces:)), or opt out with "
          + "ExternalToken.idTokenAcceptingAnyNonce(_:).")
    }
    if let nonce {
      guard case .string(let actual)? = claims["nonce"] else {
        throw JOSEError(.nonceMismatch, "The token has no 'nonce' but one was sent.")
      }
      guard ConstantTime.equals(Array(actual.utf8), Array(nonce.utf8)) else {
        throw JOSEError(.nonceMismatch, "The token's nonce is not the one sent.")
      }
    }
    if let accessToken, let atHash = claims["at_hash"] {
      guard case .string(let received) = atHash else {
        throw JOSEError(.malformed, "The 'at_hash' claim is not a string.")
      }
      let expected = Self.accessTokenHash(accessToken, algorithm: algorithm)
      guard ConstantTime.equals(Array(received.utf8), Array(expected.utf8)) else {
        throw JOSEError(.accessTokenHashMismatch, "The access token does not match 'at_hash'.")
      }
    }
  }

  private func number(_ claims: [String: JSONValue], _ name: String) throws(JOSEError) -> Double? {
    switch claims[name] {
    case nil: return nil
    case .number(let value)?: return value
    default: throw JOSEError(.malformed, "The '\(name)' claim is not a number.")
    }
  }

  /// A time claim for an error message: whole seconds, or the number as written when it does
  /// not fit an integer (a token may carry any JSON number: `1e19` must not trap).
  static func seconds(_ value: Double) -> String {
    Int64(exactly: value.rounded(.down)).map(String.init) ?? "\(value)"
  }

  private func checkTimes(_ claims: [String: JSONValue], now: TimeInterval) throws(JOSEError) {
    if let exp = try number(claims, "exp"), now >= exp + leeway {
      throw JOSEError(
        .expired, "The token expired at \(Self.seconds(exp)); now is \(Self.seconds(now)).")
    }
    if let nbf = try number(claims, "nbf"), now < nbf - leeway {
      throw JOSEError(.notYetValid, "The token is not valid before \(Self.seconds(nbf)).")
    }
    let iat = try number(claims, "iat")
    if let iat, iat > now + leeway {
      throw JOSEError(
        .issuedInFuture, "The token claims to be issued at \(Self.seconds(iat)), later than now.")
    }
    if let maximumTokenAge {
      guard let iat else { throw JOSEError(.missingClaim, "The token has no 'iat' claim.") }
      if now > iat + maximumTokenAge + leeway {
        throw JOSEError(
          .expired, "The token was issued more than \(Self.seconds(maximumTokenAge)) s ago.")
      }
    }
    if let maximumAuthenticationAge {
      guard let authTime = try number(claims, "auth_time") else {
        throw JOSEError(.missingClaim, "max_age was requested but the token has no 'auth_time'.")
      }
      if now > authTime + maximumAuthenticationAge + leeway {
        throw JOSEError(
          .authenticationTooOld,
          "The user authenticated more than \(Self.seconds(maximumAuthenticationAge)) s ago (max_age)."
        )
      }
    }
  }

  private func checkAudience(_ claims: [String: JSONValue], expected: String) throws(JOSEError) {
    guard let audiences = VerifiedJWT.audiences(in: .object(claims)) else {
      throw JOSEError(.audienceMismatch, "The token has no string or string-array 'aud'.")
    }
    let accepted = alternativeAudiences.union([expected])
    guard audiences.contains(where: accepted.contains) else {
      throw JOSEError(.audienceMismatch, "The token's audience does not include '\(expected)'.")
    }
    if rejectsUntrustedAudiences {
      for other in audiences where !accepted.contains(other) && !trustedAudiences.contains(other) {
        throw JOSEError(.audienceMismatch, "The token is also meant for the untrusted '\(other)'.")
      }
    }
    switch claims["azp"] {
    case nil:
      if requiresAuthorizedPartyForMultipleAudiences, Set(audiences).count > 1 {
        throw JOSEError(
          .authorizedPartyMismatch, "The token has several audiences but no 'azp'.")
      }
    case .string(let party)?:
      guard accepted.contains(party) else {
        throw JOSEError(
          .authorizedPartyMismatch, "The token's azp '\(party)' is not '\(expected)'.")
      }
    default:
      throw JOSEError(.malformed, "The 'azp' claim is not a string.")
    }
  }

  /// The OIDC `at_hash` of `accessToken`: the base64url left half of its hash with the ID
  /// token's algorithm's hash function (SHA-256 for `RS256`/`ES256`/`HS256`).
  ///
  /// ```swift
  /// JWTClaimsPolicy.accessTokenHash("jHkWEdUXMU1BwAsC4vtUsZwnNQnMNUX2ja8U1d1", algorithm: .rs256)
  /// ```
  public static func accessTokenHash(_ accessToken: String, algorithm: JWSAlgorithm) -> String {
    let digest: [UInt8]
    switch algorithm {
    case .rs256, .es256, .hs256: digest = SHA256.hash(accessToken.utf8)
    case .rs384, .hs384: digest = SHA384.hash(accessToken.utf8)
    case .rs512, .hs512: digest = SHA512.hash(accessToken.utf8)
    }
    return Base64URL.encode(digest.prefix(digest.count / 2))
  }
}

/// Verifies a JWT's signature and checks its claims against a ``JWTClaimsPolicy``, on an
/// injected clock.
///
/// ```swift
/// let validator = JWTValidator(
///   allowedAlgorithms: [.rs256],
///   policy: JWTClaimsPolicy(issuer: "https://issuer.example", audience: "api"))
/// let jwt = try validator.validate(token, keys: jwks)
/// print(jwt.subject ?? "-")
/// ```
public struct JWTValidator: Sendable {
  /// The signature verifier (allowed algorithms, size cap, understood `crit`).
  public var verifier: JWSVerifier
  /// The claim checks.
  public var policy: JWTClaimsPolicy
  /// The source of "now".
  public var clock: any AuthClock
  /// The provider whose tokens these are: every error the validator throws names it in
  /// ``AuthError/provider`` (unless the error names one already).
  public var provider: ProviderID?

  /// Creates a validator.
  public init(
    allowedAlgorithms: Set<JWSAlgorithm>,
    policy: JWTClaimsPolicy = JWTClaimsPolicy(),
    clock: any AuthClock = SystemAuthClock(),
    provider: ProviderID? = nil
  ) {
    verifier = JWSVerifier(allowedAlgorithms: allowedAlgorithms)
    self.policy = policy
    self.clock = clock
    self.provider = provider
  }

  /// Verifies and checks `token` with a static key set.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with the ``JOSEError`` reason.
  public func validate(_ token: String, keys: JWKSet, accessToken: String? = nil)
    throws(AuthError) -> VerifiedJWT
  {
    do throws(AuthError) {
      return try finish(verifier.verify(token, keys: keys), accessToken: accessToken)
    } catch {
      throw error.naming(provider)
    }
  }

  /// Verifies and checks `token` with a single key.
  public func validate(_ token: String, key: JWK, accessToken: String? = nil)
    throws(AuthError) -> VerifiedJWT
  {
    do throws(AuthError) {
      return try finish(verifier.verify(token, key: key), accessToken: accessToken)
    } catch {
      throw error.naming(provider)
    }
  }

  /// Verifies and checks `token` with the keys `resolver` offers.
  public func validate(
    _ token: String, resolver: some JWTKeyResolver, accessToken: String? = nil
  ) async throws(AuthError) -> VerifiedJWT {
    do throws(AuthError) {
      return try finish(await verifier.verify(token, resolver: resolver), accessToken: accessToken)
    } catch {
      throw error.naming(provider)
    }
  }

  func finish(_ jws: VerifiedJWS, accessToken: String?) throws(AuthError) -> VerifiedJWT {
    do throws(JOSEError) {
      let claims = try JWSVerifier.claims(of: jws.payload)
      try policy.check(
        claims, algorithm: jws.algorithm, now: clock.coarseWallTime, accessToken: accessToken)
      return VerifiedJWT(
        header: jws.header, claims: .object(claims), algorithm: jws.algorithm, keyID: jws.keyID)
    } catch {
      throw error.asAuthError.naming(provider)
    }
  }
}
