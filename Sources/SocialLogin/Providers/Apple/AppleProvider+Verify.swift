import Foundation
import SocialLoginCrypto

extension AppleProvider {
  /// Verifies an identity token an Apple app sent (`ASAuthorizationAppleIDCredential.identityToken`).
  ///
  /// RS256 with a key from Apple's JWKS (picked by `kid`; an unknown `kid` refetches the set,
  /// so Apple's key rotation is followed), `iss` `https://appleid.apple.com`, `aud` one of
  /// ``AppleConfiguration/clientIDs``, unexpired, and `nonce`: apps send either the raw nonce
  /// or its SHA-256 in lower-case hex (what `ASAuthorizationAppleIDRequest.nonce` usually
  /// gets); pass the raw nonce and both are accepted. A token without a nonce passes only when
  /// it says `nonce_supported` is false.
  ///
  /// ```swift
  /// let verified = try await apple.verify(.idToken(Secret(token), nonce: Secret(rawNonce)))
  /// let apple = AppleIDTokenClaims(verified.identity)   // is_private_email, real_user_status
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` for an invalid token, one issued to another
  ///   app, or a nonce that does not match; ``AuthError/Code/unsupported`` for access tokens
  ///   (Apple's access token serves no API to check it with); transient errors when the key
  ///   set could not be fetched.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    switch token {
    case .idToken(let idToken, let nonce):
      let verified = try await verifyIDToken(
        idToken, nonce: nonce, clientIDs: configuration.clientIDs, refusingUnexpectedNonce: true)
      let identity = try Self.identity(claims: verified.claims.objectValue ?? [:], user: nil)
      return VerifiedIdentity(
        identity: identity,
        expiresAt: verified.claims["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
        audience: .proven(audience: verified.audiences.first ?? ""))
    case .accessToken:
      throw AuthError(
        .unsupported,
        "Apple's access token serves no API and cannot be verified; verify the identity token "
          + "(.idToken) or exchange the authorization code.",
        provider: .apple)
    case .oauth1:
      throw AuthError(.unsupported, "Apple does not use OAuth 1.0a.", provider: .apple)
    }
  }

  /// Verifies an Apple ID token for one of `clientIDs` (the one its `aud` names), with the
  /// nonce rules of ``verify(_:)``.
  func verifyIDToken(
    _ idToken: Secret, nonce: Secret?, clientIDs: [String], refusingUnexpectedNonce: Bool = false
  ) async throws(AuthError) -> VerifiedJWT {
    let unverified = StoredIDToken.decoding(idToken.revealed)
    let audiences = unverified?.audiences ?? []
    // The validator checks `aud` itself; this only picks which configured id to expect.
    let clientID = clientIDs.first(where: audiences.contains) ?? clientIDs.first ?? ""
    let validator = IDTokenValidator(
      configuration: IDTokenValidator.Configuration(
        issuer: AppleConfiguration.issuer, clientID: clientID, allowedAlgorithms: [.rs256],
        leeway: configuration.leeway, provider: .apple),
      keys: keys, clock: clock)
    let sent = unverified?.claims["nonce"]?.stringValue
    let expected = try Self.expectedNonce(
      nonce?.revealed, sent: sent, claims: unverified?.claims ?? [:])
    return try await validator.validate(
      idToken.revealed, nonce: expected,
      refusingUnexpectedNonce: refusingUnexpectedNonce && nonce == nil)
  }

  /// The nonce the token must carry, given the raw `nonce` the app was given: the raw nonce,
  /// or its SHA-256 hex when that is what the token carries; `nil` (nothing to compare) when
  /// the token has none and says `nonce_supported: false`.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` (``JOSEError/Reason/nonceMismatch``) for a
  ///   token without a nonce that does not say its platform lacks nonce support.
  static func expectedNonce(_ nonce: String?, sent: String?, claims: [String: JSONValue])
    throws(AuthError) -> String?
  {
    guard let nonce else { return nil }
    guard let sent else {
      if flag(claims["nonce_supported"]) == false { return nil }
      throw JOSEError(.nonceMismatch, "The Apple ID token has no 'nonce' but one was sent.")
        .asAuthError.naming(.apple)
    }
    let hashed = HexEncoding.lowercase(SHA256.hash(Array(nonce.utf8)))
    return sent == hashed ? hashed : nonce
  }

  /// A boolean claim Apple sends as a JSON boolean or as the string `"true"`/`"false"`.
  static func flag(_ value: JSONValue?) -> Bool? {
    switch value {
    case .bool(let flag)?: return flag
    case .string(let text)?:
      switch text.lowercased() {
      case "true": return true
      case "false": return false
      default: return nil
      }
    default: return nil
    }
  }
}
