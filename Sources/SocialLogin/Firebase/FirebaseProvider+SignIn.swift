import Foundation

/// The tokens and user of a successful `signInWithIdp`.
struct FirebaseSignInResult: Sendable {
  var credential: Credential
  var user: FirebaseUser
}

/// The JSON body of `accounts:signInWithIdp`.
struct SignInWithIdpRequest: Encodable {
  var requestUri: String
  var postBody: String
  var returnSecureToken = true
  var returnIdpCredential = true
  var idToken: String?
  var tenantId: String?
}

extension FirebaseProvider {
  /// Exchanges `credential` for a Firebase user and tokens (`accounts:signInWithIdp`); with
  /// `idToken`, links the credential to that user instead.
  ///
  /// - Throws: ``AuthError`` with Firebase's code (``FirebaseError`` as its cause), including
  ///   the problems Firebase reports with HTTP 200: `needConfirmation`
  ///   (``AuthError/Code/accountExistsWithDifferentCredential``) and `errorMessage`, each with
  ///   the ``FirebaseAccountConflict`` the user needs to link accounts.
  func signInWithIdp(_ credential: FirebaseCredential, linkingTo idToken: Secret? = nil)
    async throws -> FirebaseSignInResult
  {
    let operation = idToken == nil ? "Firebase sign-in" : "Firebase account linking"
    let body = SignInWithIdpRequest(
      requestUri: configuration.requestURI, postBody: try credential.postBody(),
      idToken: idToken?.revealed, tenantId: configuration.tenantID)
    var secrets = credential.secrets
    if let idToken { secrets.append(idToken.revealed) }
    var request = try TransportRequest.json(
      url: try configuration.identityToolkit("accounts:signInWithIdp"), body: body)
    request.timeout = configuration.requestTimeout
    let (object, response) = try await send(request, operation: operation, secrets: secrets)
    do throws(AuthError) {
      return try parseSignIn(object, response: response, operation: operation)
    } catch {
      throw error.masking(secrets)
    }
  }

  func parseSignIn(
    _ object: [String: JSONValue], response: TransportResponse, operation: String
  ) throws(AuthError) -> FirebaseSignInResult {
    let fields = FirebaseFields(object, operation: operation)
    let idpCredential = fields.idpCredential()
    if object["needConfirmation"]?.boolValue == true {
      let conflict = fields.conflict(credential: idpCredential)
      let firebase = FirebaseError(
        code: "NEED_CONFIRMATION", httpStatus: response.status, conflict: conflict)
      var message = "An account already exists with the same email address"
      if !conflict.verifiedProviders.isEmpty {
        message += " (sign-in methods: \(conflict.verifiedProviders.joined(separator: ", ")))"
      }
      throw AuthError(
        .accountExistsWithDifferentCredential,
        message + "; sign in with one of its methods and link this credential.",
        provider: .firebase, httpStatus: response.status, providerCode: firebase.code,
        underlying: firebase)
    }
    if let errorMessage = object["errorMessage"]?.stringValue, !errorMessage.isEmpty {
      var firebase = FirebaseError(message: errorMessage, httpStatus: response.status)
      firebase.conflict = fields.conflict(credential: idpCredential)
      throw firebase.authError(operation: operation)
    }
    if object["mfaPendingCredential"] != nil {
      throw AuthError(
        .unsupported,
        "\(operation) needs a second factor (multi-factor authentication), which this SDK does "
          + "not support.", provider: .firebase, httpStatus: response.status,
        providerCode: "MFA_REQUIRED")
    }
    let localID = try fields.requiredString("localId")
    let idToken = try fields.requiredString("idToken")
    let refreshToken = try fields.requiredString("refreshToken")
    let expiresIn = try fields.lifetime("expiresIn")
    var user = fields.user(localID: localID)
    user.isNewUser = object["isNewUser"]?.boolValue ?? false
    user.rawUserInfo = fields.string("rawUserInfo")
    user.idpCredential = idpCredential
    if let provider = user.signInProvider {
      user.providerData = [
        FirebaseUserInfo(
          providerID: provider, federatedID: user.federatedID, email: user.email,
          displayName: user.displayName, photoURL: user.photoURL?.absoluteString,
          screenName: fields.string("screenName"))
      ]
    }
    return FirebaseSignInResult(
      credential: credential(
        idToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn, response: response),
      user: user)
  }

