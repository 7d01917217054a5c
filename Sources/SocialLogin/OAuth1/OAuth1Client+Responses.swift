import Foundation

extension OAuth1Client {
  /// Sends `request` and returns the response when its status is 2xx; otherwise throws the
  /// ``AuthError`` that ``error(for:operation:secrets:)`` describes.
  ///
  /// `AuthError` and `CancellationError` from the transport pass through; any other error is
  /// wrapped as ``AuthError/Code/network``.
  func send(
    _ request: TransportRequest, operation: String, secrets: [Secret] = []
  ) async throws -> TransportResponse {
    // Signed requests carry tokens; see `HTTPTransport.send(_:operation:provider:)`.
    try request.url.requireHTTPSOrLoopback("URL of \(operation)", provider: provider)
    let response: TransportResponse
    do {
      response = try await transport.send(request)
    } catch let error as AuthError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw AuthError(
        .network, "Sending \(operation) failed: \(type(of: error)).", provider: provider,
        underlying: error)
    }
    guard (200..<300).contains(response.status) else {
      throw self.error(for: response, operation: operation, secrets: secrets)
    }
    return response
  }

  /// Parses a 2xx form-encoded body.
  func formFields(
    of response: TransportResponse, operation: String
  ) throws(AuthError) -> [String: String] {
    do {
      return try response.formFields()
    } catch {
      var error = error
      error.provider = provider
      error.message =
        "\(operation.prefix(1).uppercased())\(operation.dropFirst()): \(error.message)"
      throw error
    }
  }

  /// The error for a non-2xx response.
  ///
  /// - 5xx and 429 are ``AuthError/Code/serverUnavailable`` (transient) with
  ///   ``AuthError/retryAfter`` from `Retry-After`.
  /// - Other statuses are ``AuthError/Code/providerError``. The provider's code and message
  ///   come from v1.1 JSON (`{"errors":[{"code":89,"message":"…"}]}`), an OAuth 2 style
  ///   `{"error":…}` object, the XML `<error>` element X's OAuth endpoints sometimes use, or a
  ///   short plain-text body, quoted after ``Redaction/scrub(_:)`` and with every value in
  ///   `secrets` masked.
  func error(
    for response: TransportResponse, operation: String, secrets: [Secret]
  ) -> AuthError {
    let allSecrets = secrets + [signer.consumerSecret]
    let details = Self.errorDetails(in: response.body)
    let transient = response.status >= 500 || response.status == 429
    var message = "\(provider) answered \(operation) with HTTP \(response.status)"
    if let text = details.message.map({ Self.sanitize($0, secrets: allSecrets) }), !text.isEmpty {
      message += ": \(text)"
    } else if response.body.isEmpty {
      message += " and an empty body"
    } else {
      message += " and a \(response.body.count)-byte body that is not a recognised error"
    }
    if let code = details.code { message += " (code \(code))" }
    message += "."
    if let hint = Self.hint(code: details.code, status: response.status) {
      message += " " + hint
    }
    return AuthError(
      transient ? .serverUnavailable : .providerError, message,
      provider: provider, httpStatus: response.status, oauth: details.oauth,
      providerCode: details.code,
      retryAfter: transient ? response.retryAfter(now: signer.clock.wallTime) : nil)
  }

  /// What the provider said in an error body.
  struct ErrorDetails {
    var code: String?
    var message: String?
    var oauth: AuthError.OAuthErrorFields?
  }

  /// Reads an error body: v1.1 JSON `errors`, v2-style `title`/`detail`, OAuth 2 `error`,
  /// XML `<error>`, or plain text.
  static func errorDetails(in body: Data) -> ErrorDetails {
    if let object = try? JSONDecoder().decode(JSONValue.self, from: body),
      case .object(let fields) = object
    {
      if case .array(let errors)? = fields["errors"], case .object(let first)? = errors.first {
        let messages = errors.compactMap { entry -> String? in
          guard case .object(let entry) = entry else { return nil }
          return entry["message"]?.stringValue
        }
        return ErrorDetails(
          code: first["code"].flatMap(codeString),
          message: messages.isEmpty ? nil : messages.joined(separator: "; "))
      }
      if let error = fields["error"]?.stringValue {
        let description = fields["error_description"]?.stringValue
        return ErrorDetails(
          code: nil, message: description ?? error,
          oauth: AuthError.OAuthErrorFields(
            error: error, errorDescription: description,
            errorURI: fields["error_uri"]?.stringValue))
      }
      if let detail = fields["detail"]?.stringValue ?? fields["title"]?.stringValue {
        return ErrorDetails(code: nil, message: detail)
      }
      return ErrorDetails()
    }
    guard let text = String(data: body, encoding: .utf8) else { return ErrorDetails() }
    if let start = text.range(of: "<error>"), let end = text.range(of: "</error>"),
      start.upperBound <= end.lowerBound
    {
      return ErrorDetails(message: String(text[start.upperBound..<end.lowerBound]))
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // Quote short plain text only: HTML pages and long dumps say nothing useful.
    guard !trimmed.isEmpty, trimmed.count <= 300, !trimmed.hasPrefix("<") else {
      return ErrorDetails()
    }
    return ErrorDetails(message: trimmed)
  }

  private static func codeString(_ value: JSONValue) -> String? {
    if let string = value.stringValue { return string }
    if case .number(let number) = value, let integer = Int(exactly: number) {
      return String(integer)
    }
    return nil
  }

  /// Collapses white space, cuts `text` to 300 characters, masks secret-looking fields and
  /// every value in `secrets`.
  static func sanitize(_ text: String, secrets: [Secret]) -> String {
    var result = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
      .joined(separator: " ")
    if result.count > 300 { result = String(result.prefix(300)) + "…" }
    for secret in secrets where !secret.isEmpty {
      result = result.replacingOccurrences(of: secret.revealed, with: Redaction.mask)
    }
    return Redaction.scrub(result)
  }

  private static func hint(code: String?, status: Int) -> String? {
    switch code {
    case "32":
      return "The signature did not verify: check the consumer secret, the token secret, and "
        + "that the signed URL, method and parameters are exactly those sent."
    case "89":
      return "The token is invalid, expired or revoked."
    case "135":
      return "The oauth_timestamp is out of bounds: check the clock."
    case "415":
      return "The callback URL is not registered for this app."
    default:
      return status == 401 && code == nil
        ? "Check the consumer key and secret, the token and its secret, and the clock." : nil
    }
  }
}
