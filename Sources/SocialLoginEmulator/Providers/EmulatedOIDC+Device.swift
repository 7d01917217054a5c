import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// The generic OpenID provider's device authorization grant (RFC 8628): the device
/// authorization endpoint, the `device_code` grant on the token endpoint, and a verification
/// page a browser can use.
extension EmulatedOIDC {
  static let deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"

  var deviceRoutes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["POST"], "oidc", "/device_authorization", endpoint: "device_authorization",
        deviceAuthorization),
      EmulatorRoute(["GET", "POST"], "oidc", "/device", endpoint: "device_verification") {
        request in
        EmulatedDeviceVerification.page(
          request, environment: environment, provider: name, action: issuer + "/device",
          title: "OpenID Provider")
      },
    ]
  }

  /// The client of a device request: the confidential client (Basic or post secret) or the
  /// same client as a public one (`client_id` alone), as device clients often are.
  private func deviceClient(_ request: EmulatorRequest) -> HTTPResponse? {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "The request body is not a valid form.")
    }
    if request.basicCredentials != nil || request.form("client_secret") != nil {
      return authenticateClient(request)
    }
    guard request.form("client_id") == EmulatorApps.oidcClientID else {
      return Self.oauthError("invalid_client", "Unknown client_id.", status: 401)
    }
    return nil
  }

  func deviceAuthorization(_ request: EmulatorRequest) -> HTTPResponse {
    if let error = deviceClient(request) { return error }
    let scopes = (request.form("scope") ?? "openid").split(separator: " ").map(String.init)
    let grant = environment.devices.start(
      provider: name, clientID: EmulatorApps.oidcClientID, scopes: scopes, now: request.now,
      codePrefix: "oidcdc-")
    let verification = issuer + "/device"
    return EmulatorJSON.response([
      "device_code": .string(grant.deviceCode), "user_code": .string(grant.userCode),
      "verification_uri": .string(verification),
      "verification_uri_complete": .string(
        verification + "?user_code=" + HTTPForm.encodeComponent(grant.userCode)),
      "expires_in": EmulatorJSON.number(grant.expiresAt.timeIntervalSince(grant.issuedAt)),
      "interval": EmulatorJSON.number(grant.interval),
    ])
  }

  /// The `device_code` grant (RFC 8628 §3.4–3.5), with its standard errors.
  func deviceToken(_ request: EmulatorRequest) -> HTTPResponse {
    if let error = deviceClient(request) { return error }
    switch environment.pollDeviceGrant(
      request, provider: name, clientID: EmulatorApps.oidcClientID)
    {
    case .success(let found):
      return issueTokens(
        user: found.user, scopes: found.grant.scopes,
        grantID: TokenRegistry.makeValue(prefix: "grant-"), nonce: nil, now: request.now,
        withIDToken: found.grant.scopes.contains("openid"))
    case .failure(.missingCode):
      return Self.oauthError("invalid_request", "device_code is required.")
    case .failure(.pending):
      return Self.oauthError("authorization_pending", "The user has not answered yet.")
    case .failure(.slowDown):
      return Self.oauthError("slow_down", "Polling too fast; add 5 seconds to the interval.")
    case .failure(.denied):
      return Self.oauthError("access_denied", "The user denied the device login.")
    case .failure(.expired): return Self.oauthError("expired_token", "The device code expired.")
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure: return Self.oauthError("invalid_grant", "Unknown or used device_code.")
    }
  }

  /// The standard device errors a fault can name with its `problem` (`slow_down`,
  /// `expired_token`, `access_denied`, `authorization_pending`), answered with the fault's
  /// status.
  func deviceFault(status: Int, fault: EmulatorFault) -> HTTPResponse? {
    guard let problem = fault.problem,
      ["slow_down", "expired_token", "access_denied", "authorization_pending"].contains(problem)
    else { return nil }
    return Self.oauthError(problem, "Injected by a fault.", status: status)
  }
}

/// The verification page of the emulated device logins: enter the code, then approve or deny
/// as the emulator's current user. Plain HTML forms, so a real browser (or `curl`) can use it.
enum EmulatedDeviceVerification {
  static func page(
    _ request: EmulatorRequest, environment: EmulatorEnvironment, provider: ProviderID,
    action: String, title: String
  ) -> HTTPResponse {
    let code = request.parameter("user_code") ?? ""
    guard !code.isEmpty else {
      return form(title: title, action: action, message: "Enter the code shown on your device.")
    }
    guard let grant = environment.devices.pendingGrant(userCode: code, now: request.now),
      grant.provider == provider
    else {
      return form(
        title: title, action: action,
        message: "That code is not valid or has expired. Check it and try again.")
    }
    switch request.method == "POST" ? request.form("action") : nil {
    case "approve":
      let user = environment.currentUserID
      _ = environment.devices.decide(
        userCode: code, .approved(userID: user), now: request.now)
      return EmulatorJSON.page(
        title: title, "Device approved for \(user). You can return to your device.", status: 200)
    case "deny":
      _ = environment.devices.decide(userCode: code, .denied, now: request.now)
      return EmulatorJSON.page(title: title, "Device login denied.", status: 200)
    default:
      let scopes = EmulatorJSON.escape(grant.scopes.joined(separator: " "))
      let shown = EmulatorJSON.escape(grant.userCode)
      return .html(
        "<!doctype html><html><head><title>\(EmulatorJSON.escape(title))</title></head><body>"
          + "<h1>\(EmulatorJSON.escape(title))</h1><p>Sign in on your device as "
          + "<b>\(EmulatorJSON.escape(environment.currentUserID))</b>? Code <b id=\"code\">"
          + "\(shown)</b>, scopes: \(scopes).</p><form method=\"post\" action=\""
          + "\(EmulatorJSON.escape(action))\"><input type=\"hidden\" name=\"user_code\" value=\""
          + "\(shown)\"><button id=\"approve\" name=\"action\" value=\"approve\">Approve</button> "
          + "<button id=\"deny\" name=\"action\" value=\"deny\">Deny</button></form></body></html>\n"
      )
    }
  }

  static func form(title: String, action: String, message: String) -> HTTPResponse {
    .html(
      "<!doctype html><html><head><title>\(EmulatorJSON.escape(title))</title></head><body>"
        + "<h1>\(EmulatorJSON.escape(title))</h1><p>\(EmulatorJSON.escape(message))</p>"
        + "<form method=\"get\" action=\"\(EmulatorJSON.escape(action))\"><input id=\"user_code\" "
        + "name=\"user_code\" autocomplete=\"off\" autofocus> <button id=\"next\">Continue"
        + "</button></form></body></html>\n")
  }
}
