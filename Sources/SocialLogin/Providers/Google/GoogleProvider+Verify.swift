import Foundation

extension GoogleProvider {
  /// Verifies an ID token that a web page (Google Identity Services) or an Android or iOS app
  /// obtained: RS256 with Google's keys, `iss` either spelling, `aud` this server's client id
  /// or one of ``GoogleConfiguration/appClientIDs`` (and `azp`, when present, one of them
  /// too), `exp`, the nonce, and the hosted domain.
  ///
  /// Google's access tokens are opaque and Google offers no introspection to this client, so
  /// an access token is refused with ``AuthError/Code/unsupported``: have the app send its ID
  /// token.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` (with the ``JOSEError`` reason),
  ///   ``AuthError/Code/hostedDomainMismatch``, or the key fetch's transient errors.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    switch token {
    case .idToken:
      return try await engine.verify(token)
    case .accessToken:
      throw AuthError(
        .unsupported,
        "Google access tokens are opaque and cannot be proven to be issued to this client: "
          + "verify the ID token the app obtained instead.",
        provider: id)
    case .oauth1:
      throw AuthError(.unsupported, "Google does not use OAuth 1.0a.", provider: id)
    }
  }
}
