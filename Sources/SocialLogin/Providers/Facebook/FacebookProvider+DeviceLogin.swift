import Foundation

/// Facebook Login for Devices: `POST device/login` with the client token, then
/// `POST device/login_status` until the user approves at `facebook.com/device`.
///
/// It is not RFC 8628: the request and answer carry `code` (the device code), and the poll's
/// verdicts are Graph errors told apart by `error_subcode`: `1349174` pending, `1349172`
/// polling too fast, `1349173` declined, `1349152` expired.
///
/// A device login uses the client token, never the app secret (a device or CLI that holds
/// the app secret could impersonate the app). The user token comes straight from Graph over
/// TLS in answer to this client's own poll with its own device code, so it is trusted as a
/// code exchange's token is: it is not inspected with `debug_token`, which needs the app
/// secret. The profile comes from `/me` with the user token, and with `appsecret_proof` only
/// when an app secret is configured; an app with "Require App Secret" on must configure it
/// (on a server), or Graph refuses the profile request.
extension FacebookProvider: DeviceLoginProvider {
  /// The `error_subcode` of a login that is still waiting for the user.
  static let devicePendingSubcode = 1_349_174
  /// The `error_subcode` of a poll that came too soon.
  static let deviceSlowDownSubcode = 1_349_172
  /// The `error_subcode` of a login the user declined.
  static let deviceDeclinedSubcode = 1_349_173
  /// The `error_subcode` of an expired device code.
  static let deviceExpiredSubcode = 1_349_152

  /// The longest device-code lifetime accepted from an answer (a day); longer is clamped,
  /// so a hostile answer cannot keep a login polling for ever.
  static let maximumDeviceLifetime: TimeInterval = 86_400

  /// Asks `device/login` for a code (`access_token={app-id}|{client-token}`, comma-separated
  /// `scope`).
  ///
  /// - Throws: ``AuthError/Code/configuration`` without a client token
  ///   (``FacebookConfiguration/clientToken``) or when Graph refuses the app (for example
  ///   "Login from Devices" is off); ``AuthError/Code/invalidResponse`` for an answer without
  ///   `code`, `user_code`, `verification_uri` or `expires_in`.
  public func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization {
    let operation = "The Facebook device login request (device/login)"
    let requested = scopes ?? configuration.scopes
    let object = try await deviceRequest(
      configuration.deviceLoginEndpoint,
      [("scope", requested.joined(separator: ","))], operation: operation)
    func missing(_ name: String) -> AuthError {
      AuthError(
        .invalidResponse, "\(operation) answered without a valid '\(name)'.",
        provider: .facebook)
    }
    guard let code = object["code"]?.stringValue, !code.isEmpty else { throw missing("code") }
    guard let userCode = object["user_code"]?.stringValue, !userCode.isEmpty else {
      throw missing("user_code")
    }
    guard let text = object["verification_uri"]?.stringValue, let uri = URL(string: text),
      uri.scheme == "https" || uri.scheme == "http", uri.host != nil
    else { throw missing("verification_uri") }
    guard let expiresIn = object["expires_in"].flatMap(OAuth2TokenResponse.seconds),
      expiresIn > 0
    else { throw missing("expires_in") }
    return DeviceAuthorization(
      deviceCode: Secret(code), userCode: userCode, verificationURI: uri,
      expiresIn: min(expiresIn, Self.maximumDeviceLifetime),
      interval: object["interval"].flatMap(OAuth2TokenResponse.seconds) ?? 5,
      issuedAt: clock.wallTime, scopes: requested)
  }

