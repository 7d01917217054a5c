import Foundation
import LoopbackHTTP
import SocialLogin

/// Facebook Login for Devices (providers.md §1.5, §14): `device/login` and
/// `device/login_status` with the client token (`access_token={app-id}|{client-token}`),
/// Graph error bodies whose `error_subcode` carries the verdict (1349174 pending, 1349172
/// slow down, 1349173 declined, 1349152 expired), and a verification page at
/// `www.facebook.com/device`. Approving and denying go through the shared control endpoints
/// (`/_emulator/device/approve|deny`).
extension EmulatedFacebook {
  /// How long a code lives: Facebook's documented 420 seconds.
  static let deviceLifetime: TimeInterval = 420

  var deviceRoutes: [EmulatorRoute] {
    var routes: [EmulatorRoute] = []
    for prefix in ["/{version}", ""] {
      routes += [
        EmulatorRoute(
          ["POST"], "graph.facebook.com", prefix + "/device/login", endpoint: "device_login",
          deviceLogin),
        EmulatorRoute(
          ["POST"], "graph.facebook.com", prefix + "/device/login_status",
          endpoint: "device_login_status", deviceLoginStatus),
      ]
    }
    routes.append(
      EmulatorRoute(
        ["GET", "POST"], "www.facebook.com", "/device", endpoint: "device_verification"
      ) {
        request in
        EmulatedDeviceVerification.page(
          request, environment: environment, provider: name,
          action: environment.baseURL + "/www.facebook.com/device", title: "Facebook")
      })
    return routes
  }

  /// The app of a device request's client access token, or the Graph error for it. Only the
  /// client token is accepted: an app token made with the app secret is not what devices
  /// hold.
  private func deviceApp(_ request: EmulatorRequest) -> Result<String, ErrorResponse> {
    guard !request.isMalformedForm else {
      return .failure(
        ErrorResponse(Self.graphError(100, "(#100) The request body could not be parsed")))
    }
    guard let token = request.parameter("access_token"), let bar = token.firstIndex(of: "|")
    else {
      return .failure(
        ErrorResponse(
          Self.graphError(
            190, "An active access token must be used to query information about the app.")))
    }
    let appID = String(token[..<bar])
    guard appID == EmulatorApps.facebookAppID else {
      return .failure(
        ErrorResponse(
          Self.graphError(101, "Error validating application. Invalid application ID.")))
    }
    guard token[token.index(after: bar)...] == EmulatorApps.facebookClientToken else {
      return .failure(ErrorResponse(Self.graphError(190, "Invalid OAuth access token.")))
    }
    return .success(appID)
  }

  func deviceLogin(_ request: EmulatorRequest) -> HTTPResponse {
    let appID: String
    switch deviceApp(request) {
    case .failure(let error): return error.response
    case .success(let app): appID = app
    }
    let scopes = (request.parameter("scope") ?? "public_profile").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    let grant = environment.devices.start(
      provider: name, clientID: appID, scopes: scopes, now: request.now,
      lifetime: Self.deviceLifetime, codePrefix: "fbdc-")
    return EmulatorJSON.response([
      "code": .string(grant.deviceCode), "user_code": .string(grant.userCode),
      "verification_uri": .string(environment.baseURL + "/www.facebook.com/device"),
      "expires_in": EmulatorJSON.number(Self.deviceLifetime),
      "interval": EmulatorJSON.number(grant.interval),
    ])
  }

  /// A poll's Graph error: code 31 with the verdict in `error_subcode`.
  static func deviceError(_ subcode: Int, _ title: String, status: Int = 400) -> HTTPResponse {
    graphError(31, title, subcode: subcode, status: status)
  }

  func deviceLoginStatus(_ request: EmulatorRequest) -> HTTPResponse {
    let appID: String
    switch deviceApp(request) {
    case .failure(let error): return error.response
    case .success(let app): appID = app
    }
    guard let code = request.parameter("code") else {
      return Self.graphError(100, "(#100) The parameter code is required")
    }
    switch environment.devices.poll(
      deviceCode: code, provider: name, clientID: appID, now: request.now)
    {
    case .unknown: return Self.graphError(100, "(#100) Invalid device login code")
    case .pending: return Self.deviceError(1_349_174, "Device Login Authorization Pending")
    case .slowDown: return Self.deviceError(1_349_172, "You are polling too frequently")
    case .denied: return Self.deviceError(1_349_173, "Device Login Authorization Declined")
    case .expired: return Self.deviceError(1_349_152, "Device Login Code Expired")
    case .approved(let grant):
      guard case .approved(let userID) = grant.decision, let user = environment.user(userID),
        !user.isDisabled
      else { return Self.checkpoint() }
      let ttl = environment.lifetimes(for: name).longLivedAccessToken
      let token = issueUserToken(
        user: user, appID: appID, scopes: grant.scopes,
        grantID: TokenRegistry.makeValue(prefix: "grant-"), ttl: ttl, now: request.now,
        longLived: true)
      return EmulatorJSON.response([
        "access_token": .string(token), "expires_in": EmulatorJSON.number(ttl),
        "data_access_expiration_time": EmulatorJSON.number(
          request.now.addingTimeInterval(90 * 86_400).timeIntervalSince1970.rounded(.down)),
      ])
    }
  }

  /// The device verdicts a fault can name with its `problem` (`slow_down`, `expired_token`,
  /// `access_denied`, `authorization_pending`), as Graph errors with the fault's status.
  func deviceFault(status: Int, fault: EmulatorFault) -> HTTPResponse? {
    switch fault.problem {
    case "authorization_pending"?:
      Self.deviceError(1_349_174, "Device Login Authorization Pending", status: status)
    case "slow_down"?: Self.deviceError(1_349_172, "You are polling too frequently", status: status)
    case "access_denied"?:
      Self.deviceError(1_349_173, "Device Login Authorization Declined", status: status)
    case "expired_token"?: Self.deviceError(1_349_152, "Device Login Code Expired", status: status)
    default: nil
    }
  }
}
