import Foundation

/// How a described provider's answers are read: pure functions of a description and the bytes
/// that came back, with no actor and no transport, so the fuzzers and the tests reach them
/// directly.
enum DescribedAnswers {
  /// The error fields of an answer, when it is a well-formed provider error: RFC 6749
  /// `error` (a non-empty string) with `error_description`, and the provider's own
  /// `error_code` (Kakao's `KOE322`, Yahoo! JAPAN's integer) or `error_codes` (Microsoft's).
  struct ErrorFields: Hashable, Sendable {
    var oauth: AuthError.OAuthErrorFields
    /// `error_code`, then each of `error_codes`, as text.
    var providerCodes: [String]

    /// The codes matched against a dialect's lists, in order: the provider's own first,
    /// then `error`.
    var candidates: [String] { providerCodes + [oauth.error] }
  }

  /// The answer's error fields, or `nil` when it carries no `error` string.
  static func errorFields(in object: DescribedJSON) -> ErrorFields? {
    guard let error = object["error"]?.stringValue, !error.isEmpty else { return nil }
    var codes: [String] = []
    if let code = object["error_code"]?.identifierText { codes.append(code) }
    if case .array(let list)? = object["error_codes"] {
      for code in list.prefix(8) {
        if let text = code.identifierText { codes.append(text) }
      }
    }
    return ErrorFields(
      oauth: AuthError.OAuthErrorFields(
        error: ErrorText.excerpt(error, limit: 128),
        errorDescription: object["error_description"]?.stringValue.map { ErrorText.excerpt($0) },
        errorURI: object["error_uri"]?.stringValue.map { ErrorText.excerpt($0) }),
      providerCodes: codes.map { ErrorText.excerpt($0, limit: 64) })
  }

  /// The body as a JSON object (or, for a form-encoded answer, an object of strings), or
  /// `nil` when it is neither or exceeds ``DescribedJSON/maximumBytes``.
  static func object(of response: TransportResponse) -> DescribedJSON? {
    guard !response.body.isEmpty, response.body.count <= DescribedJSON.maximumBytes else {
      return nil
    }
    if let value = DescribedJSON(parsing: response.body), case .object = value { return value }
    let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
    if contentType.hasPrefix(FormEncoding.contentType), let fields = try? response.formFields(),
      !fields.isEmpty
    {
      return .object(fields.mapValues(DescribedJSON.string))
    }
    return nil
  }

