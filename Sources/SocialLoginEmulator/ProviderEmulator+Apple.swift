import Foundation
import SocialLogin

extension ProviderEmulator {
  /// The emulated Sign in with Apple app: its client ids (the Services ID first, then the
  /// bundle id), team id, key id and `.p8` (PKCS #8 PEM). Configure an `AppleProvider` with
  /// them to talk to this emulator; `GET /_emulator/apple/key` serves the same.
  ///
  /// ```swift
  /// let key = emulator.appleKey
  /// let apple: AppleProvider = try .apple(
  ///   clientIDs: key.clientIDs, teamID: key.teamID, keyID: key.keyID,
  ///   privateKeyPEM: Secret(key.privateKeyPEM),
  ///   environment: ["SOCIALLOGIN_EMULATOR_HOST": emulator.host.description])
  /// ```
  public var appleKey: (clientIDs: [String], teamID: String, keyID: String, privateKeyPEM: String) {
    (
      EmulatedApple.clientIDs, EmulatorApps.appleTeamID, EmulatorApps.appleKeyID,
      EmulatorApps.applePrivateKeyPEM
    )
  }

  /// What an iOS app of the emulated team receives from Sign in with Apple for `userID` (the
  /// current user by default): an authorization code issued to `clientID` (the bundle id by
  /// default) without a redirect URI, and the identity token carrying `nonce` (pass the
  /// SHA-256 hex of a raw nonce, as apps do, or the raw one). `POST
  /// /_emulator/apple/authorization` answers the same as `{code, identity_token}`.
  ///
  /// - Throws: `AuthError` with `invalidResponse` for an unknown user.
  public func appleAuthorization(
    clientID: String = EmulatorApps.appleBundleID, nonce: String? = nil, userID: String? = nil
  ) throws -> (authorizationCode: String, identityToken: String) {
    let environment = dispatcher.environment
    guard let user = userID.flatMap(environment.user) ?? environment.currentUser else {
      throw AuthError(.invalidResponse, "The emulator has no such user.")
    }
    let issued = try EmulatedApple(environment).nativeAuthorization(
      user: user, clientID: clientID, nonce: nonce, now: environment.now)
    return (issued.code, issued.identityToken)
  }

  /// The body Apple would POST to the app's server-to-server notification endpoint:
  /// `{"payload": "<JWT>"}` for `type` (`email-disabled`, `email-enabled`, `consent-revoked`,
  /// `account-delete`) about `userID` (the current user by default), signed with the key set
  /// the emulator's `/auth/keys` serves. `consent-revoked` and `account-delete` also revoke the
  /// user's Apple tokens here, as Apple does. Post the bytes to your handler (or
  /// `LoginClient.handleAppleNotification(body:seen:)`).
  ///
  /// - Throws: `AuthError` with `invalidResponse` for an unknown user.
  public func appleNotification(
    type: String, userID: String? = nil, clientID: String = EmulatorApps.appleServicesID
  ) throws -> [UInt8] {
    let environment = dispatcher.environment
    guard let user = userID.flatMap(environment.user) ?? environment.currentUser else {
      throw AuthError(.invalidResponse, "The emulator has no such user.")
    }
    let body = try EmulatedApple(environment).notification(
      type: type, user: user, clientID: clientID, now: environment.now)
    return Array(body.jsonText.utf8)
  }
}
