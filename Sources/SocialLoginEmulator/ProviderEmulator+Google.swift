import Foundation
import SocialLogin

extension ProviderEmulator {
  /// A Google ID token for `userID` (the current user when `nil`) as an Android or iOS app
  /// receives it: `azp` the app's client id, `aud` the server's (web) client id when the app
  /// asked for a token for its server, RS256 with a key of the emulator's JWKS. For testing
  /// `verify(.idToken(_, nonce:))` and `sociallogin verify google`.
  ///
  /// - Parameters:
  ///   - userID: The user, or `nil` for the current one.
  ///   - nonce: The nonce the app passed to Google, if any.
  ///   - audience: `aud`: the server's client id by default.
  ///   - authorizedParty: `azp`: the Android app's client id by default.
  ///   - scopes: `email` adds `email` and `email_verified`, `profile` the name and picture.
  /// - Throws: when there is no such user or RS256 signing is unavailable.
  public func googleIDToken(
    userID: String? = nil, nonce: String? = nil,
    audience: String = EmulatorApps.googleClientID,
    authorizedParty: String = EmulatorApps.googleAndroidClientID,
    scopes: [String] = ["openid", "email", "profile"]
  ) async throws -> String {
    let environment = dispatcher.environment
    await environment.keys.prepareRS256()
    guard let user = userID.flatMap(environment.user) ?? environment.currentUser else {
      throw AuthError(.configuration, "The emulator has no user '\(userID ?? "")'.")
    }
    return try EmulatedGoogle(environment).idToken(
      user: user, scopes: scopes, nonce: nonce, accessToken: nil, now: environment.now,
      audience: audience, authorizedParty: authorizedParty)
  }
}
