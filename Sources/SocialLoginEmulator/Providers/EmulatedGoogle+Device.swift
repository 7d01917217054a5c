import Foundation
import LoopbackHTTP
import SocialLogin

/// Google's device logins ("OAuth for TV and Limited-Input Device Applications"), with
/// Google's deviations from RFC 8628: `verification_url` (not `verification_uri`), no complete
/// URI, 30-minute codes, the client secret required when polling, only sign-in scopes, and
/// the statuses public fixtures show (428 for `authorization_pending`, 403 for `slow_down`
/// and `access_denied`; providers.md §14 marks them unconfirmed).
extension EmulatedGoogle {
  /// The scopes Google allows on this flow that the emulator knows (sign-in only).
  static let deviceScopes: Set<String> = [
    "openid", "email", "profile", "https://www.googleapis.com/auth/userinfo.email",
    "https://www.googleapis.com/auth/userinfo.profile",
  ]

  var deviceRoutes: [EmulatorRoute] {
    [
      EmulatorRoute(
        ["POST"], "oauth2.googleapis.com", "/device/code", endpoint: "device_code",
        deviceCode),
      EmulatorRoute(["GET", "POST"], "www.google.com", "/device", endpoint: "device_verification") {
        request in
        EmulatedDeviceVerification.page(
          request, environment: environment, provider: name,
          action: environment.baseURL + "/www.google.com/device", title: "Google")
      },
    ]
  }

  func deviceCode(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "Invalid request body.")
    }
    guard request.form("client_id") == EmulatorApps.googleClientID else {
      return Self.oauthError("invalid_client", "The OAuth client was not found.", status: 401)
    }
    let scopes = (request.form("scope") ?? "").split(separator: " ").map(String.init)
    guard !scopes.isEmpty else {
      return Self.oauthError("invalid_scope", "Missing required parameter: scope")
    }
    guard scopes.allSatisfy(Self.deviceScopes.contains) else {
      return Self.oauthError("invalid_scope", "Invalid device flow scope.")
    }
    let grant = environment.devices.start(
      provider: name, clientID: EmulatorApps.googleClientID, scopes: scopes, now: request.now,
      lifetime: 1800, codePrefix: "AH-1Ng")
    return EmulatorJSON.response([
      "device_code": .string(grant.deviceCode), "user_code": .string(grant.userCode),
      "verification_url": .string(environment.baseURL + "/www.google.com/device"),
      "expires_in": 1800, "interval": EmulatorJSON.number(grant.interval),
    ])
  }

  /// The device grant on Google's token endpoint (the client is already authenticated).
  func deviceToken(_ request: EmulatorRequest) -> HTTPResponse {
    switch environment.pollDeviceGrant(
      request, provider: name, clientID: EmulatorApps.googleClientID)
    {
    case .success(let found):
      return issueTokens(
        user: found.user, scopes: found.grant.scopes,
        grantID: TokenRegistry.makeValue(prefix: "grant-"), nonce: nil, now: request.now,
        withRefreshToken: true)
    case .failure(.missingCode):
      return Self.oauthError("invalid_request", "Missing required parameter: device_code")
    case .failure(.pending):
      return Self.oauthError("authorization_pending", "Precondition Required", status: 428)
    case .failure(.slowDown): return Self.oauthError("slow_down", "Forbidden", status: 403)
    case .failure(.denied): return Self.oauthError("access_denied", "Forbidden", status: 403)
    case .failure(.expired): return Self.oauthError("expired_token", "Bad Request")
    case .failure(.accountDisabled): return accountDisabled(endpoint: "token", request: request)
    case .failure: return Self.oauthError("invalid_grant", "Malformed auth code.")
    }
  }
}