  /// The error for an answer that is not a success: 5xx and 429 are
  /// ``AuthError/Code/serverUnavailable``; a provider error is
  /// ``AuthError/Code/providerError`` (or ``AuthError/Code/configuration`` naming the client
  /// id and secret when the dialect says the code is the app's configuration); anything else
  /// is ``AuthError/Code/invalidResponse``, which is not the provider's verdict.
  static func failure(
    _ response: TransportResponse, object: DescribedJSON?, description: ProviderDescription,
    operation: String, now: Date
  ) -> AuthError {
    let retryAfter = response.retryAfter(now: now)
    let fields = object.flatMap(errorFields(in:))
    if response.status >= 500 || response.status == 429 {
      var message = "\(operation) is unavailable (HTTP \(response.status))"
      if let fields { message += ": \(fields.oauth.error)" }
      return AuthError(
        .serverUnavailable, message + ".", provider: description.id, httpStatus: response.status,
        oauth: fields?.oauth, providerCode: fields?.providerCodes.first, retryAfter: retryAfter)
    }
    if description.errors.shape == .rfc6749OrMessage, fields == nil,
      let refusal = messageRefusal(
        response, object: object, description: description, operation: operation, now: now)
    {
      return refusal
    }
    guard let fields else {
      return AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: description.id, httpStatus: response.status,
        responseBodySize: response.body.count, retryAfter: retryAfter)
    }
    let shown =
      fields.providerCodes.first.map { "\(fields.oauth.error), \($0)" } ?? fields.oauth.error
    let error = AuthError(
      .providerError,
      "\(operation) was rejected with '\(shown)' (HTTP \(response.status)).",
      provider: description.id, httpStatus: response.status, oauth: fields.oauth,
      providerCode: fields.providerCodes.first, retryAfter: retryAfter)
    return unauthorized(
      blamingConfiguration(error, fields: fields, description: description),
      response: response, description: description)
  }

  /// `error` as ``AuthError/Code/configuration`` naming the settings, when the first of its
  /// codes the dialect lists is one of the dialect's configuration codes.
  static func blamingConfiguration(
    _ error: AuthError, fields: ErrorFields, description: ProviderDescription
  ) -> AuthError {
    guard verdict(of: fields, dialect: description.errors) == .configuration else { return error }
    var blamed = error
    blamed.code = .configuration
    blamed.message +=
      " \(description.displayName) does not accept the app's settings: check the "
      + "\(description.client.clientIDLabel) (clientID), the \(description.client.secretLabel) "
      + "(clientSecret) and "
      + "the redirect URI registered in \(description.displayName)'s console. This is not a "
      + "problem with a user's token."
    return blamed
  }

  /// What a dialect says of a code.
  enum Verdict: Hashable, Sendable {
    case signOut, configuration, transient, other
  }

  /// The verdict of the first candidate code the dialect lists (the provider's own code
  /// first, then `error`), or ``Verdict/other``.
  static func verdict(of fields: ErrorFields, dialect: ErrorDialect) -> Verdict {
    func listed(_ code: String, _ list: [String]) -> Bool {
      dialect.ignoresCase
        ? list.contains { $0.lowercased() == code.lowercased() } : list.contains(code)
    }
    for code in fields.candidates {
      if listed(code, dialect.signOut) { return .signOut }
      if listed(code, dialect.configuration) { return .configuration }
      if listed(code, dialect.transient) { return .transient }
    }
    return .other
  }

  /// Reads a token endpoint's answer, whatever its status.
  ///
  /// With ``ErrorDialect/Shape/rfc6749InSuccessfulAnswers`` `error` is checked before
  /// `access_token` on every answer (NAVER and GitHub answer errors with status 200);
  /// otherwise a 2xx answer with an `access_token` is a success. `expires_in` must be a
  /// positive whole number, written as the description's ``TokenAnswerRules`` allow;
  /// anything else makes the answer unreadable (``AuthError/Code/invalidResponse``), never a
  /// guess. Kakao's `refresh_token_expires_in` is kept in the credential's `extra`. The
  /// answer's `scope` is split at white space and commas whatever the request's separator:
  /// Kakao asks with commas and answers with spaces, GitHub asks with spaces and answers with
  /// commas.
  ///
  /// - Throws: As ``failure(_:object:description:operation:now:)``.
  static func tokenAnswer(
    _ response: TransportResponse, description: ProviderDescription, receivedAt now: Date,
    requestedScopes: [String], operation: String
  ) throws(AuthError) -> Credential {
    let object = object(of: response)
    let success = (200..<300).contains(response.status)
    let carriesError = object.flatMap(errorFields(in:)) != nil
    let errorFirst = description.errors.shape == .rfc6749InSuccessfulAnswers
    if !success || (carriesError && (errorFirst || object?["access_token"] == nil)) {
      throw failure(
        response, object: object, description: description, operation: operation, now: now)
    }
    guard let object else {
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: description.id, httpStatus: response.status,
        responseBodySize: response.body.count)
    }
    func unreadable(_ field: String) -> AuthError {
      AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) with an unreadable '\(field)'.",
        provider: description.id, httpStatus: response.status,
        responseBodySize: response.body.count)
    }
    guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
      throw unreadable("access_token")
    }
    let allowsString = description.tokenAnswer.expiresIn == .numberOrString
    var expiresIn: TimeInterval?
    if let value = object["expires_in"], value != .null {
      guard let seconds = value.positiveSeconds(allowingString: allowsString) else {
        throw unreadable("expires_in")
      }
      expiresIn = seconds
    }
    func optionalString(_ name: String) throws(AuthError) -> String? {
      guard let value = object[name], value != .null else { return nil }
      guard let text = value.stringValue else { throw unreadable(name) }
      return text.isEmpty ? nil : text
    }
    let refreshToken = try optionalString("refresh_token")
    let idToken = try optionalString("id_token")
    let tokenType = try optionalString("token_type")
    let scope = try optionalString("scope")
    let serverDate = response.serverDate
    let issuedAt = serverDate ?? now
    var extra: [String: String] = [:]
    if refreshToken != nil, let value = object["refresh_token_expires_in"], value != .null {
      guard let seconds = value.positiveSeconds(allowingString: allowsString) else {
        throw unreadable("refresh_token_expires_in")
      }
      extra[refreshTokenExpiresAtKey] = String(
        Int64(issuedAt.addingTimeInterval(seconds).timeIntervalSince1970))
    }
    return Credential(
      accessToken: Secret(accessToken),
      refreshToken: refreshToken.map { Secret($0) },
      idToken: idToken.map { Secret($0) },
      tokenType: tokenType?.lowercased() ?? "bearer",
      scopes: scope.map { OAuth2TokenResponse.scopes($0, separator: ",") } ?? requestedScopes,
      expiresAt: expiresIn.map { issuedAt.addingTimeInterval($0) },
      issuedAt: issuedAt,
      serverTimeOffset: serverDate.map { $0.timeIntervalSince(now) } ?? 0,
      extra: extra)
  }

  /// The ``Credential/extra`` key of the refresh token's own expiry (seconds since 1970),
  /// when the provider said (Kakao's `refresh_token_expires_in`).
  static let refreshTokenExpiresAtKey = "refresh_token_expires_at"

  /// The credential a refresh leaves: the new tokens, with the old refresh token and its
  /// expiry when the answer carried none (whatever the rotation rule: a token the provider
  /// issued is never thrown away), and the old ID token when the answer carried none.
  static func merging(refreshed: Credential, into old: Credential) -> Credential {
    var merged = refreshed
    if merged.refreshToken == nil {
      merged.refreshToken = old.refreshToken
      merged.extra[refreshTokenExpiresAtKey] = old.extra[refreshTokenExpiresAtKey]
    }
    if merged.idToken == nil { merged.idToken = old.idToken }
    return merged
  }

  /// What a failed refresh means, by the description's ``ErrorDialect``.
  ///
  /// Outages and answers that are not a well-formed provider error are transient, as in
  /// ``RefreshFailure/rfc6749(_:)``; a configuration error keeps the session. A provider
  /// error's first listed code decides: ``ErrorDialect/signOut`` signs out with
  /// ``SignOutReason/refreshTokenExpired``, ``ErrorDialect/configuration`` and
  /// ``ErrorDialect/transient`` keep the session, and other codes sign out when
  /// ``ErrorDialect/otherCodesSignOut`` says so.
  static func refreshFailure(_ error: any Error, dialect: ErrorDialect) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      if dialect.shape == .rfc6749OrMessage, let failure = messageShapedFailure(error) {
        return failure
      }
      switch error.code {
      case .refreshTokenInvalid:
        return .refreshTokenInvalid(error.signOutReason ?? .refreshTokenExpired)
      case .signedOut:
        return .terminal(error.signOutReason ?? .refreshTokenRevoked)
      case .configuration:
        return .transient(retryAfter: error.retryAfter)
      default:
        break
      }
      guard let oauth = error.oauth else { return .transient(retryAfter: error.retryAfter) }
      let fields = ErrorFields(
        oauth: oauth, providerCodes: error.providerCode.map { [$0] } ?? [])
      switch verdict(of: fields, dialect: dialect) {
      case .signOut:
        return .refreshTokenInvalid(.refreshTokenExpired)
      case .configuration, .transient:
        return .transient(retryAfter: error.retryAfter)
      case .other:
        return dialect.otherCodesSignOut
          ? .terminal(.providerRejected(code: oauth.error))
          : .transient(retryAfter: error.retryAfter)
      }
    }
  }
}
