import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// Device logins (RFC 8628) where the description names a device endpoint: GitHub's (its
/// `slow_down` carries the new `interval`) and Microsoft's (a ready-made `message`,
/// `authorization_declined`). Approved on the verification page or through
/// `/_emulator/device/approve`.
extension EmulatedDescribed {
  /// The device client: `client_id` alone (device clients are public), or with the right
  /// secret when one is sent.
  private func deviceClient(_ request: EmulatorRequest) -> HTTPResponse? {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return tokenError(
        .badRequest, "invalid_request", "The request body is not a valid form.", request)
    }
    if request.basicCredentials != nil || request.form("client_secret") != nil {
      return authenticateClient(request)
    }
    guard request.form("client_id") == app.clientID else {
      return tokenError(.badClient, "invalid_client", "Unknown client_id.", request)
    }
    return nil
  }

  func deviceAuthorization(_ request: EmulatorRequest, parameters: [String: String])
    -> HTTPResponse
  {
    if let problem = tenantProblem(parameters) {
      return tokenError(.badTenant, "invalid_request", problem, request)
    }
    if let error = deviceClient(request) { return error }
    let scopes = scopes(request.form("scope"))
    let grant = environment.devices.start(
      provider: name, clientID: app.clientID, scopes: scopes, now: request.now,
      lifetime: dialect.deviceLifetime, codePrefix: name.rawValue + "-dc-")
    var verification = environment.baseURL
    if let page = deviceVerification { verification += "/" + page.host + page.path }
    var body: [String: JSONValue] = [
      "device_code": .string(grant.deviceCode), "user_code": .string(grant.userCode),
      "verification_uri": .string(verification),
      "expires_in": .number(grant.expiresAt.timeIntervalSince(grant.issuedAt).rounded(.down)),
      "interval": .number(grant.interval),
    ]
    if dialect.deviceMessage {
      body["message"] = .string(
        "To sign in, use a web browser to open the page \(verification) and enter the code "
          + "\(grant.userCode) to authenticate.")
    }
    return answer(body, request)
  }

  /// The `device_code` grant on the token endpoint, with the dialect's error names.
  func deviceToken(_ request: EmulatorRequest, tenant: String?) -> HTTPResponse {
    if let error = deviceClient(request) { return error }
    switch environment.pollDeviceGrant(request, provider: name, clientID: app.clientID) {
    case .success(let found):
      return issueTokens(
        TokenIssue(
          user: found.user, scopes: found.grant.scopes, grantID: TokenRegistry.makeGrantID(),
          nonce: nil, tenant: tenant, refresh: description.refresh.rotation != .unsupported),
        request)
    case .failure(.missingCode):
      return tokenError(.badRequest, "invalid_request", "device_code is required.", request)
    case .failure(.pending):
      return tokenError(
        .devicePending, "authorization_pending", "The user has not answered yet.", request)
    case .failure(.slowDown(let interval)):
      return tokenError(
        .deviceSlowDown, "slow_down", "Polling too fast; add 5 seconds to the interval.",
        request,
        extra: dialect.slowDownCarriesInterval ? ["interval": .number(interval)] : [:])
    case .failure(.denied):
      return tokenError(
        .deviceDenied, "access_denied", "The user denied the device login.", request)
    case .failure(.expired):
      return tokenError(.deviceExpired, "expired_token", "The device code expired.", request)
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure:
      return tokenError(.deviceUnknown, "invalid_grant", "Unknown or used device_code.", request)
    }
  }
}
