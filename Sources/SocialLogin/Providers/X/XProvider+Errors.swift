import Foundation

extension AuthError.Code {
  /// X refused a call because the project reached its usage cap (HTTP 429, problem
  /// `usage-capped`; X bills reads per call since February 2026). The app's plan, not the
  /// user's token: sessions degrade until the cap resets, never sign out.
  public static let usageCapped = AuthError.Code(rawValue: "usage_capped")
  /// X refused a call because the app is not enrolled in a project or plan that may make it
  /// (problem `client-not-enrolled`, or `client-forbidden` with that reason; HTTP 403, or 429).
  /// The app's setup, not the user's token: sessions degrade, never sign out.
  public static let clientNotEnrolled = AuthError.Code(rawValue: "client_not_enrolled")
}

extension XProvider {
  /// X's failure rules, for refreshes and for identity and verification calls alike.
  ///
  /// In order:
  /// 1. Not an ``AuthError`` (a transport's own error), or transient (network, timeout, 5xx,
  ///    429 with its `x-rate-limit-reset`) → `.transient(retryAfter:)`.
  /// 2. ``AuthError/Code/refreshTokenInvalid`` (X's `invalid_request` or `invalid_grant` on a
  ///    refresh, or no refresh token) → `.refreshTokenInvalid`: the session re-reads the store
  ///    and adopts a sibling's rotated token before it signs out.
  /// 3. ``AuthError/Code/invalidToken`` with a sign-out reason (v2 `401` problem, v1.1 code
  ///    `89`) → `.terminal` with that reason; ``AuthError/Code/signedOut`` → `.terminal`.
  /// 4. An OAuth error body on the token endpoint: `invalid_request`/`invalid_grant` →
  ///    `.refreshTokenInvalid(.refreshTokenExpired)`; `invalid_client`/`unauthorized_client`
  ///    (the *app's* credentials or Basic header are wrong, the user's grant is not in
  ///    question) → `.transient`; any other code → `.terminal(.providerRejected(code:))`.
  /// 5. Everything else — HTML pages, empty, truncated or unknown bodies
  ///    (``AuthError/Code/invalidResponse``), X's complaints about the app (403
  ///    `client-forbidden`, v1.1 code `32`), configuration errors → `.transient`: no
  ///    definitive answer about the user, so the session keeps its tokens.
  ///
  /// ```swift
  /// switch XProvider.classify(error) {
  /// case .transient(let retryAfter): scheduleRetry(at: retryAfter)
  /// case .refreshTokenInvalid(let reason), .terminal(let reason): signOut(reason)
  /// }
  /// ```
  public static func classify(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      if let classified = RefreshFailure.alreadyClassified(error) { return classified }
      switch error.code {
      case .invalidToken:
        if let reason = error.signOutReason { return .terminal(reason) }
        return .transient(retryAfter: nil)
      case .usageCapped, .clientNotEnrolled:
        return .transient(retryAfter: error.retryAfter)
      default:
        break
      }
      if let code = error.oauth?.error {
        switch code {
        case "invalid_request", "invalid_grant":
          return .refreshTokenInvalid(.refreshTokenExpired)
        case "invalid_client", "unauthorized_client":
          return .transient(retryAfter: nil)
        default:
          return .terminal(.providerRejected(code: code))
        }
      }
      return .transient(retryAfter: nil)
    }
  }

  /// A failed refresh, typed: X's answers for a dead refresh token become
  /// ``AuthError/Code/refreshTokenInvalid``.
  static func refreshError(_ error: AuthError) -> AuthError {
    guard !error.isTransient, let code = error.oauth?.error,
      code == "invalid_request" || code == "invalid_grant"
    else {
      if let code = error.oauth?.error, code == "unauthorized_client" || code == "invalid_client" {
        return clientCredentialsError(error)
      }
      return error
    }
    var typed = error
    typed.code = .refreshTokenInvalid
    typed.signOutReason = .refreshTokenExpired
    typed.message =
      "X no longer accepts the refresh token ('\(code)'): it was spent by another refresh "
      + "(X rotates refresh tokens on every use), revoked, or expired."
    return typed
  }

  /// An `invalid_client`/`unauthorized_client` answer: the app's client id or secret is
  /// wrong, not the user's grant; ``AuthError/Code/configuration`` naming both settings (the
  /// OAuth fields are kept, so sessions degrade rather than sign out).
  static func clientCredentialsError(_ error: AuthError) -> AuthError {
    var explained = error
    explained.code = .configuration
    explained.message +=
      " X did not accept the app's client credentials: check the client id "
      + "(XProvider.Configuration.clientID) and secret (XProvider.Configuration.clientSecret); "
      + "a confidential client must send HTTP Basic on refresh too."
    return explained
  }

  /// A failed code exchange with X's usual cause spelled out.
  static func explainingCodeExchange(_ error: AuthError) -> AuthError {
    guard error.oauth?.error == "invalid_request",
      let description = error.oauth?.errorDescription,
      description.range(of: "authorization code", options: .caseInsensitive) != nil
    else { return error }
    var explained = error
    explained.message +=
      " X rejects codes older than 30 seconds, codes used twice, and a code_verifier or "
      + "redirect_uri that differs from the authorization request."
    return explained
  }
}

