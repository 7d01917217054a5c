import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

extension EmulatorApps {
  /// The project the emulated Firebase Authentication serves (a `demo-` project, as the
  /// Firebase emulators use for projects that exist nowhere else).
  public static let firebaseProjectID = "demo-sociallogin"
  /// An API key for the emulated Firebase Authentication; like the Firebase Auth emulator, it
  /// accepts any non-empty key.
  public static let firebaseAPIKey = "emulator-firebase-api-key"
  /// The project number Secure Token answers with (`project_id`).
  public static let firebaseProjectNumber = "1000000000042"
}

/// Firebase Authentication as the Firebase Auth emulator speaks it, under
/// `identitytoolkit.googleapis.com` and `securetoken.googleapis.com`, so an app pointed at this
/// emulator with `FIREBASE_AUTH_EMULATOR_HOST` signs in with the emulated providers' tokens.
///
/// - `accounts:signInWithIdp` verifies the IdP credential against the emulated provider that
///   issued it: a Facebook access token or Limited Login ID token, an X OAuth 1.0a token and
///   secret, a LINE or generic OIDC ID token (`oidc.<name>`); links with `idToken`; reports
///   `needConfirmation` and, with `returnIdpCredential`, `errorMessage` with HTTP 200.
/// - ID tokens are unsigned (`alg: none`) with the claims of a production token, like the
///   Firebase Auth emulator's; refresh tokens live in the emulator's token registry, so
///   `POST /_emulator/tokens/revoke {"provider":"firebase"}` revokes them (`TOKEN_EXPIRED`).
/// - `accounts:lookup` and `accounts:update` in the client form (`idToken`) and the admin form
///   (`/v1/projects/{project}/...` with `Authorization: Bearer owner`), which can disable users
///   (`disableUser`) and revoke their tokens (`validSince`). A disabled emulator user
///   (`POST /_emulator/users` with `"disabled": true`) disables their Firebase account too.
struct EmulatedFirebase: EmulatedProvider {
  let environment: EmulatorEnvironment
  let name = ProviderID.firebase
  let accounts = FirebaseAccountStore()

  static let identityToolkit = "identitytoolkit.googleapis.com"
  static let secureToken = "securetoken.googleapis.com"
  var projectID: String { EmulatorApps.firebaseProjectID }

  init(_ environment: EmulatorEnvironment) { self.environment = environment }

  var routes: [EmulatorRoute] {
    let host = Self.identityToolkit
    let endpoint = "identitytoolkit"
    return [
      EmulatorRoute(["GET"], host, "/v1/projects", endpoint: endpoint, projectConfig),
      EmulatorRoute(["POST"], host, "/v1/accounts:signInWithIdp", endpoint: endpoint) {
        keyed($0, signInWithIdp)
      },
      EmulatorRoute(["POST"], host, "/v1/accounts:lookup", endpoint: endpoint) {
        keyed($0, lookup)
      },
      EmulatorRoute(["POST"], host, "/v1/accounts:update", endpoint: endpoint) {
        keyed($0, update)
      },
      EmulatorRoute(["POST"], host, "/v1/projects/{any}/accounts:lookup", endpoint: endpoint) {
        admin($0, adminLookup)
      },
      EmulatorRoute(["POST"], host, "/v1/projects/{any}/accounts:update", endpoint: endpoint) {
        admin($0, adminUpdate)
      },
      EmulatorRoute(["POST"], Self.secureToken, "/v1/token", endpoint: "securetoken") {
        keyed($0, token)
      },
    ]
  }

  var status: JSONValue {
    [
      "name": "firebase", "project_id": .string(projectID),
      "api_key": .string(EmulatorApps.firebaseAPIKey),
      "environment": .string(
        "FIREBASE_AUTH_EMULATOR_HOST="
          + environment.baseURL.replacingOccurrences(
            of: "http://", with: "")),
    ]
  }

  // MARK: Error shapes

  /// Identity Toolkit's error: `{"error":{"code","message","errors":[...]}}`.
  static func error(_ message: String, status: Int = 400, reason: String = "invalid")
    -> HTTPResponse
  {
    EmulatorJSON.response(
      [
        "error": [
          "code": .number(Double(status)), "message": .string(message),
          "errors": [["message": .string(message), "domain": "global", "reason": .string(reason)]],
        ]
      ], status: status)
  }

