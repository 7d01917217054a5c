import Foundation

extension DescribedAnswers {
  /// ``ErrorDialect/Shape/rfc6749OrMessage``: an answer without RFC 6749 fields but with a
  /// `message` string is the provider's refusal, ``AuthError/Code/providerError`` with code
  /// `http_<status>` and the message quoted (a 401 says the token is not accepted:
  /// ``AuthError/Code/invalidToken``); `nil` for any other answer.
  static func messageRefusal(
    _ response: TransportResponse, object: DescribedJSON?, description: ProviderDescription,
    operation: String, now: Date
  ) -> AuthError? {
    guard response.status < 500, response.status != 429,
      let message = object?["message"]?.stringValue
    else { return nil }
    var error = AuthError(
      .providerError,
      "\(operation) was rejected (HTTP \(response.status)): " + ErrorText.excerpt(message),
      provider: description.id, httpStatus: response.status,
      providerCode: "http_\(response.status)", retryAfter: response.retryAfter(now: now))
    if response.status == 401 {
      error.code = .invalidToken
      error.signOutReason = .accessRevoked
    }
    return error
  }

  /// ``ErrorDialect/Shape/rfc6749OrMessage``: a 401 with an RFC 6749 error that is not the
  /// app's configuration says the token is not accepted; other errors as they are.
  static func unauthorized(
    _ error: AuthError, response: TransportResponse, description: ProviderDescription
  ) -> AuthError {
    guard description.errors.shape == .rfc6749OrMessage, response.status == 401,
      error.code == .providerError, error.oauth != nil, !error.isOutage
    else { return error }
    var refused = error
    refused.code = .invalidToken
    refused.signOutReason = .accessRevoked
    return refused
  }

  /// An API answer (profile, token check) in ``ErrorDialect/Shape/rfc6749OrMessage``: a 2xx
  /// JSON object, else the error ``failure(_:object:description:operation:now:)`` reads
  /// from either shape.
  static func messageShapedAnswer(
    _ response: TransportResponse, description: ProviderDescription, operation: String,
    now: Date
  ) throws(AuthError) -> DescribedJSON {
    let object = object(of: response)
    guard (200..<300).contains(response.status) else {
      throw failure(
        response, object: object, description: description, operation: operation, now: now)
    }
    guard let object, case .object = object else {
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
        provider: description.id, httpStatus: response.status,
        responseBodySize: response.body.count)
    }
    return object
  }

  /// What a failed request means in ``ErrorDialect/Shape/rfc6749OrMessage``, before the
  /// dialect's codes are read: a token that is not accepted is a dead session
  /// (``SignOutReason/accessRevoked``), and a `message` refusal ends it with its
  /// `http_<status>` code; `nil` leaves the error to the codes.
  static func messageShapedFailure(_ error: AuthError) -> RefreshFailure? {
    switch error.code {
    case .invalidToken:
      return .refreshTokenInvalid(error.signOutReason ?? .accessRevoked)
    case .providerError where error.oauth == nil:
      return .terminal(.providerRejected(code: error.providerCode ?? error.code.rawValue))
    default:
      return nil
    }
  }

  /// A profile identity completed from the stored ID token's standard claims
  /// (``IdentityRules/IDTokenClaimsUse/completeProfile``): the name, email and picture the profile lacks,
  /// and the raw claims of both, the profile's winning.
  static func completing(
    _ identity: Identity, profile: DescribedJSON, claims: DescribedJSON
  ) -> Identity {
    var completed = identity
    completed.name = completed.name ?? claims["name"]?.stringValue
    if completed.email == nil, let email = claims["email"]?.stringValue {
      completed.email = email
    }
    if completed.pictureURL == nil {
      completed.pictureURL = claims["picture"]?.stringValue.flatMap(URL.init(string:))
    }
    var raw = claims.objectValue ?? [:]
    raw.merge(profile.objectValue ?? [:]) { _, fromProfile in fromProfile }
    completed.rawClaims = DescribedJSON.object(raw).jsonValue
    return completed
  }
}
