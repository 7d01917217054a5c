import Foundation
import SocialLogin
import SocialLoginCrypto

extension EmulatedFirebase {
  /// A `google.com` credential: an ID token of the emulated Google (RS256 with its keys, `aud`
  /// the web or Android client, not expired, the nonce when sent), or else an access token it
  /// issued and that is still live.
  func googleCredential(_ fields: [String: String], now: Date)
    -> Result<VerifiedIdPCredential, ErrorAnswer>
  {
    func invalid(_ detail: String) -> Result<VerifiedIdPCredential, ErrorAnswer> {
      .failure(ErrorAnswer("INVALID_IDP_RESPONSE : Invalid Idp Response: \(detail)"))
    }
    let accessToken = fields["access_token"].flatMap { $0.isEmpty ? nil : $0 }
    if let idToken = fields["id_token"], !idToken.isEmpty {
      guard let claims = try? EmulatorKeys.claims(of: idToken),
        claims["iss"]?.stringValue == EmulatedGoogle.issuer,
        let subject = claims["sub"]?.stringValue
      else { return invalid("id_token was not issued by Google.") }
      let keys = (try? JWKSet(json: environment.keys.jwks([.rs256]))) ?? JWKSet(keys: [])
      guard (try? JWSVerifier(allowedAlgorithms: [.rs256]).verify(idToken, keys: keys)) != nil
      else { return invalid("the id_token signature does not verify.") }
      let audiences = [EmulatorApps.googleClientID, EmulatorApps.googleAndroidClientID]
      guard audiences.contains(where: { VerifiedJWTAudience.contains(claims["aud"], $0) }) else {
        return invalid("the id_token is for another app.")
      }
      guard let exp = claims["exp"]?.doubleValue, now.timeIntervalSince1970 < exp else {
        return invalid("the id_token expired.")
      }
      if let nonce = fields["nonce"], claims["nonce"]?.stringValue != nonce {
        return invalid("the nonce does not match the id_token.")
      }
      guard let user = environment.users.first(where: { $0.subject(at: .google) == subject }),
        !user.isDisabled
      else { return invalid("the id_token's user is unknown or disabled.") }
      return .success(
        VerifiedIdPCredential(
          providerID: "google.com", rawID: subject, federatedID: subject, user: user,
          email: claims["email"]?.stringValue,
          emailVerified: claims["email_verified"]?.boolValue ?? false,
          displayName: claims["name"]?.stringValue, photoURL: claims["picture"]?.stringValue,
          rawUserInfo: .object(claims), oauthAccessToken: accessToken, oauthIDToken: idToken))
    }
    guard let accessToken else {
      return invalid("the postBody has neither id_token nor access_token for google.com.")
    }
    guard let token = environment.tokens.lookup(accessToken), token.provider == .google,
      token.kind == .access, token.isLive(at: now),
      token.clientID == EmulatorApps.googleClientID, let user = environment.user(token.userID),
      !user.isDisabled
    else { return invalid("access_token is invalid or was issued to another app.") }
    let subject = user.subject(at: .google)
    var info: [String: JSONValue] = ["sub": .string(subject), "name": .string(user.name)]
    if let email = user.email {
      info["email"] = .string(email)
      info["email_verified"] = true
    }
    return .success(
      VerifiedIdPCredential(
        providerID: "google.com", rawID: subject, federatedID: subject, user: user,
        email: user.email, emailVerified: user.email != nil, displayName: user.name,
        photoURL: user.picture, rawUserInfo: .object(info), oauthAccessToken: accessToken))
  }
}
