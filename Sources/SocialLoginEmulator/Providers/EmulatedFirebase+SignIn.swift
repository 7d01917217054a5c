import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// An identity provider's credential, verified against the emulated provider that issued it.
struct VerifiedIdPCredential {
  var providerID: String
  var rawID: String
  var federatedID: String
  var user: EmulatedUser
  var email: String?
  var emailVerified: Bool
  var displayName: String?
  var photoURL: String?
  var screenName: String?
  var rawUserInfo: JSONValue
  var oauthAccessToken: String?
  var oauthIDToken: String?
  var oauthTokenSecret: String?
  var oauthExpireIn: Int?

  var link: FirebaseProviderLink {
    FirebaseProviderLink(
      providerID: providerID, rawID: rawID, federatedID: federatedID, email: email,
      displayName: displayName, photoURL: photoURL, screenName: screenName)
  }
}

extension EmulatedFirebase {
  // MARK: accounts:signInWithIdp

  func signInWithIdp(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    guard let requestURI = body["requestUri"]?.stringValue, !requestURI.isEmpty else {
      return Self.error("MISSING_REQUEST_URI")
    }
    guard URL(string: requestURI)?.scheme != nil else { return Self.error("INVALID_REQUEST_URI") }
    var fields: [String: String] = [:]
    for item in HTTPForm.decode(Array((body["postBody"]?.stringValue ?? "").utf8)) ?? [] {
      fields[item.name] = item.value
    }
    guard let providerID = fields["providerId"]?.lowercased(), !providerID.isEmpty else {
      return Self.error(
        "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: no providerId.")
    }
    let credential: VerifiedIdPCredential
    switch verifyCredential(providerID: providerID, fields: fields, now: request.now) {
    case .failure(let error): return error.response
    case .success(let verified): credential = verified
    }
    var answer = idpResponse(credential)
    let returnIdpCredential = body["returnIdpCredential"]?.boolValue == true
    let tenantID = body["tenantId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    let outcome: Result<(FirebaseAccount, Bool), ErrorAnswer>
    if let idToken = body["idToken"]?.stringValue, !idToken.isEmpty {
      outcome = link(credential, toIDToken: idToken, tenantID: tenantID, now: request.now)
    } else {
      outcome = signIn(credential, tenantID: tenantID, now: request.now)
    }
    let account: FirebaseAccount
    let isNewUser: Bool
    switch outcome {
    case .failure(let error):
      if error.message == "NEED_CONFIRMATION" {
        answer["needConfirmation"] = true
        if let existing = credential.email.flatMap({
          accounts.account(email: $0, tenantID: tenantID)
        }) {
          answer["localId"] = .string(existing.localID)
          answer["verifiedProvider"] = .array(existing.providers.map { .string($0.providerID) })
        }
        return EmulatorJSON.response(.object(answer))
      }
      let isConflict = ["FEDERATED_USER_ID_ALREADY_LINKED", "EMAIL_EXISTS"].contains(error.message)
      guard returnIdpCredential, isConflict else { return error.response }
      // With returnIdpCredential, Firebase reports conflicts with HTTP 200 and the credential.
      answer["errorMessage"] = .string(error.message)
      return EmulatorJSON.response(.object(answer))
    case .success(let result):
      (account, isNewUser) = result
    }
    guard !isDisabled(account) else { return Self.error("USER_DISABLED") }
    let tokens = issueTokens(for: account, signInProvider: providerID, now: request.now)
    answer["localId"] = .string(account.localID)
    answer["idToken"] = .string(tokens.idToken)
    answer["refreshToken"] = .string(tokens.refreshToken)
    answer["expiresIn"] = .string(tokens.expiresIn)
    answer["emailVerified"] = .bool(account.emailVerified)
    if let tenantID = account.tenantID { answer["tenantId"] = .string(tenantID) }
    if isNewUser { answer["isNewUser"] = true }
    return EmulatorJSON.response(.object(answer))
  }

  /// The response fields every outcome shares: what the IdP said about the user.
  private func idpResponse(_ credential: VerifiedIdPCredential) -> [String: JSONValue] {
    var answer: [String: JSONValue] = [
      "kind": "identitytoolkit#VerifyAssertionResponse",
      "providerId": .string(credential.providerID),
      "federatedId": .string(credential.federatedID),
      "rawUserInfo": .string(
        String(decoding: EmulatorJSON.encode(credential.rawUserInfo), as: UTF8.self)),
      "emailVerified": .bool(credential.emailVerified),
    ]
    if let email = credential.email { answer["email"] = .string(email) }
    if let name = credential.displayName {
      answer["displayName"] = .string(name)
      answer["fullName"] = .string(name)
    }
    if let photo = credential.photoURL { answer["photoUrl"] = .string(photo) }
    if let screenName = credential.screenName { answer["screenName"] = .string(screenName) }
    if let token = credential.oauthAccessToken { answer["oauthAccessToken"] = .string(token) }
    if let token = credential.oauthIDToken { answer["oauthIdToken"] = .string(token) }
    if let secret = credential.oauthTokenSecret { answer["oauthTokenSecret"] = .string(secret) }
    if let expires = credential.oauthExpireIn { answer["oauthExpireIn"] = .number(Double(expires)) }
    return answer
  }

  /// Signs in the account of the credential, creating it when new. One account per email: an
  /// unverified IdP email that another account holds needs confirmation.
  private func signIn(_ credential: VerifiedIdPCredential, tenantID: String?, now: Date)
    -> Result<(FirebaseAccount, Bool), ErrorAnswer>
  {
    if var existing = accounts.account(
      providerID: credential.providerID, rawID: credential.rawID, tenantID: tenantID)
    {
      existing.lastLoginAt = now
      if let index = existing.providers.firstIndex(where: {
        $0.providerID == credential.providerID
      }) {
        existing.providers[index] = credential.link
      }
      accounts.save(existing)
      return .success((existing, false))
    }
    if let email = credential.email,
      var existing = accounts.account(email: email, tenantID: tenantID)
    {
      guard credential.emailVerified else { return .failure(ErrorAnswer("NEED_CONFIRMATION")) }
      existing.providers.append(credential.link)
      existing.emailVerified = true
      existing.lastLoginAt = now
      accounts.save(existing)
      return .success((existing, false))
    }
    let account = FirebaseAccount(
      localID: FirebaseAccountStore.makeLocalID(), emulatorUserID: credential.user.id,
      tenantID: tenantID, email: credential.email, emailVerified: credential.emailVerified,
      displayName: credential.displayName, photoURL: credential.photoURL,
      providers: [credential.link], createdAt: now, lastLoginAt: now)
    accounts.save(account)
    return .success((account, true))
  }

  /// Links the credential to the account of `idToken`.
  private func link(
    _ credential: VerifiedIdPCredential, toIDToken idToken: String, tenantID: String?, now: Date
  ) -> Result<(FirebaseAccount, Bool), ErrorAnswer> {
    let target: FirebaseAccount
    switch account(ofIDToken: idToken, now: now) {
    case .failure(let error): return .failure(error)
    case .success(let account): target = account
    }
    guard target.tenantID == tenantID else { return .failure(ErrorAnswer("TENANT_ID_MISMATCH")) }
    if let owner = accounts.account(
      providerID: credential.providerID, rawID: credential.rawID, tenantID: tenantID),
      owner.localID != target.localID
    {
      return .failure(ErrorAnswer("FEDERATED_USER_ID_ALREADY_LINKED"))
    }
    if let email = credential.email, let owner = accounts.account(email: email, tenantID: tenantID),
      owner.localID != target.localID
    {
      return .failure(ErrorAnswer("EMAIL_EXISTS"))
    }
    let linked = accounts.update(target.localID) { account in
      account.providers.removeAll { $0.providerID == credential.providerID }
      account.providers.append(credential.link)
      if account.email == nil, let email = credential.email {
        account.email = email
        account.emailVerified = credential.emailVerified
      }
    }
    guard let linked else { return .failure(ErrorAnswer("USER_NOT_FOUND")) }
    return .success((linked, false))
  }

  // MARK: IdP credentials

  func verifyCredential(providerID: String, fields: [String: String], now: Date)
    -> Result<VerifiedIdPCredential, ErrorAnswer>
  {
    switch providerID {
    case "facebook.com":
      if let token = fields["access_token"], !token.isEmpty {
        return facebookAccessToken(token, now: now)
      }
      if let idToken = fields["id_token"], !idToken.isEmpty {
        return idTokenCredential(
          providerID: providerID, idToken: idToken, nonce: fields["nonce"], now: now)
      }
    case "twitter.com":
      if let token = fields["access_token"], let secret = fields["oauth_token_secret"] {
        return twitterToken(token, secret: secret)
      }
    case "google.com":
      return googleCredential(fields, now: now)
    case _ where providerID == "apple.com" || providerID.hasPrefix("oidc."):
      if let idToken = fields["id_token"], !idToken.isEmpty {
        return idTokenCredential(
          providerID: providerID, idToken: idToken, nonce: fields["nonce"], now: now)
      }
    default:
      return .failure(
        ErrorAnswer(
          "INVALID_IDP_RESPONSE : The emulator has no identity provider for \(providerID)."))
    }
    return .failure(
      ErrorAnswer("INVALID_IDP_RESPONSE : The postBody has no credential for \(providerID)."))
  }

  private func facebookAccessToken(_ value: String, now: Date)
    -> Result<VerifiedIdPCredential, ErrorAnswer>
  {
    guard let token = environment.tokens.lookup(value), token.provider == .facebook,
      token.kind == .access, token.extra["app"] == nil, token.isLive(at: now),
      token.clientID == EmulatorApps.facebookAppID, let user = environment.user(token.userID),
      !user.isDisabled
    else {
      return .failure(
        ErrorAnswer(
          "INVALID_IDP_RESPONSE : Invalid Idp Response: access_token is invalid or was issued "
            + "to another app."))
    }
    let id = user.subject(at: .facebook)
    var info: [String: JSONValue] = ["id": .string(id), "name": .string(user.name)]
    if let email = user.email { info["email"] = .string(email) }
    if let picture = user.picture { info["picture"] = ["data": ["url": .string(picture)]] }
    return .success(
      VerifiedIdPCredential(
        providerID: "facebook.com", rawID: id, federatedID: "http://facebook.com/\(id)",
        user: user, email: user.email, emailVerified: false, displayName: user.name,
        photoURL: user.picture, rawUserInfo: .object(info), oauthAccessToken: value,
        oauthExpireIn: token.expiresAt.map { Int($0.timeIntervalSince(now)) }))
  }

  private func twitterToken(_ value: String, secret: String)
    -> Result<VerifiedIdPCredential, ErrorAnswer>
  {
    guard let token = environment.tokens.lookup(value), token.provider == .twitter,
      token.kind == .oauth1Access, !token.revoked, let expected = token.extra["secret"],
      ConstantTime.equals(Array(expected.utf8), Array(secret.utf8)),
      let user = environment.user(token.userID), !user.isDisabled
    else {
      return .failure(
        ErrorAnswer("INVALID_IDP_RESPONSE : Invalid Idp Response: the OAuth 1.0a token is invalid.")
      )
    }
    let id = user.subject(at: .twitter)
    var info: [String: JSONValue] = [
      "id_str": .string(id), "name": .string(user.name), "screen_name": .string(user.id),
    ]
    if let picture = user.picture { info["profile_image_url_https"] = .string(picture) }
    return .success(
      VerifiedIdPCredential(
        providerID: "twitter.com", rawID: id, federatedID: "http://twitter.com/\(id)", user: user,
        email: user.email, emailVerified: false, displayName: user.name, photoURL: user.picture,
        screenName: user.id, rawUserInfo: .object(info), oauthAccessToken: value,
        oauthTokenSecret: secret))
  }

  /// A Facebook Limited Login, LINE or generic OIDC ID token that an emulated provider signed
  /// for its default app, unexpired, with the nonce (raw, or its SHA-256 in hex) when given.
  private func idTokenCredential(providerID: String, idToken: String, nonce: String?, now: Date)
    -> Result<VerifiedIdPCredential, ErrorAnswer>
  {
    func invalid(_ detail: String) -> Result<VerifiedIdPCredential, ErrorAnswer> {
      .failure(ErrorAnswer("INVALID_IDP_RESPONSE : Invalid Idp Response: \(detail)"))
    }
    guard let claims = try? EmulatorKeys.claims(of: idToken),
      let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue
    else { return invalid("id_token is not a JWT with iss and sub.") }
    let issuers: [String: (ProviderID, [String])] = [
      EmulatedFacebook.issuer: (.facebook, [EmulatorApps.facebookAppID]),
      EmulatedLINE.issuer: (.line, [EmulatorApps.lineChannelID]),
      environment.baseURL + "/oidc": (EmulatedOIDC.id, [EmulatorApps.oidcClientID]),
      EmulatedApple.issuer: (.apple, EmulatedApple.clientIDs),
    ]
    guard let (provider, audiences) = issuers[issuer] else {
      return invalid("id_token was not issued by an emulated provider.")
    }
    guard (provider == .apple) == (providerID == "apple.com") else {
      return invalid("a \(provider) ID token cannot sign in as \(providerID).")
    }
    guard providerID.hasPrefix("oidc.") || provider == .facebook || provider == .apple else {
      return invalid("a \(provider) ID token cannot sign in as \(providerID).")
    }
    var keys = (try? JWKSet(json: environment.keys.jwks([.rs256, .es256])))?.keys ?? []
    if provider == .line {
      keys.append(JWK.symmetric(Array(EmulatorApps.lineChannelSecret.utf8), algorithm: .hs256))
    }
    let verifier = JWSVerifier(allowedAlgorithms: [.rs256, .es256, .hs256])
    guard (try? verifier.verify(idToken, keys: JWKSet(keys: keys))) != nil else {
      return invalid("the id_token signature does not verify.")
    }
    guard audiences.contains(where: { VerifiedJWTAudience.contains(claims["aud"], $0) }) else {
      return invalid("the id_token is for another app.")
    }
    guard let exp = claims["exp"]?.doubleValue, now.timeIntervalSince1970 < exp else {
      return invalid("the id_token expired.")
    }
    if let nonce {
      let hashed = HexEncoding.lowercase(SHA256.hash(Array(nonce.utf8)))
      guard let sent = claims["nonce"]?.stringValue, sent == nonce || sent == hashed else {
        return invalid("the nonce does not match the id_token.")
      }
    } else if provider == .facebook {
      return invalid("a Limited Login id_token needs its raw nonce.")
    }
    guard let user = environment.users.first(where: { $0.subject(at: provider) == subject }),
      !user.isDisabled
    else { return invalid("the id_token's user is unknown or disabled.") }
    let email = claims["email"]?.stringValue
    return .success(
      VerifiedIdPCredential(
        providerID: providerID, rawID: subject, federatedID: subject, user: user, email: email,
        // Apple sends "true"/"false" strings.
        emailVerified: claims["email_verified"]?.boolValue
          ?? (claims["email_verified"]?.stringValue == "true"),
        displayName: claims["name"]?.stringValue, photoURL: claims["picture"]?.stringValue,
        rawUserInfo: .object(claims), oauthIDToken: idToken))
  }
}

/// `aud` as a string or an array of strings.
enum VerifiedJWTAudience {
  static func contains(_ aud: JSONValue?, _ expected: String) -> Bool {
    switch aud {
    case .string(let value)?: return value == expected
    case .array(let values)?: return values.contains(.string(expected))
    default: return false
    }
  }
}
