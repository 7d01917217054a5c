import Foundation

extension OAuth2TokenResponse {
  /// Parses a 2xx token endpoint response.
  ///
  /// - Parameters:
  ///   - response: The response.
  ///   - now: The local time at which it was received.
  ///   - requestedScopes: The scopes to assume when the response has no `scope`.
  ///   - scopeSeparator: The configured scope separator (a space also separates).
  ///   - operation: What the request was, for messages.
  ///   - provider: The provider, for errors.
  init(
    response: TransportResponse,
    receivedAt now: Date,
    requestedScopes: [String],
    scopeSeparator: String,
    operation: String,
    provider: ProviderID
  ) throws(AuthError) {
    let object = try Self.object(of: response, operation: operation, provider: provider)
    guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
      if let fields = TransportResponse.oauthErrorFields(in: object) {
        throw AuthError(
          .providerError,
          "\(operation) was rejected with '\(fields.error)' (in an HTTP \(response.status) body).",
          provider: provider, httpStatus: response.status, oauth: fields)
      }
      let keys = object.keys.sorted().prefix(10).map { ErrorText.excerpt($0, limit: 40) }
      throw AuthError(
        .invalidResponse,
        "\(operation) answered HTTP \(response.status) without an access_token "
          + "(keys: \(keys.joined(separator: ", "))).",
        provider: provider, httpStatus: response.status, responseBodySize: response.body.count)
    }
    let serverDate = response.serverDate
    let issuedAt = serverDate ?? now
    let expiresIn = object["expires_in"].flatMap(Self.seconds)
    let scopes =
      object["scope"]?.stringValue.map { Self.scopes($0, separator: scopeSeparator) }
      ?? requestedScopes
    let credential = Credential(
      accessToken: Secret(accessToken),
      refreshToken: Self.nonEmpty(object["refresh_token"]).map { Secret($0) },
      idToken: Self.nonEmpty(object["id_token"]).map { Secret($0) },
      tokenType: Self.nonEmpty(object["token_type"]) ?? "bearer",
      scopes: scopes,
      expiresAt: expiresIn.map { issuedAt.addingTimeInterval($0) },
      issuedAt: issuedAt,
      serverTimeOffset: serverDate.map { $0.timeIntervalSince(now) } ?? 0)
    self.init(
      credential: credential, raw: .object(object), expiresIn: expiresIn, serverDate: serverDate)
  }

  /// The body as a JSON object; a form-encoded body (old Facebook, GitHub) becomes an object
  /// of strings.
  private static func object(
    of response: TransportResponse, operation: String, provider: ProviderID
  ) throws(AuthError) -> [String: JSONValue] {
    if let object = response.jsonObject { return object }
    let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
    if contentType.hasPrefix(FormEncoding.contentType), !response.body.isEmpty,
      let fields = try? response.formFields(), !fields.isEmpty
    {
      return fields.mapValues(JSONValue.string)
    }
    throw AuthError(
      .invalidResponse,
      "\(operation) answered HTTP \(response.status) \(response.bodySummary(nil)).",
      provider: provider, httpStatus: response.status, responseBodySize: response.body.count)
  }

  /// The longest lifetime believed: 100 years. Longer values are capped so that timers built
  /// from them (milliseconds in an `Int64`) cannot overflow.
  static let maximumSeconds: TimeInterval = 3_153_600_000

  /// `expires_in` as seconds: a positive finite number or numeric string, capped at
  /// ``maximumSeconds``; anything else is treated as absent.
  static func seconds(_ value: JSONValue) -> TimeInterval? {
    let number: Double?
    switch value {
    case .number(let value): number = value
    case .string(let text): number = Double(text.trimmingCharacters(in: .whitespaces))
    default: number = nil
    }
    guard let number, number.isFinite, number > 0 else { return nil }
    return min(number, maximumSeconds)
  }

  static func scopes(_ text: String, separator: String) -> [String] {
    var separators = CharacterSet.whitespaces
    separators.insert(charactersIn: separator)
    return text.components(separatedBy: separators).filter { !$0.isEmpty }
  }

  private static func nonEmpty(_ value: JSONValue?) -> String? {
    guard let text = value?.stringValue, !text.isEmpty else { return nil }
    return text
  }
}
