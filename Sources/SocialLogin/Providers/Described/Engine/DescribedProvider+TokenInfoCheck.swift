import Foundation

extension DescribedProvider {
  /// An ``AccessTokenCheck`` with a ``AccessTokenCheck/tokenParameter``: GETs the endpoint
  /// with the token in the query (LINE's `/oauth2/v2.1/verify?access_token=…`), requires the
  /// answer's ``AccessTokenCheck/clientID`` to be this client and its
  /// ``AccessTokenCheck/expiresIn`` to be positive, then asks the identity endpoint who the
  /// user is. An RFC 6749 error answer means the token is not valid.
  func verifyAtTokenEndpoint(_ token: Secret, check: AccessTokenCheck) async throws
    -> VerifiedIdentity
  {
    let operation = "The \(description.displayName) access-token verification"
    let answer: DescribedJSON
    do {
      answer = try await getTokenInfo(
        try endpoint(check.endpoint), parameter: check.tokenParameter ?? "access_token",
        token: token, operation: operation)
    } catch var error as AuthError where error.code == .providerError && error.oauth != nil {
      // LINE's 400 {"error":"invalid_request","error_description":"access token expired"}.
      error.code = .invalidToken
      error.signOutReason = .accessRevoked
      throw error
    }
    if let pointer = check.clientID {
      let issuedTo = answer.value(at: pointer)?.stringValue
      guard issuedTo == configuration.clientID else {
        throw AuthError(
          .invalidToken,
          "The \(description.displayName) access token was issued to another "
            + "\(description.client.clientIDLabel) "
            + "('\(ErrorText.excerpt(issuedTo ?? "none", limit: 40))'), not to "
            + "\(configuration.clientID).",
          provider: id)
      }
    }
    var expiresAt: Date?
    if let pointer = check.expiresIn {
      guard let seconds = answer.value(at: pointer)?.positiveSeconds(allowingString: true) else {
        throw AuthError(
          .invalidToken,
          "\(description.displayName) says the access token has expired "
            + "('\(pointer)' is not a positive number of seconds).",
          provider: id)
      }
      expiresAt = clock.wallTime.addingTimeInterval(seconds)
    }
    let scopes = check.scope.flatMap { answer.value(at: $0)?.stringValue }.map {
      OAuth2TokenResponse.scopes($0, separator: " ")
    }
    let identity = try await fetchIdentity(
      for: Credential(accessToken: token, issuedAt: clock.wallTime))
    if let subject = answer.value(at: check.subject)?.identifierText, subject != identity.subject {
      throw AuthError(
        .invalidToken,
        "The \(description.displayName) profile names another user than the token check.",
        provider: id)
    }
    return VerifiedIdentity(
      identity: identity, expiresAt: expiresAt, scopes: scopes ?? [],
      audience: .proven(audience: configuration.clientID))
  }

  /// GETs `url` with `token` as the query parameter `parameter`; errors never show it.
  private func getTokenInfo(
    _ url: URL, parameter: String, token: Secret, operation: String
  ) async throws -> DescribedJSON {
    var target = url
    if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
      let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
      components.percentEncodedQuery =
        existing + FormEncoding.encode([(parameter, token.revealed)])
      target = components.url ?? url
    }
    let request = TransportRequest(
      url: target, headers: ["Accept": "application/json"],
      timeout: configuration.runtime.requestTimeout ?? .seconds(15))
    do {
      let response = try await transport.send(request, operation: operation, provider: id)
      if description.errors.shape == .rfc6749OrMessage {
        return try DescribedAnswers.messageShapedAnswer(
          response, description: description, operation: operation, now: clock.wallTime)
      }
      guard (200..<300).contains(response.status) else {
        throw DescribedAnswers.failure(
          response, object: DescribedAnswers.object(of: response), description: description,
          operation: operation, now: clock.wallTime)
      }
      return try DescribedAnswers.apiAnswer(
        response, provider: id, operation: operation, now: clock.wallTime)
    } catch let error as AuthError {
      throw error.masking([token.revealed])
    }
  }
}
