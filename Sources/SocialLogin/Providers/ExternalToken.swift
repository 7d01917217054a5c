import Foundation

/// A token obtained outside the SDK, for ``LoginProvider/verify(_:)``.
public enum ExternalToken: Hashable, Sendable {
  /// An OAuth 2.0 access token.
  case accessToken(Secret)
  /// An OpenID Connect ID token and the nonce it must carry. With `nil`, a token that carries
  /// a nonce is refused (``AuthError/Code/invalidToken``, ``JOSEError/Reason/nonceMismatch``):
  /// pass the nonce the backend issued, use ``LoginClient/verify(idToken:from:nonces:)``, or
  /// opt out with ``idTokenAcceptingAnyNonce(_:)``.
  case idToken(Secret, nonce: Secret?)
  /// An OAuth 1.0a token and its secret.
  case oauth1(token: Secret, secret: Secret)

  /// An ID token whose nonce is not checked: the explicit opt-out for a backend that does not
  /// issue nonces (the token's own `nonce` claim, if any, is taken as the expected one).
  /// Prefer ``LoginClient/verify(idToken:from:nonces:)``: without a nonce the backend issued,
  /// a token captured from another sign-in can be replayed.
  ///
  /// - Parameter token: The ID token the app sent.
  /// - Returns: `.idToken(token, nonce:)` expecting the nonce the token carries.
  public static func idTokenAcceptingAnyNonce(_ token: Secret) -> ExternalToken {
    .idToken(token, nonce: unverifiedNonce(of: token.revealed).map { Secret($0) })
  }

  /// The `nonce` claim of a compact JWS, read without checking anything (verification
  /// follows); `nil` when it has none or is not a JWS.
  static func unverifiedNonce(of token: String) -> String? {
    guard let nonce = unverifiedClaims(of: token)?["nonce"]?.stringValue, !nonce.isEmpty
    else { return nil }
    return nonce
  }

  /// The `aud` of `token` (a string or an array of strings), read without verifying it: for
  /// an ID token the SDK verified when the session was made, to tell which app made it.
  static func unverifiedAudiences(of token: String) -> [String]? {
    unverifiedClaims(of: token).flatMap(VerifiedJWT.audiences(in:))
  }

  /// The claims of a compact JWS, read without checking anything; `nil` when it is not a JWS
  /// whose payload is a JSON object.
  private static func unverifiedClaims(of token: String) -> JSONValue? {
    guard let jws = try? CompactJWS(parsing: token),
      let claims = try? JSONDecoder().decode(JSONValue.self, from: Data(jws.payload)),
      case .object = claims
    else { return nil }
    return claims
  }
}
