import Foundation
import SocialLoginCrypto

/// A Sign in with Apple client secret: the ES256 JWT a service signs with its `.p8` key to
/// authenticate token and revoke requests, and when it must be replaced.
///
/// Header `alg` ES256, `kid` the key id; claims `iss` the team id, `iat`, `exp`, `aud`
/// `https://appleid.apple.com`, `sub` the client id. The signature is the 64-byte R‖S form.
struct AppleClientSecret: Sendable {
  /// The signed JWT.
  let token: Secret
  /// Its `exp`.
  let expiresAt: Date

  /// Signs a secret for `clientID`, valid from `now` for `configuration.clientSecretLifetime`.
  ///
  /// - Throws: ``AuthError/Code/configuration`` for a lifetime that is not positive or longer
  ///   than Apple accepts (15,777,000 s).
  static func sign(
    for clientID: String, configuration: AppleConfiguration, now: Date
  ) throws(AuthError) -> AppleClientSecret {
    guard let key = configuration.privateKey else {
      throw AuthError(
        .configuration,
        "No Apple private key (.p8) is configured, so no client secret can be signed: this "
          + "configuration only verifies identity tokens and notifications.",
        provider: .apple)
    }
    let lifetime = configuration.clientSecretLifetime
    guard lifetime > configuration.clientSecretRenewalMargin,
      lifetime <= AppleConfiguration.maximumClientSecretLifetime
    else {
      throw AuthError(
        .configuration,
        "AppleConfiguration.clientSecretLifetime must be longer than its renewal margin and "
          + "at most 15,777,000 s (six months), which Apple accepts; it is \(Int(lifetime)) s.",
        provider: .apple)
    }
    let issuedAt = now.timeIntervalSince1970.rounded(.down)
    let expiresAt = issuedAt + lifetime.rounded(.down)
    let claims: [String: JSONValue] = [
      "iss": .string(configuration.teamID),
      "iat": .number(issuedAt),
      "exp": .number(expiresAt),
      "aud": .string(AppleConfiguration.issuer),
      "sub": .string(clientID),
    ]
    let signer = JWSSigner.es256(key, keyID: configuration.keyID)
    let token = try signer.sign(payload: Array(JSONValue.object(claims).jsonText.utf8))
    return AppleClientSecret(
      token: Secret(token), expiresAt: Date(timeIntervalSince1970: expiresAt))
  }

  /// Whether the secret still serves at `now`: more than `margin` before its expiry.
  func serves(at now: Date, margin: TimeInterval) -> Bool {
    now.addingTimeInterval(margin) < expiresAt
  }
}
