import Foundation

extension XProvider {
  /// Verifies a token a mobile or web app obtained from X itself.
  ///
  /// - An OAuth 2.0 access token (OAuth 2.0 flow): `GET /2/users/me`; the audience is
  ///   ``AudienceCheck/unprovable(reason:)`` (X has no way to tell which app a token is for).
  /// - An OAuth 1.0a token and secret (OAuth 1.0a flow): `verify_credentials` signed with this
  ///   app's consumer key and secret; the audience is proven to be the consumer key.
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` when X rejects the token (v2 `401`, v1.1 `89`
  ///   or `32`); ``AuthError/Code/unsupported`` for ID tokens (X has none) and for a token kind
  ///   that the other flow verifies; transient errors as ``fetchIdentity(for:)``.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    switch (token, engine) {
    case (.accessToken(let accessToken), .oauth2(_, let configuration, let endpoints)):
      let identity = try await cachedUsersMe(
        accessToken, expiresAt: nil, configuration: configuration, endpoints: endpoints)
      return VerifiedIdentity(identity: identity, audience: .unprovable(reason: Self.unprovable))
    case (.oauth1(let token, let secret), .oauth1(let client, let configuration, let endpoints)):
      let identity = try await verifyCredentials(
        client, token: token, secret: secret, url: endpoints.verifyCredentials,
        includeEmail: configuration.includeEmail, verifying: true)
      return VerifiedIdentity(
        identity: identity, audience: .proven(audience: configuration.consumerKey))
    case (.idToken, _):
      throw AuthError(
        .unsupported, "X does not issue OpenID Connect ID tokens; verify an access token.",
        provider: id)
    case (.accessToken, .oauth1):
      throw AuthError(
        .unsupported,
        "This X provider is configured for OAuth 1.0a; verify OAuth 2.0 access tokens with an "
          + "OAuth 2.0 X provider.", provider: id)
    case (.oauth1, .oauth2):
      throw AuthError(
        .unsupported,
        "Verifying an OAuth 1.0a token needs the app's consumer key and secret: use an X "
          + "provider configured for OAuth 1.0a.", provider: id)
    }
  }

  static let unprovable =
    "X has no token introspection: nothing says which app an OAuth 2.0 access token was "
    + "issued to"
}