  /// A session credential: the Firebase ID token is the access token, expiry on the server's
  /// clock when it sent a `Date` header.
  func credential(
    idToken: String, refreshToken: String, expiresIn: TimeInterval, response: TransportResponse
  ) -> Credential {
    let now = clock.wallTime
    let serverDate = response.serverDate
    let issuedAt = serverDate ?? now
    return Credential(
      accessToken: Secret(idToken), refreshToken: Secret(refreshToken), idToken: Secret(idToken),
      tokenType: "bearer", expiresAt: issuedAt.addingTimeInterval(expiresIn), issuedAt: issuedAt,
      serverTimeOffset: serverDate.map { $0.timeIntervalSince(now) } ?? 0)
  }
}

/// Typed reads of a Firebase JSON object, with errors that name the field, never its value.
struct FirebaseFields {
  let object: [String: JSONValue]
  let operation: String

  init(_ object: [String: JSONValue], operation: String) {
    self.object = object
    self.operation = operation
  }

  func string(_ name: String) -> String? {
    guard let value = object[name]?.stringValue, !value.isEmpty else { return nil }
    return value
  }

  func requiredString(_ name: String) throws(AuthError) -> String {
    guard let value = string(name) else {
      throw AuthError(
        .invalidResponse, "\(operation) answered without '\(name)'.", provider: .firebase)
    }
    return value
  }

  /// A lifetime in seconds that Firebase sends as a string (`"3600"`), or as a number.
  func lifetime(_ name: String) throws(AuthError) -> TimeInterval {
    let seconds: Double?
    switch object[name] {
    case .string(let text)?: seconds = Int(text).map(Double.init)
    case .number(let value)?: seconds = value
    default: seconds = nil
    }
    guard let seconds, seconds.isFinite, seconds > 0, seconds <= 86_400 * 366 else {
      throw AuthError(
        .invalidResponse, "\(operation) answered without a valid '\(name)' lifetime.",
        provider: .firebase)
    }
    return seconds
  }

  func user(localID: String) -> FirebaseUser {
    FirebaseUser(
      localID: localID, email: string("email"), emailVerified: object["emailVerified"]?.boolValue,
      displayName: string("displayName") ?? string("fullName"),
      photoURL: string("photoUrl").flatMap(URL.init(string:)), signInProvider: string("providerId"),
      federatedID: string("federatedId"), tenantID: string("tenantId"))
  }

  func idpCredential() -> FirebaseIdPCredential? {
    guard let provider = string("providerId") else { return nil }
    var expiresIn: Int?
    switch object["oauthExpireIn"] {
    case .number(let value)?:
      if value.isFinite, abs(value) < 1e15 { expiresIn = Int(value.rounded()) }
    case .string(let text)?:
      expiresIn = Int(text)
    default:
      break
    }
    let credential = FirebaseIdPCredential(
      providerID: provider, accessToken: string("oauthAccessToken").map { Secret($0) },
      idToken: string("oauthIdToken").map { Secret($0) },
      tokenSecret: string("oauthTokenSecret").map { Secret($0) }, expiresIn: expiresIn,
      pendingToken: string("pendingToken").map { Secret($0) })
    let hasToken =
      credential.accessToken != nil || credential.idToken != nil || credential.pendingToken != nil
    return hasToken ? credential : nil
  }

  func conflict(credential: FirebaseIdPCredential?) -> FirebaseAccountConflict {
    let verified = (object["verifiedProvider"]?.arrayValue ?? []).compactMap(\.stringValue)
    return FirebaseAccountConflict(
      providerID: string("providerId"), email: string("email"), localID: string("localId"),
      verifiedProviders: verified, credential: credential)
  }
}
