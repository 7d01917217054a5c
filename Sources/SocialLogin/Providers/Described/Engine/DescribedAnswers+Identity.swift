import Foundation

extension DescribedAnswers {
  /// Reads a profile answer (or an ID token's claims) with the description's
  /// ``IdentityRules``: the envelope first (NAVER's `resultcode`), then the subject (a
  /// string, or an integer kept as its exact text), the name, email and picture.
  ///
  /// Without ``IdentityRules/emailVerified`` pointers the provider never says whether an
  /// email is verified, and it is not; with them, every one must select `true`.
  ///
  /// - Throws: ``AuthError/Code/providerError`` for an envelope that is not the success
  ///   value, ``AuthError/Code/invalidResponse`` for an answer without a readable subject.
  static func identity(
    from object: DescribedJSON, rules: IdentityRules, provider: ProviderID, source: String
  ) throws(AuthError) -> Identity {
    if let envelope = rules.envelope {
      let code = object.value(at: envelope.pointer)?.identifierText
      guard code == envelope.success else {
        throw AuthError(
          .providerError,
          "\(source) answered result code '\(ErrorText.excerpt(code ?? "none", limit: 32))', "
            + "not '\(envelope.success)'.",
          provider: provider, providerCode: code.map { ErrorText.excerpt($0, limit: 32) })
      }
    }
    guard let subject = object.value(at: rules.subject)?.identifierText,
      subject.utf8.count <= 1024
    else {
      throw AuthError(
        .invalidResponse,
        "\(source) has no readable subject at '\(rules.subject)' (a string or an integer).",
        provider: provider)
    }
    let name = rules.name.lazy.compactMap { object.value(at: $0)?.stringValue }.first {
      !$0.isEmpty
    }
    let email = rules.email.flatMap { object.value(at: $0)?.stringValue }.flatMap {
      $0.isEmpty ? nil : $0
    }
    var verified: Bool?
    if email != nil {
      verified =
        !rules.emailVerified.isEmpty
        && rules.emailVerified.allSatisfy { object.value(at: $0)?.boolValue == true }
    }
    let picture = rules.picture.flatMap { object.value(at: $0)?.stringValue }.flatMap {
      URL(string: $0)
    }
    return Identity(
      provider: provider, subject: subject, name: name, email: email, emailVerified: verified,
      pictureURL: picture, rawClaims: object.jsonValue)
  }

  /// The primary address of an email list (GitHub's `/user/emails`) and whether it is
  /// verified; `nil` when no entry is marked primary. At most the first 100 entries are read.
  static func primaryEmail(
    in list: DescribedJSON, rules: IdentityRules.EmailList
  ) -> (address: String, verified: Bool)? {
    guard case .array(let entries) = list else { return nil }
    for entry in entries.prefix(100) where entry.value(at: rules.primary)?.boolValue == true {
      guard let address = entry.value(at: rules.address)?.stringValue, !address.isEmpty else {
        return nil
      }
      return (address, entry.value(at: rules.verified)?.boolValue == true)
    }
    return nil
  }

  /// What an access-token check answered: whose the token is and, when the answer says, the
  /// app it was issued to (Kakao's `app_id`, exact text).
  static func tokenCheck(
    _ object: DescribedJSON, check: AccessTokenCheck, provider: ProviderID
  ) throws(AuthError) -> (subject: String, appID: String?) {
    guard let subject = object.value(at: check.subject)?.identifierText else {
      throw AuthError(
        .invalidResponse,
        "The access token check has no readable subject at '\(check.subject)'.",
        provider: provider)
    }
    return (subject, check.appID.flatMap { object.value(at: $0)?.identifierText })
  }

  /// A JSON answer of an API endpoint (profile, emails, token check): 2xx with a JSON body;
  /// 401 and 403 say the access token is not (or no longer) accepted; 5xx and 429 are
  /// outages; anything else is not an answer.
  static func apiAnswer(
    _ response: TransportResponse, provider: ProviderID, operation: String, now: Date
  ) throws(AuthError) -> DescribedJSON {
    switch response.status {
    case 200..<300:
      guard response.body.count <= DescribedJSON.maximumBytes,
        let value = DescribedJSON(parsing: response.body)
      else {
        throw AuthError(
          .invalidResponse,
          "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
          provider: provider, httpStatus: response.status, responseBodySize: response.body.count)
      }
      return value
    case 401, 403:
      throw AuthError(
        .invalidToken, "\(operation) rejected the access token (HTTP \(response.status)).",
        provider: provider, httpStatus: response.status, signOutReason: .accessRevoked)
    case 429, 500...:
      throw AuthError(
        .serverUnavailable, "\(operation) answered HTTP \(response.status).",
        provider: provider, httpStatus: response.status,
        retryAfter: response.retryAfter(now: now))
    default:
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: provider, httpStatus: response.status, responseBodySize: response.body.count)
    }
  }
}
