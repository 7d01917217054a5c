import Foundation

/// How the SDK reads Graph API errors
/// (`{"error":{"message","type","code","error_subcode","is_transient","fbtrace_id"}}`).
///
/// | Graph answer | ``AuthError`` | session |
/// |---|---|---|
/// | code `1`, `2`, `4`, `17`, `32`, `341`, `613`, `is_transient: true`, any 5xx or 429 | ``AuthError/Code/serverUnavailable`` (transient) | degraded, retried with backoff |
/// | code `190` or `102`, subcode `458` | ``AuthError/Code/invalidToken`` | signed out: ``SignOutReason/appRemoved`` |
/// | … subcode `460` | ``AuthError/Code/invalidToken`` | ``SignOutReason/passwordChanged`` |
/// | … subcode `463` | ``AuthError/Code/invalidToken`` | ``SignOutReason/accessTokenExpired`` |
/// | … subcode `467` | ``AuthError/Code/invalidToken`` | ``SignOutReason/loggedOutAtProvider`` |
/// | … subcode `493` | ``AuthError/Code/invalidToken`` | ``SignOutReason/sessionInvalidated`` |
/// | … no subcode | ``AuthError/Code/invalidToken`` | ``SignOutReason/accessRevoked`` |
/// | … another subcode (`459` checkpoint, `464` unconfirmed) | ``AuthError/Code/invalidToken`` | ``SignOutReason/providerRejected(code:)`` `190/459` |
/// | code `101` (unknown app id), code `1` "Error validating client secret", code `100` "Invalid appsecret_proof", code `190` "Invalid OAuth access token signature" (an app token with a wrong secret), and any code `190`/`102` on `debug_token` itself (its `access_token` is the app token) | ``AuthError/Code/configuration`` naming ``FacebookConfiguration/appID`` or ``FacebookConfiguration/appSecret`` | never signed out: the app's own credentials are wrong, not the user's token |
/// | code `10`, `200`–`299` (permission) and others | ``AuthError/Code/providerError`` | signed out: ``SignOutReason/providerRejected(code:)`` |
/// | HTML, empty, truncated or non-Graph bodies | ``AuthError/Code/invalidResponse`` | degraded (not an answer) |
///
/// The code and subcode are always in ``AuthError/providerCode`` and
/// ``AuthError/providerSubcode``. Rate-limit codes have been seen with HTTP 400 and 403.
enum FacebookGraphError {
  /// Graph codes that mean "try again later": unknown/service (1, 2), app, user and page
  /// throttling (4, 17, 32, 613) and the temporary-block code 341.
  static let transientCodes: Set<Int> = [1, 2, 4, 17, 32, 341, 613]

  /// Why a session ends for an invalid-token error (codes 190 and 102) with `subcode`.
  static func signOutReason(subcode: Int?) -> SignOutReason {
    switch subcode {
    case nil: return .accessRevoked
    case 458?: return .appRemoved
    case 460?: return .passwordChanged
    case 463?: return .accessTokenExpired
    case 467?: return .loggedOutAtProvider
    case 493?: return .sessionInvalidated
    case let other?: return .providerRejected(code: "190/\(other)")
    }
  }

  /// The error for a Graph `error` object (from an error response, or from `debug_token`'s
  /// `data.error`, which spells the subcode `subcode`).
  static func error(
    _ graph: [String: JSONValue], status: Int?, operation: String, retryAfter: Date?
  ) -> AuthError {
    let code = graph["code"].flatMap(integer)
    let subcode = (graph["error_subcode"] ?? graph["subcode"]).flatMap(integer)
    let message = graph["message"]?.stringValue.map { ": " + ErrorText.excerpt($0) } ?? "."
    let codeText = code.map { "code \($0)" + (subcode.map { "/\($0)" } ?? "") } ?? "no code"
    let transient =
      code.map(transientCodes.contains) == true || graph["is_transient"]?.boolValue == true
      || (status.map { $0 >= 500 || $0 == 429 } ?? false)
    if let setting = misconfiguredSetting(code: code, message: graph["message"]?.stringValue) {
      return configurationError(
        setting, operation: operation, status: status, code: code, subcode: subcode)
    }
    if transient {
      return AuthError(
        .serverUnavailable,
        "\(operation) was throttled or is temporarily unavailable (Graph \(codeText))\(message)",
        provider: .facebook, httpStatus: status, providerCode: code.map(String.init),
        providerSubcode: subcode.map(String.init), retryAfter: retryAfter)
    }
    if code == 190 || code == 102 {
      let reason = signOutReason(subcode: subcode)
      return AuthError(
        .invalidToken,
        "\(operation): Facebook no longer accepts the token (\(reason), Graph "
          + "\(codeText))\(message)",
        provider: .facebook, httpStatus: status, providerCode: code.map(String.init),
        providerSubcode: subcode.map(String.init), signOutReason: reason)
    }
    return AuthError(
      .providerError, "\(operation) was rejected (Graph \(codeText))\(message)",
      provider: .facebook, httpStatus: status, providerCode: code.map(String.init),
      providerSubcode: subcode.map(String.init))
  }

