import Foundation

extension LoginClient {
  /// Verifies an ID token that a mobile app got with a nonce this backend issued, and uses the
  /// nonce up: the token must be valid for this app (``verify(_:from:)``), carry a `nonce`
  /// claim, and that nonce must have been issued by `nonces`, not used before and not expired.
  ///
  /// The signature and claims are checked before the nonce is consumed, so a forged token
  /// cannot burn an honest app's nonce; of two requests carrying one token, one succeeds.
  ///
  /// ```swift
  /// let verified = try await client.verify(idToken: idToken, from: .line, nonces: nonces)
  /// ```
  ///
  /// - Parameters:
  ///   - idToken: The ID token the app sent.
  ///   - provider: The provider that issued it (LINE, Facebook Limited Login, OpenID Connect).
  ///   - nonces: Where the backend's nonces are kept.
  /// - Returns: Whose token it is.
  /// - Throws: ``AuthError/Code/invalidToken`` (naming the provider) when the token is not a
  ///   JWT (``JOSEError/Reason/malformed``), carries no nonce, fails verification, or its nonce was not issued here, was used or expired;
  ///   otherwise what ``verify(_:from:)`` and the store throw.
  public func verify(idToken: Secret, from provider: ProviderID, nonces: NonceIssuer)
    async throws -> VerifiedIdentity
  {
    guard let nonce = ExternalToken.unverifiedNonce(of: idToken.revealed) else {
      // Say what is wrong first: a token that is not a JWT at all carries no nonce either,
      // but "no nonce" would send the app's developer looking in the wrong place.
      do {
        _ = try CompactJWS(parsing: idToken.revealed)
      } catch {
        var named = error
        named.provider = provider
        named.message = "The ID token is not a JWT (\(error.message))"
        throw named
      }
      throw AuthError(
        .invalidToken,
        "The ID token carries no nonce; the app must pass the backend's nonce to the "
          + "provider's sign-in.",
        provider: provider)
    }
    let verified = try await verify(.idToken(idToken, nonce: Secret(nonce)), from: provider)
    do {
      try await nonces.consume(Secret(nonce))
    } catch var error as AuthError where error.code == .invalidToken {
      error.provider = provider
      throw error
    }
    return verified
  }
}