  /// Secure Token's error: `{"error":{"code","message","status"}}`.
  static func tokenError(_ message: String, status: Int = 400, kind: String = "INVALID_ARGUMENT")
    -> HTTPResponse
  {
    EmulatorJSON.response(
      [
        "error": [
          "code": .number(Double(status)), "message": .string(message), "status": .string(kind),
        ]
      ],
      status: status)
  }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    let message: String
    let kind: String
    switch status {
    case 429:
      (message, kind) = (
        "QUOTA_EXCEEDED : Exceeded quota for the emulated project.", "RESOURCE_EXHAUSTED"
      )
    case 503: (message, kind) = ("The service is currently unavailable.", "UNAVAILABLE")
    case 500...: (message, kind) = ("Internal error encountered.", "INTERNAL")
    default: (message, kind) = (HTTPResponse.standardReason(for: status), "FAILED_PRECONDITION")
    }
    let response = EmulatorJSON.response(
      [
        "error": [
          "code": .number(Double(status)), "message": .string(message), "status": .string(kind),
          "errors": [["message": .string(message), "domain": "global", "reason": "backendError"]],
        ]
      ], status: status)
    return withRetryAfter(response, status: status, fault: fault)
  }

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    Self.tokenError("TOKEN_EXPIRED")
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    endpoint == "securetoken" ? Self.tokenError("USER_DISABLED") : Self.error("USER_DISABLED")
  }

  func notFound(_ request: EmulatorRequest) -> HTTPResponse {
    Self.error("Not Found", status: 404, reason: "notFound")
  }

  // MARK: Request gates

  /// Runs `body` when the request carries an API key (`?key=` or `X-Goog-Api-Key`), with its
  /// JSON (or, for Secure Token, form) body.
  func keyed(
    _ request: EmulatorRequest, _ body: (EmulatorRequest, [String: JSONValue]) -> HTTPResponse
  ) -> HTTPResponse {
    let key = request.query("key") ?? request.http.headers["X-Goog-Api-Key"]
    guard let key, !key.isEmpty else {
      return Self.error(
        "The request is missing a valid API key.", status: 403, reason: "forbidden")
    }
    guard let object = Self.body(of: request) else {
      return Self.error("Invalid JSON payload received.", reason: "parseError")
    }
    return body(request, object)
  }

  /// Runs `body` for the admin forms: `Authorization: Bearer owner` (what the Admin SDKs send
  /// to the emulator) for this emulator's project.
  func admin(
    _ request: EmulatorRequest, _ body: (EmulatorRequest, [String: JSONValue]) -> HTTPResponse
  ) -> HTTPResponse {
    guard request.bearerToken?.lowercased() == "owner" else {
      return Self.error(
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login "
          + "cookie or other valid authentication credential.", status: 401, reason: "authError")
    }
    let segments = request.path.split(separator: "/")
    guard segments.count == 4, segments[2] == projectID else {
      return Self.error(
        "PROJECT_NOT_FOUND : the emulator serves the project \(projectID).", status: 400)
    }
    guard let object = Self.body(of: request) else {
      return Self.error("Invalid JSON payload received.", reason: "parseError")
    }
    return body(request, object)
  }

  /// The body as an object: JSON, or a form (Secure Token accepts both). Keys are kept as sent.
  static func body(of request: EmulatorRequest) -> [String: JSONValue]? {
    if !request.form.isEmpty {
      var object: [String: JSONValue] = [:]
      for item in request.form where object[item.name] == nil {
        object[item.name] = .string(item.value)
      }
      return object
    }
    if request.isMalformedForm { return nil }
    if request.http.body.isEmpty { return [:] }
    return EmulatorJSON.decode(request.http.body)?.objectValue
  }

  // MARK: Secure Token

  func token(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    let grantType = (body["grant_type"] ?? body["grantType"])?.stringValue
    guard let grantType, !grantType.isEmpty else { return Self.tokenError("MISSING_GRANT_TYPE") }
    guard grantType == "refresh_token" else { return Self.tokenError("INVALID_GRANT_TYPE") }
    guard let value = (body["refresh_token"] ?? body["refreshToken"])?.stringValue, !value.isEmpty
    else { return Self.tokenError("MISSING_REFRESH_TOKEN") }
    guard let record = environment.tokens.lookup(value), record.provider == name,
      record.kind == .refresh, let localID = record.extra["localId"]
    else { return Self.tokenError("INVALID_REFRESH_TOKEN") }
    guard let account = accounts.account(localID) else { return Self.tokenError("USER_NOT_FOUND") }
    guard !isDisabled(account) else { return Self.tokenError("USER_DISABLED") }
    guard !record.revoked, !record.spent,
      account.validSince.map({ record.issuedAt >= $0 }) ?? true
    else { return Self.tokenError("TOKEN_EXPIRED") }
    let issued = issueTokens(
      for: account, signInProvider: record.extra["signInProvider"] ?? "custom", now: request.now)
    return EmulatorJSON.response([
      "id_token": .string(issued.idToken), "access_token": .string(issued.idToken),
      "expires_in": .string(issued.expiresIn), "token_type": "Bearer",
      "refresh_token": .string(issued.refreshToken),
      "user_id": .string(account.localID),
      "project_id": .string(EmulatorApps.firebaseProjectNumber),
    ])
  }

  // MARK: Tokens

  struct IssuedFirebaseTokens {
    var idToken: String
    var refreshToken: String
    /// The ID token's lifetime in whole seconds, as Firebase's `expiresIn` / `expires_in`.
    var expiresIn: String
  }

  /// An unsigned ID token with a production token's claims, living the Firebase access-token
  /// lifetime (one hour unless `POST /_emulator/lifetimes` or `setLifetimes` changed it), and
  /// a refresh token.
  func issueTokens(for account: FirebaseAccount, signInProvider: String, now: Date)
    -> IssuedFirebaseTokens
  {
    let iat = now.timeIntervalSince1970.rounded(.down)
    let lifetime = environment.lifetimes(for: name).accessToken.rounded(.down)
    var identities: [String: JSONValue] = [:]
    if let email = account.email { identities["email"] = [.string(email)] }
    for info in account.providers {
      var ids = identities[info.providerID]?.arrayValue ?? []
      ids.append(.string(info.rawID))
      identities[info.providerID] = .array(ids)
    }
    var firebase: [String: JSONValue] = [
      "identities": .object(identities), "sign_in_provider": .string(signInProvider),
    ]
    if let tenantID = account.tenantID { firebase["tenant"] = .string(tenantID) }
    var claims: [String: JSONValue] = [
      "iss": .string("https://securetoken.google.com/\(projectID)"), "aud": .string(projectID),
      "sub": .string(account.localID), "user_id": .string(account.localID),
      "iat": .number(iat), "exp": .number(iat + lifetime),
      "auth_time": .number(account.lastLoginAt.timeIntervalSince1970.rounded(.down)),
      "email_verified": .bool(account.emailVerified),
      "firebase": .object(firebase),
    ]
    if let email = account.email { claims["email"] = .string(email) }
    if let name = account.displayName { claims["name"] = .string(name) }
    if let picture = account.photoURL { claims["picture"] = .string(picture) }
    let header = Base64URL.encode(EmulatorJSON.encode(["alg": "none", "typ": "JWT"]))
    let idToken = header + "." + Base64URL.encode(EmulatorJSON.encode(.object(claims))) + "."
    let refresh = TokenRegistry.makeValue(prefix: "AMf-vB", byteCount: 48)
    environment.tokens.insert(
      IssuedToken(
        value: refresh, kind: .refresh, provider: name, clientID: projectID,
        userID: account.emulatorUserID, scopes: [], issuedAt: now, expiresAt: nil,
        grantID: account.localID,
        extra: ["localId": account.localID, "signInProvider": signInProvider]))
    return IssuedFirebaseTokens(
      idToken: idToken, refreshToken: refresh, expiresIn: String(Int(lifetime)))
  }

  /// The account of one of this emulator's ID tokens, or the error Firebase gives for it.
  func account(ofIDToken token: String, now: Date) -> Result<FirebaseAccount, ErrorAnswer> {
    guard let claims = try? EmulatorKeys.claims(of: token),
      claims["iss"]?.stringValue == "https://securetoken.google.com/\(projectID)",
      let localID = claims["user_id"]?.stringValue, let iat = claims["iat"]?.doubleValue
    else { return .failure(ErrorAnswer("INVALID_ID_TOKEN")) }
    guard let account = accounts.account(localID) else {
      return .failure(ErrorAnswer("USER_NOT_FOUND"))
    }
    if let exp = claims["exp"]?.doubleValue, now.timeIntervalSince1970 >= exp {
      return .failure(ErrorAnswer("TOKEN_EXPIRED"))
    }
    if let validSince = account.validSince, iat < validSince.timeIntervalSince1970.rounded(.down) {
      return .failure(ErrorAnswer("TOKEN_EXPIRED"))
    }
    guard !isDisabled(account) else { return .failure(ErrorAnswer("USER_DISABLED")) }
    return .success(account)
  }

  /// Disabled in Firebase, or the emulator user behind the account is disabled.
  func isDisabled(_ account: FirebaseAccount) -> Bool {
    account.disabled || environment.user(account.emulatorUserID)?.isDisabled == true
  }

  /// An Identity Toolkit error message (`CODE : detail`).
  struct ErrorAnswer: Error {
    let message: String
    init(_ message: String) { self.message = message }
    var response: HTTPResponse { EmulatedFirebase.error(message) }
  }
}
