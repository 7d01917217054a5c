import Foundation

extension XProvider {
  /// OAuth 2.0: `GET /2/users/me` with `user.fields`. OAuth 1.0a: `verify_credentials`.
  public func fetchIdentity(for credential: Credential) async throws -> Identity {
    switch engine {
    case .oauth2(_, let configuration, let endpoints):
      return try await cachedUsersMe(
        credential.accessToken, expiresAt: credential.expiresAt, configuration: configuration,
        endpoints: endpoints)
    case .oauth1(let client, let configuration, let endpoints):
      guard let secret = credential.tokenSecret else {
        throw AuthError(
          .configuration,
          "This X provider uses OAuth 1.0a, but the credential has no token "
            + "secret (it is an OAuth 2.0 credential).", provider: id)
      }
      return try await verifyCredentials(
        client, token: credential.accessToken, secret: secret,
        url: endpoints.verifyCredentials, includeEmail: configuration.includeEmail)
    }
  }

  /// The identity of `accessToken`: from ``XIdentityCache`` while it lasts, else from
  /// `/2/users/me` (then cached until `expiresAt`, within the configured bounds). With the
  /// `users.email` scope, `confirmed_email` is asked for too.
  func cachedUsersMe(
    _ accessToken: Secret, expiresAt: Date?, configuration: Configuration, endpoints: Endpoints
  ) async throws -> Identity {
    let policy = configuration.identityCache
    if policy.isEnabled, let known = identities.identity(for: accessToken, now: clock.wallTime) {
      return known
    }
    var fields = configuration.userFields
    if configuration.scopes.contains("users.email"), !fields.contains("confirmed_email") {
      fields.append("confirmed_email")
    }
    let identity = try await usersMe(
      accessToken: accessToken, url: endpoints.usersMe, userFields: fields,
      timeout: configuration.requestTimeout)
    identities.insert(
      identity, for: accessToken, now: clock.wallTime, expiresAt: expiresAt, policy: policy)
    return identity
  }

  /// `GET /2/users/me?user.fields=…` with the bearer token → the identity.
  /// `confirmed_email` (the `users.email` scope) is the identity's email, verified: X returns
  /// only an address the user confirmed.
  ///
  /// X answers `{"data":{"id","name","username","profile_image_url",…}}`. Errors:
  /// - `401` with a problem body → ``AuthError/Code/invalidToken``, reason
  ///   ``SignOutReason/accessRevoked`` (X says the token is not valid);
  /// - `429` and 5xx → ``AuthError/Code/serverUnavailable`` (transient; a 429 retries at
  ///   `x-rate-limit-reset`);
  /// - other statuses with a problem body, and a 200 with only `errors` →
  ///   ``AuthError/Code/providerError`` with the problem kind in ``AuthError/providerCode``;
  /// - an HTML, empty, truncated or otherwise unexpected body (whatever the status) →
  ///   ``AuthError/Code/invalidResponse``, which degrades rather than signs out.
  func usersMe(
    accessToken: Secret, url: URL, userFields: [String], timeout: Duration
  ) async throws -> Identity {
    var url = url
    if !userFields.isEmpty {
      url.append(queryItems: [
        URLQueryItem(name: "user.fields", value: userFields.joined(separator: ","))
      ])
    }
    let request = TransportRequest(
      url: url,
      headers: ["Authorization": "Bearer \(accessToken.revealed)", "Accept": "application/json"],
      timeout: timeout)
    let operation = "The user lookup (/2/users/me)"
    let response = try await send(request, operation: operation, secrets: [accessToken])
    let object = response.jsonObject
    guard response.isSuccess else {
      throw apiError(response, object: object, operation: operation)
    }
    guard let object else {
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: id, httpStatus: response.status)
    }
    guard let data = object["data"]?.objectValue else {
      if let problem = XProblem.first(in: object) {
        throw AuthError(
          .providerError, "\(operation) answered only an error: \(problem.text) (\(problem.kind)).",
          provider: id, httpStatus: response.status, providerCode: problem.kind)
      }
      throw AuthError(
        .invalidResponse, "\(operation) answered without a 'data' object.", provider: id,
        httpStatus: response.status)
    }
    guard let subject = data["id"]?.stringValue, !subject.isEmpty else {
      throw AuthError(
        .invalidResponse, "\(operation) answered a user without an 'id'.", provider: id,
        httpStatus: response.status)
    }
    return Identity(
      provider: id, subject: subject,
      name: data["name"]?.stringValue ?? data["username"]?.stringValue,
      email: data["confirmed_email"]?.stringValue,
      emailVerified: data["confirmed_email"]?.stringValue == nil ? nil : true,
      pictureURL: data["profile_image_url"]?.stringValue.flatMap(URL.init(string:)),
      rawClaims: .object(data))
  }

  /// `GET 1.1/account/verify_credentials.json?include_email=…&skip_status=true`, signed with
  /// the token → the identity (`id_str`, `name`, `screen_name`, `profile_image_url_https`,
  /// `email`).
  ///
  /// v1.1 error `89` (invalid or expired token) → ``AuthError/Code/invalidToken`` with
  /// ``SignOutReason/accessRevoked``; `32` (could not authenticate: a bad signature, so the
  /// consumer secret, the token secret or the clock) → ``AuthError/Code/invalidToken`` without
  /// a sign-out reason when `verifying` (the pair does not belong to this app), and
  /// ``AuthError/Code/providerError`` otherwise (the app may be misconfigured: degrade).
  func verifyCredentials(
    _ client: OAuth1Client, token: Secret, secret: Secret, url: URL, includeEmail: Bool,
    verifying: Bool = false
  ) async throws -> Identity {
    var url = url
    url.append(queryItems: [
      URLQueryItem(name: "include_email", value: includeEmail ? "true" : "false"),
      URLQueryItem(name: "skip_status", value: "true"),
    ])
    let operation = "the credential check (verify_credentials)"
    let request = try client.sign(
      TransportRequest(url: url, headers: ["Accept": "application/json"]), token: token,
      tokenSecret: secret)
    let response: TransportResponse
    do {
      response = try await client.send(request, operation: operation, secrets: [token, secret])
    } catch let error as AuthError {
      throw Self.oauth1Error(error, verifying: verifying)
    }
    guard let object = response.jsonObject else {
      throw AuthError(
        .invalidResponse,
        "The credential check answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: id, httpStatus: response.status)
    }
    let subject =
      object["id_str"]?.stringValue ?? object["id"]?.int64Value.map { String($0) }
    guard let subject, !subject.isEmpty else {
      throw AuthError(
        .invalidResponse, "The credential check answered a user without 'id_str'.",
        provider: id, httpStatus: response.status)
    }
    var claims = object
    if let screenName = object["screen_name"] { claims["username"] = screenName }
    return Identity(
      provider: id, subject: subject,
      name: object["name"]?.stringValue ?? object["screen_name"]?.stringValue,
      email: object["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
      pictureURL: (object["profile_image_url_https"] ?? object["profile_image_url"])?
        .stringValue.flatMap(URL.init(string:)),
      rawClaims: .object(claims))
  }

}
