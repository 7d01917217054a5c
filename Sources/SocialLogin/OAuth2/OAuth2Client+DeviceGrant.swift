import Foundation

extension OAuth2Client {
  /// The RFC 8628 `grant_type` for polling.
  static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  /// Starts an RFC 8628 device authorization (§3.1–3.2).
  ///
  /// ```swift
  /// let authorization = try await client.requestDeviceAuthorization(scopes: ["openid"])
  /// show(authorization.userCode, at: authorization.verificationURI)
  /// ```
  ///
  /// - Parameters:
  ///   - scopes: The scopes to request; the configured scopes when `nil`.
  ///   - additionalFields: Provider-specific form fields.
  /// - Throws: ``AuthError/Code/unsupported`` without a device authorization endpoint;
  ///   ``AuthError/Code/invalidResponse`` when the answer lacks `device_code`, `user_code`,
  ///   `verification_uri` or `expires_in`; otherwise as
  ///   ``requestToken(grantType:fields:requestedScopes:)``.
  public func requestDeviceAuthorization(
    scopes: [String]? = nil, additionalFields: [(String, String)] = []
  ) async throws -> DeviceAuthorization {
    guard let endpoint = configuration.deviceAuthorizationEndpoint else {
      throw AuthError(
        .unsupported, "This provider has no device authorization endpoint configured.",
        provider: provider)
    }
    let operation = "The device authorization request"
    let scopes = scopes ?? configuration.scopes
    var fields: [(String, String)] = []
    if !scopes.isEmpty {
      fields.append(("scope", scopes.joined(separator: configuration.scopeSeparator)))
    }
    fields += additionalFields
    return try await maskingSecrets(of: fields) {
      let response = try await post(to: endpoint, fields: fields, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess else {
        throw response.oauth2Failure(operation, provider: provider, now: now)
      }
      return try deviceAuthorization(
        from: response, receivedAt: now, scopes: scopes, operation: operation)
    }
  }

  /// Polls the token endpoint until the user approves or denies the device login
  /// (RFC 8628 §3.4–3.5).
  ///
  /// Sleeps ``DeviceAuthorization/interval`` on the client's clock before each poll;
  /// `authorization_pending` polls again; `slow_down` adds 5 seconds to the interval for this
  /// and every later poll (or takes the longer `interval` the answer carries, as GitHub
  /// sends). Transient failures (network, 5xx, an answer that is no answer) double the
  /// interval and polling goes on until the code expires. Polling stops with:
  /// - the tokens, on success;
  /// - ``AuthError/Code/deviceCodeExpired`` on `expired_token`, on `invalid_grant` (Auth0
  ///   answers `expired_token` once, then `invalid_grant`), or when the device code's own
  ///   expiry passes;
  /// - ``AuthError/Code/accessDenied`` on `access_denied` (Microsoft: `authorization_declined`);
  /// - ``AuthError/Code/configuration`` on `device_flow_disabled` (the app does not allow the
  ///   grant at the provider);
  /// - any other error as it is;
  /// - `CancellationError` as soon as the polling task is cancelled.
  ///
  /// The error value decides, never the status: Auth0 sends `authorization_pending` with 403
  /// and `slow_down` with 429, Google has been seen sending 428.
  ///
  /// ```swift
  /// let poll = Task { try await client.pollDeviceToken(authorization) }
  /// // ... the user gives up:
  /// poll.cancel()
  /// ```
  public func pollDeviceToken(
    _ authorization: DeviceAuthorization
  ) async throws -> OAuth2TokenResponse {
    try await DevicePolling.run(authorization, clock: clock, provider: provider) {
      try await pollDeviceTokenOnce(authorization)
    }
  }

  /// Polls the token endpoint once for a device authorization, without waiting: the step
  /// ``pollDeviceToken(_:)`` repeats, for providers that run their own schedule.
  ///
  /// - Returns: ``DevicePollResult/pending``, ``DevicePollResult/slowDown(interval:)`` with the
  ///   `interval` the answer carries, if any, or the tokens.
  /// - Throws: As ``pollDeviceToken(_:)`` for each error value; transient errors as they are.
  public func pollDeviceTokenOnce(
    _ authorization: DeviceAuthorization
  ) async throws -> DevicePollResult<OAuth2TokenResponse> {
    let operation = "The device token request"
    let fields = [
      ("grant_type", Self.deviceCodeGrantType),
      ("device_code", authorization.deviceCode.revealed),
    ]
    return try await maskingSecrets(of: fields) {
      let response = try await post(
        to: configuration.tokenEndpoint, fields: fields, operation: operation)
      let now = clock.wallTime
      guard response.isSuccess else {
        let error = response.oauth2Failure(operation, provider: provider, now: now)
        return try deviceOutcome(of: error, slowDownInterval: response.jsonObject?["interval"])
      }
      return .approved(
        try OAuth2TokenResponse(
          response: response, receivedAt: now, requestedScopes: authorization.scopes,
          scopeSeparator: configuration.scopeSeparator, operation: operation,
          provider: provider))
    }
  }

  /// What a device-grant error answer means: keep polling, or the typed error that ends it.
  private func deviceOutcome(
    of error: AuthError, slowDownInterval: JSONValue?
  ) throws(AuthError) -> DevicePollResult<OAuth2TokenResponse> {
    func ended(_ code: AuthError.Code, _ message: String) -> AuthError {
      AuthError(
        code, message, provider: provider, httpStatus: error.httpStatus, oauth: error.oauth)
    }
    switch error.oauth?.error {
    case "authorization_pending":
      return .pending
    case "slow_down":
      return .slowDown(interval: slowDownInterval.flatMap(OAuth2TokenResponse.seconds))
    case "expired_token", "invalid_grant":
      throw ended(
        .deviceCodeExpired,
        "The device code expired before the user approved the login; start again.")
    case "access_denied", "authorization_declined":
      throw ended(.accessDenied, "The user denied the device login.")
    case "device_flow_disabled":
      throw ended(
        .configuration,
        "The provider does not allow the device login for this app (device_flow_disabled): "
          + "enable the device flow in the app's settings at the provider.")
    default:
      throw error
    }
  }

  private func deviceAuthorization(
    from response: TransportResponse, receivedAt now: Date, scopes: [String], operation: String
  ) throws(AuthError) -> DeviceAuthorization {
    guard let object = response.jsonObject else {
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: provider, httpStatus: response.status)
    }
    func missing(_ name: String) -> AuthError {
      AuthError(
        .invalidResponse, "\(operation) answered without a valid '\(name)'.",
        provider: provider, httpStatus: response.status)
    }
    guard let deviceCode = object["device_code"]?.stringValue, !deviceCode.isEmpty else {
      throw missing("device_code")
    }
    guard let userCode = object["user_code"]?.stringValue, !userCode.isEmpty else {
      throw missing("user_code")
    }
    // Google's early implementation says `verification_url`.
    guard
      let text = (object["verification_uri"] ?? object["verification_url"])?.stringValue,
      let verificationURI = URL(string: text), verificationURI.scheme != nil
    else { throw missing("verification_uri") }
    guard let expiresIn = object["expires_in"].flatMap(OAuth2TokenResponse.seconds) else {
      throw missing("expires_in")
    }
    let complete = object["verification_uri_complete"]?.stringValue.flatMap { URL(string: $0) }
    return DeviceAuthorization(
      deviceCode: Secret(deviceCode),
      userCode: userCode,
      verificationURI: verificationURI,
      verificationURIComplete: complete,
      expiresIn: expiresIn,
      interval: object["interval"].flatMap(OAuth2TokenResponse.seconds) ?? 5,
      issuedAt: now,
      scopes: scopes)
  }
}
