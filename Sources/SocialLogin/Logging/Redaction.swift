import Foundation

/// Removes tokens and secrets from text before it is logged or put into an error message.
///
/// It masks JWTs, `Bearer`/`Basic` credentials, secret-named form and JSON fields, and every
/// metadata value whose key names a secret. The masks keep the shape (`access_token=<redacted>`)
/// so a log still tells what was sent.
public enum Redaction {
  /// The replacement text.
  public static let mask = "<redacted>"

  private static let secretNames =
    "access_token|refresh_token|id_token|client_secret|code_verifier|code|password|secret"
    + "|oauth_token_secret|oauth_verifier|oauth_signature|token|assertion|state|nonce|key"
    + "|fb_exchange_token|input_token|appsecret_proof|device_code|postBody|idToken|refreshToken"

  private static let patterns: [(NSRegularExpression, String)] = {
    let sources: [(String, String)] = [
      // Compact JWS/JWT: three (or two) base64url segments starting with a JSON header.
      (#"eyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]*(\.[A-Za-z0-9_\-]*)?"#, mask),
      // Authorization header values.
      (#"(?i)\b(Bearer|Basic|OAuth)\s+[^\s,;]+(\s*,\s*[a-z_]+="[^"]*")*"#, "$1 \(mask)"),
      // Form and query fields.
      (#"(?i)\b("# + secretNames + #")=[^&\s"]+"#, "$1=\(mask)"),
      // JSON string fields.
      (#"(?i)"("# + secretNames + #")"\s*:\s*"(?:[^"\\]|\\.)*""#, "\"$1\":\"\(mask)\""),
    ]
    return sources.compactMap { source, template in
      (try? NSRegularExpression(pattern: source)).map { ($0, template) }
    }
  }()

  /// Returns `text` with every secret-looking part masked.
  ///
  /// ```swift
  /// Redaction.scrub("refresh_token=abc&grant_type=refresh_token")
  /// // "refresh_token=<redacted>&grant_type=refresh_token"
  /// ```
  public static func scrub(_ text: String) -> String {
    var result = text
    for (expression, template) in patterns {
      let range = NSRange(result.startIndex..., in: result)
      result = expression.stringByReplacingMatches(
        in: result, range: range, withTemplate: template)
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

  /// Whether a field or metadata key names a secret (`refresh_token`, `clientSecret`, ...).
  public static func isSecretName(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return ["token", "secret", "password", "verifier", "assertion", "signature", "authorization"]
      .contains { lowered.contains($0) }
  }
}
