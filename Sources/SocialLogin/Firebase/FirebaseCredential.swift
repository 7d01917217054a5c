import Foundation

/// A credential from an identity provider that Firebase Authentication exchanges for a
/// Firebase user (`accounts:signInWithIdp`).
///
/// ```swift
/// let user = try await firebase.signIn(with: .facebook(accessToken: token))
/// let line = try await firebase.signIn(with: .oidc("oidc.line", idToken: idToken))
/// ```
public enum FirebaseCredential: Hashable, Sendable, CustomStringConvertible {
  /// A Facebook Login access token (`facebook.com`).
  case facebook(accessToken: Secret)
  /// A Facebook Limited Login ID token with the raw nonce the app generated (`facebook.com`);
  /// Firebase requires the nonce for these tokens.
  case facebookLimitedLogin(idToken: Secret, rawNonce: Secret)
  /// An X (Twitter) OAuth 1.0a token and token secret (`twitter.com`).
  case twitter(token: Secret, secret: Secret)
  /// An X OAuth 2.0 access token. Firebase's `twitter.com` provider accepts only OAuth 1.0a
  /// credentials, so signing in with this throws ``AuthError/Code/unsupported``; it exists so
  /// that a session from `login(.twitter)` over OAuth 2.0 gets a clear answer.
  case twitterOAuth2(accessToken: Secret)
  /// A Google ID token (`google.com`), optionally with its access token.
  case google(idToken: Secret, accessToken: Secret? = nil)
  /// A Google access token alone (`google.com`), for an app that holds no ID token (Firebase
  /// then asks Google who the token's user is).
  case googleAccessToken(Secret)
  /// A Sign in with Apple ID token (`apple.com`) with the raw nonce the app generated (the
  /// token carries it, or its SHA-256 in hex); Firebase requires the nonce when the token has
  /// one.
  case apple(idToken: Secret, rawNonce: Secret? = nil)
  /// An OpenID Connect ID token for a provider configured in Firebase as `oidc.<name>` (LINE
  /// configured as an OIDC provider is `oidc.line`), with the raw nonce when the token has one.
  case oidc(_ providerID: String, idToken: Secret, rawNonce: Secret? = nil)

  /// The Firebase provider id: `facebook.com`, `twitter.com`, `google.com`, `apple.com` or
  /// `oidc.<name>`.
  public var providerID: String {
    switch self {
    case .facebook, .facebookLimitedLogin: return "facebook.com"
    case .twitter, .twitterOAuth2: return "twitter.com"
    case .google, .googleAccessToken: return "google.com"
    case .apple: return "apple.com"
    case .oidc(let providerID, _, _): return providerID
    }
  }

  /// Names the provider and the kind of token; never a token.
  public var description: String {
    switch self {
    case .facebook: return "FirebaseCredential(facebook.com, access token)"
    case .facebookLimitedLogin: return "FirebaseCredential(facebook.com, Limited Login ID token)"
    case .twitter: return "FirebaseCredential(twitter.com, OAuth 1.0a token)"
    case .twitterOAuth2: return "FirebaseCredential(twitter.com, OAuth 2.0 access token)"
    case .google: return "FirebaseCredential(google.com, ID token)"
    case .googleAccessToken: return "FirebaseCredential(google.com, access token)"
    case .apple: return "FirebaseCredential(apple.com, ID token)"
    case .oidc(let providerID, _, _): return "FirebaseCredential(\(providerID), ID token)"
    }
  }

  /// The `postBody` of `accounts:signInWithIdp`, a form-encoded string.
  ///
  /// - Throws: ``AuthError/Code/unsupported`` for an X OAuth 2.0 token,
  ///   ``AuthError/Code/configuration`` for an empty token or an `oidc` provider id that does
  ///   not start with `oidc.`.
  public func postBody() throws(AuthError) -> String {
    var fields: [(String, String)] = []
    func add(_ name: String, _ secret: Secret) throws(AuthError) {
      guard !secret.isEmpty else {
        throw AuthError(
          .configuration, "The \(providerID) credential's \(name) is empty.", provider: .firebase)
      }
      fields.append((name, secret.revealed))
    }
    switch self {
    case .facebook(let accessToken):
      try add("access_token", accessToken)
    case .facebookLimitedLogin(let idToken, let rawNonce):
      try add("id_token", idToken)
      try add("nonce", rawNonce)
    case .twitter(let token, let secret):
      try add("access_token", token)
      try add("oauth_token_secret", secret)
    case .twitterOAuth2:
      throw AuthError(
        .unsupported,
        "Firebase's twitter.com provider accepts only OAuth 1.0a credentials (token and token "
          + "secret), not an X OAuth 2.0 access token: sign in to X with OAuth 1.0a.",
        provider: .firebase)
    case .google(let idToken, let accessToken):
      try add("id_token", idToken)
      if let accessToken { try add("access_token", accessToken) }
    case .googleAccessToken(let accessToken):
      try add("access_token", accessToken)
    case .apple(let idToken, let rawNonce):
      try add("id_token", idToken)
      if let rawNonce { try add("nonce", rawNonce) }
    case .oidc(let providerID, let idToken, let rawNonce):
      guard providerID.hasPrefix("oidc."), providerID.count > 5 else {
        throw AuthError(
          .configuration,
          "An OpenID Connect provider in Firebase is named 'oidc.<name>', not '\(providerID)'.",
          provider: .firebase)
      }
      try add("id_token", idToken)
      if let rawNonce { try add("nonce", rawNonce) }
    }
    fields.append(("providerId", providerID))
    return FormEncoding.encode(fields)
  }

  /// The token values, for masking them in error messages.
  var secrets: [String] {
    switch self {
    case .facebook(let token), .twitterOAuth2(let token), .googleAccessToken(let token):
      return [token.revealed]
    case .facebookLimitedLogin(let token, let nonce): return [token.revealed, nonce.revealed]
    case .twitter(let token, let secret): return [token.revealed, secret.revealed]
    case .google(let token, let access):
      return [token.revealed] + (access.map { [$0.revealed] } ?? [])
    case .oidc(_, let token, let nonce), .apple(let token, let nonce):
      return [token.revealed] + (nonce.map { [$0.revealed] } ?? [])
    }
  }
}