  /// The setting (`appID` or `appSecret`) a Graph error blames, when it is about the app's own
  /// credentials rather than a user's token: an unknown app id (code `101`), a client secret
  /// Graph does not accept (code `1`), an `appsecret_proof` keyed with another secret (code
  /// `100`), or an app token `{app-id}|{app-secret}` whose secret is wrong (code `190`,
  /// "Invalid OAuth access token signature").
  static func misconfiguredSetting(code: Int?, message: String?) -> String? {
    let message = (message ?? "").lowercased()
    switch code {
    case 101?: return "appID"
    case 1? where message.contains("client secret"): return "appSecret"
    case 100? where message.contains("appsecret_proof"): return "appSecret"
    case 190? where message.contains("access token signature"): return "appSecret"
    default: return nil
    }
  }

  /// The ``AuthError/Code/configuration`` error for a Graph answer that blames the app's own
  /// `setting` (`appID` or `appSecret`); it is not transient and never signs a user out.
  static func configurationError(
    _ setting: String, operation: String, status: Int?, code: Int?, subcode: Int?
  ) -> AuthError {
    let codeText = code.map { "code \($0)" + (subcode.map { "/\($0)" } ?? "") } ?? "no code"
    let what =
      setting == "appID"
      ? "the Facebook app id (FacebookConfiguration.appID) is not an app Graph knows"
      : "the Facebook app secret (FacebookConfiguration.appSecret) is not accepted by Graph"
    return AuthError(
      .configuration,
      "\(operation) failed because \(what) (Graph \(codeText)); check the app's settings "
        + "in the Meta developer dashboard. This is not a problem with the user's token.",
      provider: .facebook, httpStatus: status, providerCode: code.map(String.init),
      providerSubcode: subcode.map(String.init))
  }

  /// The error for a Graph response that did not succeed, or that succeeded with an `error`.
  static func failure(_ response: TransportResponse, operation: String, now: Date) -> AuthError {
    let retryAfter = response.retryAfter(now: now)
    if let graph = response.jsonObject?["error"]?.objectValue {
      return error(graph, status: response.status, operation: operation, retryAfter: retryAfter)
    }
    var failure = response.oauth2Failure(operation, provider: .facebook, now: now)
    if response.isSuccess {
      failure.code = .invalidResponse
      failure.message =
        "\(operation) answered HTTP \(response.status) "
        + "\(response.bodySummary(response.jsonObject))."
    }
    return failure
  }

  /// Whether a refresh (re-exchange), identity or verify failure is a definitive answer, and
  /// what it means for the session; see the table above.
  static func classify(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      switch error.code {
      case .invalidToken:
        return .refreshTokenInvalid(error.signOutReason ?? .accessRevoked)
      case .refreshTokenInvalid, .signedOut:
        return .terminal(error.signOutReason ?? .accessTokenExpired)
      case .providerError:
        let code = [error.providerCode, error.providerSubcode].compactMap { $0 }
        return .terminal(
          .providerRejected(code: code.isEmpty ? error.code.rawValue : code.joined(separator: "/")))
      default:
        // Not an answer from Facebook (an HTML page, an empty or truncated body, a cancelled
        // request): keep the token and retry later.
        return .transient(retryAfter: error.retryAfter)
      }
    }
  }

  static func integer(_ value: JSONValue) -> Int? {
    if let number = value.int64Value { return Int(exactly: number) }
    if let text = value.stringValue { return Int(text) }
    return nil
  }
}

extension FacebookProvider {
  /// Facebook's own rules (`FacebookGraphError`): `190` subcodes sign out with their
  /// reason, throttling and anything that is not a Graph answer degrade.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    FacebookGraphError.classify(error)
  }

  /// The same classification for a failed identity or verify call.
  public nonisolated func classifyFailure(_ error: any Error) -> RefreshFailure {
    FacebookGraphError.classify(error)
  }
}