/// One RFC 7807-style problem from the X API v2: `{"title","detail","type","status"}`, at the
/// top level of an error body or in the `errors` array of a 200.
struct XProblem: Sendable, Hashable {
  /// The `type` URI, `https://api.x.com/2/problems/<kind>` or `about:blank`.
  var type: String
  var title: String?
  var detail: String?
  var status: Int?
  /// `reason` (X adds it to `client-forbidden`: `client-not-enrolled`).
  var reason: String?

  /// The typed code of X's billing and enrollment problems: `usage-capped` →
  /// ``AuthError/Code/usageCapped``; `client-not-enrolled`, and `user-not-enrolled` (the
  /// developer account behind a pay-per-use call is not enrolled, seen in 2026), as the kind
  /// or as the `reason` of `client-forbidden` → ``AuthError/Code/clientNotEnrolled``.
  var billingCode: AuthError.Code? {
    if kind == "usage-capped" || reason == "usage-capped" { return .usageCapped }
    let enrollment: Set<String> = ["client-not-enrolled", "user-not-enrolled"]
    if enrollment.contains(kind) || reason.map(enrollment.contains) == true {
      return .clientNotEnrolled
    }
    return nil
  }

  /// The last path segment of an X problem type (`client-forbidden`), or the type itself
  /// (`about:blank`).
  var kind: String {
    guard let url = URL(string: type), XProvider.isProductionHost(url),
      url.path.contains("/problems/")
    else { return ErrorText.excerpt(type, limit: 100) }
    return ErrorText.excerpt(url.lastPathComponent, limit: 100)
  }

  /// `title: detail`, scrubbed and capped.
  var text: String {
    [title, detail].compactMap { $0 }.filter { !$0.isEmpty }.map { ErrorText.excerpt($0) }
      .joined(separator: ": ")
  }

  /// The problem in a JSON object, when it has at least a `type` or a `title`.
  init?(_ object: [String: JSONValue]) {
    let type = object["type"]?.stringValue
    let title = object["title"]?.stringValue
    guard type != nil || title != nil else { return nil }
    self.type = type ?? "about:blank"
    self.title = title
    detail = object["detail"]?.stringValue
    status = object["status"]?.int64Value.flatMap { Int(exactly: $0) }
    reason = object["reason"]?.stringValue.map { ErrorText.excerpt($0, limit: 100) }
  }

  /// The top-level problem of a body, or the first of its `errors`.
  static func first(in object: [String: JSONValue]) -> XProblem? {
    if let problem = XProblem(object) { return problem }
    guard let errors = object["errors"]?.arrayValue else { return nil }
    return errors.lazy.compactMap { $0.objectValue.flatMap(XProblem.init) }.first
  }
}

extension XProvider {
  /// X's rules; see ``XProvider/classify(_:)``.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    Self.classify(error)
  }

  /// What a failed identity or verification call means for a session, by the same rules as
  /// a failed refresh; see ``XProvider/classify(_:)``.
  public nonisolated func classifyIdentityFailure(_ error: any Error) -> RefreshFailure {
    Self.classify(error)
  }

  /// The error of a failed v2 API call.
  func apiError(
    _ response: TransportResponse, object: [String: JSONValue]?, operation: String
  ) -> AuthError {
    let status = response.status
    let problem = object.flatMap(XProblem.first(in:))
    if let problem, let code = problem.billingCode {
      let retryAfter = response.retryAfter(now: clock.wallTime)
      let advice =
        code == .usageCapped
        ? "the X project reached its usage cap; raise it in the X developer console or wait "
          + "for it to reset"
        : "the X app is not enrolled in a project or plan that may make "
          + "this call; enroll it in the X developer console"
      return AuthError(
        code, "\(operation) was refused (HTTP \(status): \(problem.text)): \(advice).",
        provider: id, httpStatus: status, providerCode: problem.reason ?? problem.kind,
        retryAfter: retryAfter)
    }
    if status >= 500 || status == 429 {
      let retryAfter = response.retryAfter(now: clock.wallTime)
      var message = "\(operation) is unavailable (HTTP \(status))"
      if let problem { message += ": \(problem.text)" }
      if let retryAfter { message += "; retry after \(retryAfter)" }
      return AuthError(
        .serverUnavailable, message + ".", provider: id, httpStatus: status,
        providerCode: problem?.kind, retryAfter: retryAfter)
    }
    guard let problem else {
      // Not X's answer (a proxy's page, a cut-off body): no verdict on the token.
      return AuthError(
        .invalidResponse, "\(operation) answered HTTP \(status) \(response.bodySummary(object)).",
        provider: id, httpStatus: status)
    }
    if status == 401 {
      return AuthError(
        .invalidToken,
        "X rejected the access token (HTTP 401: \(problem.text)); it expired or was revoked.",
        provider: id, httpStatus: status, providerCode: problem.kind,
        signOutReason: .accessRevoked)
    }
    return AuthError(
      .providerError,
      "\(operation) was rejected (HTTP \(status)): \(problem.text) (\(problem.kind)).",
      provider: id, httpStatus: status, providerCode: problem.kind)
  }

  /// v1.1 codes typed: `89` → invalid token (signs out); `32` → invalid token when verifying.
  static func oauth1Error(_ error: AuthError, verifying: Bool) -> AuthError {
    var typed = error
    switch error.providerCode {
    case "89":
      typed.code = .invalidToken
      typed.signOutReason = .accessRevoked
    case "32" where verifying:
      typed.code = .invalidToken
    default:
      break
    }
    return typed
  }
}
