import Foundation

extension OAuth2Client {
  /// The RFC 8628 `grant_type` for polling.
  static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  /// The longest wait between two polls, whatever the server asks for.
  static let maximumPollInterval: TimeInterval = 3600

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
  /// `authorization_pending` polls again; `slow_down` adds 5 seconds to the interval for every
  /// later poll. Polling stops with:
  /// - the tokens, on success;
  /// - ``AuthError/Code/deviceCodeExpired`` on `expired_token`, or when the device code's own
  ///   expiry passes;
  /// - ``AuthError/Code/accessDenied`` on `access_denied`;
  /// - any other error as it is (a transient one can be retried by calling this again with
  ///   the same authorization);
  /// - `CancellationError` as soon as the polling task is cancelled.
  ///
  /// ```swift
  /// let poll = Task { try await client.pollDeviceToken(authorization) }
  /// // ... the user gives up:
  /// poll.cancel()
  /// ```
  public func pollDeviceToken(
    _ authorization: DeviceAuthorization
  ) async throws -> OAuth2TokenResponse {
    // Clamped so that a hostile `interval` can neither spin nor overflow the sleep.
    var interval =
      authorization.interval.isFinite
      ? min(max(authorization.interval, 1), Self.maximumPollInterval) : 5
    while true {
      // Never sleep past the device code's expiry: end polling when it comes.
      let remaining = authorization.expiresAt.timeIntervalSince(clock.wallTime)
      if remaining > 0 {
        try await clock.sleep(for: .milliseconds(Int64(min(interval, remaining) * 1000)))
      }
      guard clock.wallTime < authorization.expiresAt else {
        throw AuthError(
          .deviceCodeExpired,
          "The device code expired before the user approved the login; start again.",
          provider: provider)
      }
      do {
        return try await requestToken(
          grantType: Self.deviceCodeGrantType,
          fields: [("device_code", authorization.deviceCode.revealed)],
          requestedScopes: authorization.scopes)
      } catch let error as AuthError {
        switch error.oauth?.error {
        case "authorization_pending":
          continue
        case "slow_down":
          interval = min(interval + 5, Self.maximumPollInterval)
          continue
        case "expired_token":
          throw AuthError(
            .deviceCodeExpired,
            "The device code expired before the user approved the login; start again.",
            provider: provider, httpStatus: error.httpStatus, oauth: error.oauth)
        case "access_denied":
          throw AuthError(
            .accessDenied, "The user denied the device login.",
            provider: provider, httpStatus: error.httpStatus, oauth: error.oauth)
        default:
          throw error
        }
      }
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
