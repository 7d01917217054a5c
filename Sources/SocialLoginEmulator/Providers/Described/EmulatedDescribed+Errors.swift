import Foundation
import LoopbackHTTP
import SocialLogin

/// Answers and errors in the provider's shapes: the description's error shape (RFC 6749, or
/// errors inside answers with status 200), the dialect's own codes, GitHub's form encoding.
extension EmulatedDescribed {
  /// Whether the request asks for JSON (`Accept: application/json`).
  static func acceptsJSON(_ request: EmulatorRequest) -> Bool {
    (request.http.headers["Accept"] ?? "").lowercased().contains("application/json")
  }

  /// `fields` as the provider answers them: form-encoded when the dialect says so and the
  /// request does not accept JSON (GitHub), else JSON.
  func answer(_ fields: [String: JSONValue], status: Int = 200, _ request: EmulatorRequest)
    -> HTTPResponse
  {
    guard dialect.formUnlessJSONAccepted, !Self.acceptsJSON(request) else {
      return EmulatorJSON.response(.object(fields), status: status)
    }
    let pairs = fields.keys.sorted().map { key -> (String, String) in
      switch fields[key] {
      case .string(let text)?: (key, text)
      case .number(let number)?: (key, String(Int(number)))
      case let other?: (key, other.jsonText)
      case nil: (key, "")
      }
    }
    return EmulatorJSON.form(pairs, status: status)
  }

  /// A token-endpoint (or device-endpoint) error for `situation`: the dialect's name, code
  /// and status, with status 200 when the description puts errors inside answers.
  func tokenError(
    _ situation: EmulatorDialect.Situation, _ error: String, _ message: String,
    _ request: EmulatorRequest, status forced: Int? = nil, extra: [String: JSONValue] = [:]
  ) -> HTTPResponse {
    var fields = extra
    fields["error"] = .string(dialect.errorNames[situation] ?? error)
    var text = message
    if let field = dialect.errorCodeField, let code = dialect.errorCodes[situation] {
      fields[field] = code
      if case .array(let codes) = code, let first = codes.first?.doubleValue {
        text = "AADSTS\(Int(first)): " + message
      }
    }
    fields["error_description"] = .string(text)
    let status: Int
    if let forced {
      status = forced
    } else if description.errors.shape == .rfc6749InSuccessfulAnswers {
      status = 200
    } else {
      status = dialect.errorStatuses[situation] ?? 400
    }
    return answer(fields, status: status, request)
  }

  /// An API endpoint's answer to a bad access token (or, with `disabled`, a disabled
  /// account), in the provider's API dialect.
  func apiError(status: Int = 401, disabled: Bool = false) -> HTTPResponse {
    var response: HTTPResponse
    switch dialect.apiErrors {
    case .kakao:
      response = ExactJSON.object([
        "code": .integer(disabled ? "-103" : "-401"),
        "msg": .value(
          .string(
            disabled ? "the account is dormant or deleted" : "this access token does not exist")),
      ]).response(status: status)
    case .naver:
      response = EmulatorJSON.response(
        [
          "resultcode": disabled ? "064" : "024",
          "message": disabled ? "Account is disabled" : "Authentication failed (인증 실패하였습니다.)",
        ], status: status)
    case .github:
      response = EmulatorJSON.response(
        [
          "message": disabled ? "Account suspended" : "Bad credentials",
          "documentation_url": "https://docs.github.com/rest",
        ], status: status)
    case .bearer:
      response = EmulatorJSON.response(
        [
          "error": "invalid_token",
          "error_description": disabled
            ? "The account is disabled." : "The access token is invalid or expired.",
        ], status: status)
    }
    if status == 401 {
      response.headers.add(name: "WWW-Authenticate", value: "Bearer error=\"invalid_token\"")
    }
    return response
  }

  /// Whether `endpoint` is one of the OAuth endpoints (authorize, token, device), whose
  /// errors are OAuth errors; the others are APIs.
  func isOAuthEndpoint(_ endpoint: String?) -> Bool {
    guard let endpoint, let job = job(of: endpoint) else { return true }
    switch job {
    case .authorize, .token, .device, .revoke: return true
    default: return false
    }
  }

  /// The endpoint name a request was routed to, found again from its path.
  func endpoint(of request: EmulatorRequest) -> String? {
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
    return routes.first { $0.host == request.host && $0.matches(path: segments) }?.endpoint
  }

  func faultResponse(status: Int, fault: EmulatorFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    let endpoint = endpoint(of: request)
    if let problem = fault.problem, let situation = Self.deviceProblems[problem] {
      return withRetryAfter(
        tokenError(situation, problem, "Injected by a fault.", request, status: status),
        status: status, fault: fault)
    }
    guard isOAuthEndpoint(endpoint) else {
      var response = apiError(status: status)
      response.headers.remove(name: "WWW-Authenticate")
      return withRetryAfter(response, status: status, fault: fault)
    }
    let error = status == 429 || status == 503 ? "temporarily_unavailable" : "server_error"
    return withRetryAfter(
      tokenError(
        .badRequest, error, HTTPResponse.standardReason(for: status), request, status: status),
      status: status, fault: fault)
  }

  /// The device errors a fault can name with its `problem`.
  static let deviceProblems: [String: EmulatorDialect.Situation] = [
    "slow_down": .deviceSlowDown, "expired_token": .deviceExpired,
    "access_denied": .deviceDenied, "authorization_pending": .devicePending,
    "device_flow_disabled": .deviceFlowDisabled,
  ]

  func refreshTokenRejected(_ reason: EmulatorFault.RefreshTokenFault, request: EmulatorRequest)
    -> HTTPResponse
  {
    tokenError(
      .deadRefreshToken, "invalid_grant",
      reason == .expired ? "The refresh token expired." : "The refresh token was revoked.", request)
  }

  func accountDisabled(endpoint: String, request: EmulatorRequest) -> HTTPResponse {
    isOAuthEndpoint(endpoint)
      ? tokenError(.accountDisabled, "invalid_grant", "The account is disabled.", request)
      : apiError(status: 403, disabled: true)
  }
}
