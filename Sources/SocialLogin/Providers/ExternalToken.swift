/// A token obtained outside the SDK, for ``LoginProvider/verify(_:)``.
public enum ExternalToken: Hashable, Sendable {
  /// An OAuth 2.0 access token.
  case accessToken(Secret)
  /// An OpenID Connect ID token and the nonce it must carry, if any.
  case idToken(Secret, nonce: String?)
  /// An OAuth 1.0a token and its secret.
  case oauth1(token: Secret, secret: Secret)
}