  /// Polls `device/login_status` once (`access_token={app-id}|{client-token}`, `code`).
  ///
  /// - Returns: ``DevicePollResult/pending`` for subcode `1349174`,
  ///   ``DevicePollResult/slowDown(interval:)`` for `1349172`, or the user's token.
  /// - Throws: ``AuthError/Code/accessDenied`` (`access_denied`) for `1349173`,
  ///   ``AuthError/Code/deviceCodeExpired`` (`expired_token`) for `1349152`, other Graph
  ///   errors as the rest of the provider classifies them (throttling and 5xx are transient:
  ///   polling goes on), ``AuthError/Code/invalidResponse`` for a success without a token.
  public func pollDeviceLogin(_ authorization: DeviceAuthorization) async throws
    -> DevicePollResult<Credential>
  {
    let operation = "The Facebook device login poll (device/login_status)"
    let object: [String: JSONValue]
    do {
      object = try await deviceRequest(
        configuration.deviceLoginStatusEndpoint,
        [("code", authorization.deviceCode.revealed)], operation: operation)
    } catch let error as AuthError {
      return try Self.deviceOutcome(of: error)
    }
    guard let token = object["access_token"]?.stringValue, !token.isEmpty else {
      throw AuthError(
        .invalidResponse, "\(operation) answered without an 'access_token'.",
        provider: .facebook)
    }
    let now = clock.wallTime
    var credential = Credential(
      accessToken: Secret(token), scopes: authorization.scopes,
      expiresAt: object["expires_in"].flatMap(OAuth2TokenResponse.seconds).flatMap {
        $0 > 0 ? now.addingTimeInterval($0) : nil
      },
      issuedAt: now)
    if let dataAccess = object["data_access_expiration_time"].flatMap(FacebookGraphError.integer) {
      credential.extra[Self.dataAccessExpiresAtKey] = String(dataAccess)
    }
    credential.refreshToken = configuration.renewal == .reexchange ? credential.accessToken : nil
    return .approved(credential)
  }

  /// What a Graph error answer to a poll means: keep polling, or the typed error that ends
  /// the login. Any other error is thrown as the provider classified it.
  static func deviceOutcome(of error: AuthError) throws -> DevicePollResult<Credential> {
    func ended(_ code: AuthError.Code, _ oauthError: String, _ message: String) -> AuthError {
      AuthError(
        code, message, provider: .facebook, httpStatus: error.httpStatus,
        oauth: AuthError.OAuthErrorFields(error: oauthError),
        providerCode: error.providerCode, providerSubcode: error.providerSubcode)
    }
    switch error.providerSubcode.flatMap({ Int($0) }) {
    case devicePendingSubcode?:
      return .pending
    case deviceSlowDownSubcode?:
      return .slowDown(interval: nil)
    case deviceDeclinedSubcode?:
      throw ended(.accessDenied, "access_denied", "The user declined the Facebook device login.")
    case deviceExpiredSubcode?:
      throw ended(
        .deviceCodeExpired, "expired_token",
        "The Facebook device code expired before the user approved the login; start again.")
    default:
      throw error
    }
  }

  /// POSTs `fields` plus `access_token={app-id}|{client-token}` as a form to `url` and
  /// returns the JSON object of a successful answer; the client token and device code never
  /// appear in an error.
  private func deviceRequest(
    _ url: URL, _ fields: [(String, String)], operation: String
  ) async throws -> [String: JSONValue] {
    guard let clientToken = configuration.clientToken, !clientToken.isEmpty else {
      throw AuthError(
        .configuration,
        "Facebook Login for Devices needs the app's client token "
          + "(FacebookConfiguration.clientToken, from App Dashboard > Settings > Advanced); "
          + "it never uses the app secret.",
        provider: .facebook)
    }
    let access = "\(configuration.appID)|\(clientToken.revealed)"
    let all = [("access_token", access)] + fields
    let secrets = [access, clientToken.revealed] + fields.filter { $0.0 == "code" }.map(\.1)
    do {
      let request = TransportRequest(
        method: "POST", url: url,
        headers: [
          "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded",
        ],
        body: Data(FormEncoding.encode(all).utf8), timeout: configuration.requestTimeout)
      let response = try await send(request, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess, let object = response.jsonObject, object["error"] == nil else {
        throw FacebookGraphError.failure(response, operation: operation, now: now)
      }
      return object
    } catch let error as AuthError where error.code == .invalidToken {
      // The only token here is the app's client token: a wrong one is a setting to fix, and
      // no user session is involved.
      throw AuthError(
        .configuration,
        "\(operation) failed because Graph did not accept the client token "
          + "(FacebookConfiguration.clientToken) for the app id; check both in the Meta "
          + "developer dashboard and that \"Login from Devices\" is on.",
        provider: .facebook, httpStatus: error.httpStatus, providerCode: error.providerCode,
        providerSubcode: error.providerSubcode, underlying: error.masking(secrets))
    } catch let error as AuthError {
      throw error.masking(secrets)
    }
  }
}
