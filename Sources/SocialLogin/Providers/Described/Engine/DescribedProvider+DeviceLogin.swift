import Foundation

extension DescribedProvider {
  /// Asks the description's device endpoint for a device code (RFC 8628 §3.1), with the
  /// client's usual authentication and the description's scope separator.
  ///
  /// - Throws: ``AuthError/Code/unsupported`` when the description has no device endpoint;
  ///   ``AuthError/Code/configuration`` when the provider does not allow the grant for this
  ///   app (GitHub's `device_flow_disabled`); ``AuthError/Code/invalidResponse`` for an
  ///   answer without `device_code`, `user_code`, `verification_uri` or `expires_in`.
  public func startDeviceLogin(scopes: [String]?) async throws -> DeviceAuthorization {
    guard let name = description.deviceEndpoint else {
      throw AuthError(
        .unsupported, "\(description.displayName) offers no device login.", provider: id)
    }
    let scopes = scopes ?? configuration.effectiveScopes
    var fields: [(String, String)] = []
    if description.authorization.sendsScope, !scopes.isEmpty {
      fields.append(("scope", scopes.joined(separator: description.authorization.scopeSeparator)))
    }
    let operation = "The \(description.displayName) device authorization request"
    let (response, now) = try await postForm(
      to: try endpoint(name), fields: fields, operation: operation)
    let object = DescribedAnswers.object(of: response)
    guard (200..<300).contains(response.status), let object,
      DescribedAnswers.errorFields(in: object) == nil
    else {
      throw deviceError(
        DescribedAnswers.failure(
          response, object: object, description: description, operation: operation, now: now))
    }
    return try DescribedAnswers.deviceAuthorization(
      object, receivedAt: now, scopes: scopes, provider: id, operation: operation)
  }

  /// Polls the token endpoint once. `authorization_pending` is pending; `slow_down` carries
  /// the answer's new `interval` when it sends one (GitHub); `expired_token` ends the login
  /// as expired, `access_denied` and `authorization_declined` (Microsoft) as declined;
  /// other errors (`device_flow_disabled`, `incorrect_device_code`, `bad_verification_code`)
  /// end it as they are. On approval, an ID token is verified before the credential is
  /// returned.
  public func pollDeviceLogin(_ authorization: DeviceAuthorization) async throws
    -> DevicePollResult<Credential>
  {
    let grantType = OAuth2Client.deviceCodeGrantType
    let (response, now) = try await postToToken(
      grantType: grantType, fields: [("device_code", authorization.deviceCode.revealed)])
    let operation = "The \(description.displayName) device token request"
    let object = DescribedAnswers.object(of: response)
    if let object, let fields = DescribedAnswers.errorFields(in: object) {
      switch fields.oauth.error {
      case "authorization_pending":
        return .pending
      case "slow_down":
        return .slowDown(interval: object["interval"]?.positiveSeconds(allowingString: true))
      default:
        break
      }
    }
    let credential: Credential
    do {
      credential = try DescribedAnswers.tokenAnswer(
        response, description: description, receivedAt: now,
        requestedScopes: authorization.scopes, operation: operation)
    } catch {
      throw deviceError(error)
    }
    if let idToken = credential.idToken {
      _ = try await validateIDToken(
        idToken.revealed, nonce: nil, accessToken: credential.accessToken.revealed)
    }
    return .approved(credential)
  }

  /// A device-grant error as the error that ends polling.
  private func deviceError(_ error: AuthError) -> AuthError {
    func ended(_ code: AuthError.Code, _ message: String) -> AuthError {
      AuthError(
        code, message, provider: id, httpStatus: error.httpStatus, oauth: error.oauth,
        providerCode: error.providerCode)
    }
    switch error.oauth?.error {
    case "expired_token":
      return ended(
        .deviceCodeExpired,
        "The device code expired before the user approved the login; start again.")
    case "access_denied", "authorization_declined":
      return ended(.accessDenied, "The user denied the device login.")
    case "device_flow_disabled":
      return ended(
        .configuration,
        "\(description.displayName) does not allow the device login for this app "
          + "(device_flow_disabled): enable the device flow in the app's settings.")
    default:
      return error
    }
  }
}

extension DescribedAnswers {
  /// Reads a device authorization answer (RFC 8628 §3.2): `device_code`, `user_code`,
  /// `verification_uri` (Google's older `verification_url`), `expires_in` and `interval`
  /// (5 seconds when absent).
  static func deviceAuthorization(
    _ object: DescribedJSON, receivedAt now: Date, scopes: [String], provider: ProviderID,
    operation: String
  ) throws(AuthError) -> DeviceAuthorization {
    func missing(_ name: String) -> AuthError {
      AuthError(
        .invalidResponse, "\(operation) answered without a valid '\(name)'.", provider: provider)
    }
    guard let deviceCode = object["device_code"]?.stringValue, !deviceCode.isEmpty else {
      throw missing("device_code")
    }
    guard let userCode = object["user_code"]?.stringValue, !userCode.isEmpty,
      userCode.utf8.count <= 64
    else { throw missing("user_code") }
    guard
      let text = (object["verification_uri"] ?? object["verification_url"])?.stringValue,
      let verificationURI = URL(string: text), verificationURI.scheme != nil
    else { throw missing("verification_uri") }
    guard let expiresIn = object["expires_in"]?.positiveSeconds(allowingString: true) else {
      throw missing("expires_in")
    }
    return DeviceAuthorization(
      deviceCode: Secret(deviceCode), userCode: userCode, verificationURI: verificationURI,
      verificationURIComplete: object["verification_uri_complete"]?.stringValue.flatMap {
        URL(string: $0)
      },
      expiresIn: expiresIn,
      interval: object["interval"]?.positiveSeconds(allowingString: true) ?? 5,
      issuedAt: now, scopes: scopes)
  }
}
