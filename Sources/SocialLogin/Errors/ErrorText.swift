import Foundation

/// Text helpers for error messages: everything quoted from a provider is scrubbed of secrets,
/// stripped of control characters and capped.
enum ErrorText {
  /// The longest excerpt of a provider's text an error message quotes.
  static let excerptLimit = 200

  /// `text` scrubbed with ``Redaction/scrub(_:)``, white space collapsed, capped at `limit`
  /// characters (with `…` when cut).
  static func excerpt(_ text: String, limit: Int = excerptLimit) -> String {
    // Scrub before cutting, so that a cut never leaves half a secret that the patterns miss.
    let scrubbed = Redaction.scrub(String(text.prefix(16_384)))
    let words = scrubbed.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
    let collapsed = String(
      String.UnicodeScalarView(
        words.joined(separator: " ").unicodeScalars.filter {
          !CharacterSet.controlCharacters.contains($0)
        }))
    guard collapsed.count > limit else { return collapsed }
    return String(collapsed.prefix(limit)) + "…"
  }
}

extension AuthError {
  /// This error with every occurrence of `secrets` (the values a request sent) replaced by
  /// ``Redaction/mask`` in its message and OAuth fields: a provider that echoes a token in free
  /// text, where ``Redaction/scrub(_:)`` cannot recognise it, does not leak it through us.
  func masking(_ secrets: [String]) -> AuthError {
    let secrets = secrets.filter { $0.count >= 4 }
    guard !secrets.isEmpty else { return self }
    func mask(_ text: String) -> String {
      secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.mask) }
    }
    var copy = self
    copy.message = mask(message)
    if var oauth = copy.oauth {
      oauth.error = mask(oauth.error)
      oauth.errorDescription = oauth.errorDescription.map(mask)
      oauth.errorURI = oauth.errorURI.map(mask)
      copy.oauth = oauth
    }
    return copy
  }
}

extension TransportResponse {
  /// Whether the status is 2xx.
  var isSuccess: Bool { (200..<300).contains(status) }

  /// The body parsed as a JSON object, or `nil`.
  var jsonObject: [String: JSONValue]? {
    guard !body.isEmpty else { return nil }
    return (try? JSONDecoder().decode(JSONValue.self, from: body))?.objectValue
  }

  /// The RFC 6749 §5.2 `error`, `error_description` and `error_uri`, when the body is a JSON
  /// object whose `error` is a string.
  func oauthErrorFields() -> AuthError.OAuthErrorFields? {
    guard let object = jsonObject else { return nil }
    return Self.oauthErrorFields(in: object)
  }

  /// The OAuth error fields of a decoded JSON object.
  static func oauthErrorFields(in object: [String: JSONValue]) -> AuthError.OAuthErrorFields? {
    guard let error = object["error"]?.stringValue, !error.isEmpty else { return nil }
    return AuthError.OAuthErrorFields(
      error: ErrorText.excerpt(error, limit: 128),
      errorDescription: object["error_description"]?.stringValue.map { ErrorText.excerpt($0) },
      errorURI: object["error_uri"]?.stringValue.map { ErrorText.excerpt($0) })
  }

  /// The error for a response that did not succeed: 5xx and 429 are
  /// ``AuthError/Code/serverUnavailable`` (transient, with `Retry-After`); an RFC 6749 JSON
  /// error is ``AuthError/Code/providerError``; anything else is
  /// ``AuthError/Code/invalidResponse`` (transient: not the provider's verdict) with a safe
  /// description of the body and its size.
  func oauth2Failure(_ operation: String, provider: ProviderID, now: Date) -> AuthError {
    let retryAfter = retryAfter(now: now)
    let object = jsonObject
    let fields = object.flatMap(Self.oauthErrorFields(in:))
    if status >= 500 || status == 429 {
      var message = "\(operation) is unavailable (HTTP \(status))"
      if let fields { message += ": \(fields.error)" }
      if let retryAfter { message += "; retry after \(retryAfter)" }
      return AuthError(
        .serverUnavailable, message + ".", provider: provider, httpStatus: status, oauth: fields,
        retryAfter: retryAfter)
    }
    if let fields {
      return AuthError(
        .providerError, "\(operation) was rejected with '\(fields.error)'.",
        provider: provider, httpStatus: status, oauth: fields, retryAfter: retryAfter)
    }
    if let object, let nested = object["error"]?.objectValue {
      // Graph-style errors: {"error":{"message","type","code","error_subcode"}}.
      let text = nested["message"]?.stringValue.map { ": " + ErrorText.excerpt($0) } ?? "."
      return AuthError(
        .providerError, "\(operation) was rejected (HTTP \(status))\(text)",
        provider: provider, httpStatus: status,
        providerCode: nested["code"].flatMap(Self.scalarText),
        providerSubcode: (nested["error_subcode"] ?? nested["subcode"]).flatMap(Self.scalarText),
        retryAfter: retryAfter)
    }
    return AuthError(
      .invalidResponse, "\(operation) answered HTTP \(status) \(bodySummary(object)).",
      provider: provider, httpStatus: status, responseBodySize: body.count,
      retryAfter: retryAfter)
  }

  /// Says what the body is without quoting anything that could hold a secret: JSON bodies are
  /// described by their shape (and a scrubbed `message`/`detail`, if any); text and HTML bodies
  /// by a scrubbed, capped excerpt.
  func bodySummary(_ object: [String: JSONValue]?) -> String {
    if body.isEmpty { return "with an empty body" }
    let contentType = headers["Content-Type"].map { " (\($0))" } ?? ""
    if let object {
      let keys = object.keys.sorted().prefix(10).map { ErrorText.excerpt($0, limit: 40) }
      var summary =
        "with a JSON object that is not an OAuth error (keys: \(keys.joined(separator: ", ")))"
      for key in ["error_description", "message", "detail", "title"] {
        if let text = object[key]?.stringValue {
          summary += ", \(key): \(ErrorText.excerpt(text))"
          break
        }
      }
      return summary
    }
    let text = String(decoding: body.prefix(65_536), as: UTF8.self)
    let trimmed = text.drop(while: { $0.isWhitespace })
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[")
      || headers["Content-Type"]?.lowercased().contains("json") == true
    {
      // A cut-off JSON body may hold a token whose closing quote is missing: quote nothing.
      return "with a body of \(body.count) bytes\(contentType) that is not valid JSON "
        + "(truncated or malformed)"
    }
    let plain = ErrorText.replacingTags(in: text)
    return "with a body of \(body.count) bytes\(contentType): \(ErrorText.excerpt(plain))"
  }

  private static func scalarText(_ value: JSONValue) -> String? {
    if let text = value.stringValue { return ErrorText.excerpt(text, limit: 64) }
    if let number = value.int64Value { return String(number) }
    return nil
  }
}

extension ErrorText {
  /// `text` with every `<…>` tag replaced by a space, in one pass. (The regular expression
  /// `<[^>]*>` restarted at every `<` of an unclosed run and scanned to the end: 64 KiB of `<`
  /// took seconds, found by fuzzing.) An unclosed `<` and what follows it are kept as they are.
  static func replacingTags(in text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    var openTag: String.Index?  // where a `<` not yet closed by `>` started
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if openTag != nil {
        if character == ">" {
          output.append(" ")
          openTag = nil
        }
      } else if character == "<" {
        openTag = index
      } else {
        output.append(character)
      }
      index = text.index(after: index)
    }
    if let openTag { output += text[openTag...] }
    return output
  }
}
