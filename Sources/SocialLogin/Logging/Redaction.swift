import Foundation

/// Removes tokens and secrets from text before it is logged or put into an error message.
///
/// It masks JWTs, `Bearer`/`Basic`/`OAuth` credentials, `Authorization`/`Cookie` header values,
/// passwords in URLs, and the value of every form, query, JSON or `name: "value"` field whose
/// name names a secret (``isSecretName(_:)``: `refresh_token`, `clientSecret`, `code`, ...).
/// The masks keep the shape (`access_token=<redacted>`) so a log still tells what was sent.
public enum Redaction {
  /// The replacement text.
  public static let mask = "<redacted>"

  /// A regular expression the scrubber applies, with a sample it must change: tests compile
  /// every pattern and apply it to its sample, so a pattern that stops compiling or matching
  /// fails a test instead of silently leaving secrets in logs.
  struct Pattern: Sendable {
    /// The ICU regular expression.
    let source: String
    /// The replacement template (rewrites only).
    let template: String
    /// Text the pattern must change.
    let sample: String
  }

  /// Whole-match rewrites, applied in order.
  static let rewritePatterns: [Pattern] = [
    // Patterns that consume runs of name or token characters start with a lookbehind that stops
    // a match from starting inside such a run: otherwise every position of a long run starts
    // an attempt that scans to its end, and 16 KiB of "a.a.a." took seconds (found by fuzzing).
    // Passwords in URLs: scheme://user:password@host.
    Pattern(
      source: #"(?i)(?<![a-z0-9+.\-])\b([a-z][a-z0-9+.\-]*://[^/\s:@]*):[^/\s@]*@"#,
      template: "$1:\(mask)@", sample: "redis://user:hunter2@cache.example"),
    // Compact JWS (three segments) and JWE (five segments): base64url starting with `{"`.
    Pattern(
      source: #"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]*){1,4}"#,
      template: mask, sample: "token eyJhbGciOi.eyJzdWIi.c2ln here"),
    // Authorization header lines, whatever the scheme (`token ghp_...`, `Bearer ...`).
    Pattern(
      source:
        #"(?im)\b((?:proxy-)?authorization)(\s*:\s*)([A-Za-z][A-Za-z0-9._\-]*)[ \t]+[^\r\n]+"#,
      template: "$1$2$3 \(mask)", sample: "Authorization: token ghp_abc"),
    // Other header lines whose whole value is a secret.
    Pattern(
      source: #"(?im)\b(cookie|set-cookie|x-api-key|api-key|x-goog-api-key)(\s*:\s*)[^\r\n]+"#,
      template: "$1$2\(mask)", sample: "Cookie: sid=abc"),
    // OAuth 1.0a header parameters: `OAuth oauth_consumer_key="...", oauth_signature="..."`.
    Pattern(
      source: #"\bOAuth\s+(?:realm|oauth_[a-z_]+)="[^"]*"(?:\s*,\s*[A-Za-z_]+="[^"]*")*"#,
      template: "OAuth \(mask)", sample: #"OAuth oauth_consumer_key="ck", oauth_signature="s""#),
    // Bearer and DPoP credentials anywhere (Basic ones: ``basicPattern``).
    Pattern(
      source: #"(?i)\b(Bearer|DPoP)\s+[^\s,;"']+"#, template: "$1 \(mask)",
      sample: "sent Bearer abc123"),
  ]

  /// `Basic` credentials anywhere: group 1 is the scheme, group 2 the credential. Applied after
  /// ``rewritePatterns`` by ``maskBasicCredentials(in:using:)``, which leaves a plain word
  /// alone (``isPlainWord(_:)``): "Basic settings" in a provider's message is prose.
  static let basicPattern = Pattern(
    source: #"(?i)\b(Basic)\s+([^\s,;"']+)"#, template: "", sample: "sent Basic aWQ6cw==")

  /// Field patterns whose capture group 1 is the name and group 2 the value to mask when
  /// ``isSecretName(_:)`` says so.
  static let fieldPatterns: [Pattern] = [
    // Form and query fields: name=value, ended by `&`, `#`, a quote or white space.
    Pattern(
      source: #"(?<![A-Za-z0-9_.\-\[\]%])([A-Za-z_][A-Za-z0-9_.\-\[\]]*)=([^&#\s"'<>]+)"#,
      template: "", sample: "refresh_token=abc&x=1"),
    // JSON string fields, and Swift-style `name: "value"` as in `description` output.
    Pattern(
      source: #"(?<![A-Za-z0-9_.\-\\])"?([A-Za-z_][A-Za-z0-9_.\-]*)"?\s*:\s*"((?:[^"\\]|\\.)*)""#,
      template: "", sample: #"{"client_secret":"abc"}"#),
    // JSON embedded in a JSON string: \"name\":\"value\".
    Pattern(
      source: #"\\"([A-Za-z_][A-Za-z0-9_.\-]*)\\"\s*:\s*\\"((?:[^"\\]|\\[^"])*)\\""#,
      template: "", sample: #"{"body":"{\"access_token\":\"abc\"}"}"#),
  ]

  private static let rewrites = compile(rewritePatterns)
  private static let basic = compile([basicPattern])?.first?.0
  private static let fields = compile(fieldPatterns).map { $0.map(\.0) }

  /// The sources of the patterns that failed to compile (empty when all compile).
  static var patternsFailingToCompile: [String] {
    (rewritePatterns + [basicPattern] + fieldPatterns).map(\.source).filter {
      (try? NSRegularExpression(pattern: $0)) == nil
    }
  }

  /// Every pattern compiled, or `nil` when any failed: the scrubber then fails closed.
  static func compile(_ patterns: [Pattern]) -> [(NSRegularExpression, String)]? {
    var compiled: [(NSRegularExpression, String)] = []
    for pattern in patterns {
      guard let expression = try? NSRegularExpression(pattern: pattern.source) else {
        return nil
      }
      compiled.append((expression, pattern.template))
    }
    return compiled
  }

  /// Returns `text` with every secret-looking part masked.
  ///
  /// ```swift
  /// Redaction.scrub("refresh_token=abc&grant_type=refresh_token")
  /// // "refresh_token=<redacted>&grant_type=refresh_token"
  /// Redaction.scrub(#"{"accessToken":"abc","expires_in":3600}"#)
  /// // {"accessToken":"<redacted>","expires_in":3600}
  /// ```
  ///
  /// Should a pattern ever fail to compile on some platform's regular-expression engine, the
  /// whole text is masked (fail closed) rather than passed through with that secret shape
  /// unmasked.
  public static func scrub(_ text: String) -> String {
    guard let rewrites, let basic, let fields else { return mask }
    var result = text
    for (expression, template) in rewrites {
      let range = NSRange(result.startIndex..., in: result)
      result = expression.stringByReplacingMatches(
        in: result, range: range, withTemplate: template)
    }
    result = maskBasicCredentials(in: result, using: basic)
    for expression in fields {
      result = maskSecretFields(in: result, using: expression)
    }
    return result
  }

  /// Returns `metadata` with values of secret-named keys masked and the others scrubbed.
  public static func scrub(metadata: [String: String]) -> [String: String] {
    var result: [String: String] = [:]
    for (key, value) in metadata {
      result[key] = isSecretName(key) ? mask : scrub(value)
    }
    return result
  }

  /// Names that contain a secret-ish word but hold no secret.
  private static let harmlessNames: Set<String> = [
    "tokentype", "tokentypehint", "tokenendpoint", "tokenurl", "tokenendpointauthmethod",
    "authorizationendpoint", "authorizationurl", "oauthsignaturemethod", "signaturemethod",
    "granttype", "requestedtokentype", "issuedtokentype", "subjecttokentype",
  ]

  /// Names that are secrets although they contain none of ``secretFragments``.
  private static let secretNamesExact: Set<String> = [
    "code", "authcode", "authorizationcode", "devicecode", "state", "nonce", "key", "apikey",
    "postbody", "pin", "otp", "sessioninfo", "appsecretproof",
  ]

  private static let secretFragments = [
    "token", "secret", "password", "passwd", "verifier", "assertion", "signature",
    "authorization", "credential", "cookie", "privatekey", "apikey", "sessionkey",
  ]

  /// Whether a field or metadata key names a secret: `refresh_token`, `clientSecret`,
  /// `oauth_token`, `code`, `state`, `nonce`, `Authorization`, ... Case, `_`, `-` and `.` are
  /// ignored; names like `token_type` and `grant_type` are not secrets.
  public static func isSecretName(_ name: String) -> Bool {
    let normalized = String(
      String.UnicodeScalarView(
        name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
    if harmlessNames.contains(normalized) { return false }
    if secretNamesExact.contains(normalized) { return true }
    return secretFragments.contains { normalized.contains($0) }
  }

  /// Masks every `Basic` credential of `text` (``basicPattern``) but plain words.
  private static func maskBasicCredentials(
    in text: String, using expression: NSRegularExpression
  ) -> String {
    maskValues(in: text, using: expression) { _, value in !isPlainWord(value) }
  }

  /// Replaces capture group 2 of each match of `expression` in `text` with the mask when
  /// `masks` says so (given group 1, if any, and group 2), unless it is the mask already.
  private static func maskValues(
    in text: String, using expression: NSRegularExpression,
    where masks: (_ name: Substring?, _ value: Substring) -> Bool
  ) -> String {
    let whole = NSRange(text.startIndex..., in: text)
    var output = ""
    var cursor = text.startIndex
    for match in expression.matches(in: text, range: whole) {
      guard let valueRange = Range(match.range(at: 2), in: text) else { continue }
      let name = Range(match.range(at: 1), in: text).map { text[$0] }
      guard text[valueRange] != mask, masks(name, text[valueRange]) else { continue }
      output += text[cursor..<valueRange.lowerBound]
      output += mask
      cursor = valueRange.upperBound
    }
    output += text[cursor...]
    return output
  }

  /// Whether the word after `Basic` is prose rather than a credential: letters only, lower
  /// case after the first, and not the base64 of anything holding the `:` that every
  /// `user-id:password` pair has (RFC 7617). "settings" and "Settings" are words;
  /// "aWQ6cw==" (`id:s`) is not. Words of more than 64 letters are not judged prose.
  static func isPlainWord(_ word: Substring) -> Bool {
    guard let first = word.unicodeScalars.first, word.unicodeScalars.count <= 64,
      ("a"..."z").contains(first) || ("A"..."Z").contains(first),
      word.unicodeScalars.dropFirst().allSatisfy({ ("a"..."z").contains($0) })
    else { return false }
    var padded = String(word)
    while padded.utf8.count % 4 != 0 { padded += "=" }
    guard let decoded = Data(base64Encoded: padded) else { return true }
    return !decoded.contains(UInt8(ascii: ":"))
  }

  /// Masks the value of every field of `text` whose name is a secret's (``isSecretName(_:)``).
  private static func maskSecretFields(
    in text: String, using expression: NSRegularExpression
  ) -> String {
    maskValues(in: text, using: expression) { name, _ in
      name.map { isSecretName(String($0)) } ?? false
    }
  }
}
