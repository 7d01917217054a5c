/// What a described provider's errors look like and what each code means for a session.
///
/// Codes are matched against the answer's `error` and, where the provider has one, its
/// `error_code` (Kakao's `KOE322`) or `error_codes` (Microsoft's numbers), exactly.
public struct ErrorDialect: Hashable, Sendable, Codable {
  /// Where an error is.
  public enum Shape: String, Hashable, Sendable, Codable {
    /// RFC 6749 §5.2: `error` and `error_description` with a 4xx status.
    case rfc6749
    /// RFC 6749 fields that may come with status 200 in place of tokens (NAVER, GitHub):
    /// `error` is checked before `access_token` on every answer.
    case rfc6749InSuccessfulAnswers = "rfc6749_in_successful_answers"
    /// RFC 6749 errors from OAuth endpoints and `{"message": ...}` from the others (LINE):
    /// a `message` answer is the provider's refusal (``AuthError/Code/providerError`` with
    /// code `http_<status>`, the message quoted), and a 401 of either shape says the token is
    /// not accepted (``AuthError/Code/invalidToken``).
    case rfc6749OrMessage = "rfc6749_or_message"
  }

  /// Where an error is; RFC 6749 by default.
  public var shape: Shape
  /// Codes that mean the refresh token is definitively dead: sign out.
  public var signOut: [String]
  /// Codes that mean the app's own configuration is wrong (client id, secret, redirect):
  /// the session is kept and the error names the setting.
  public var configuration: [String]
  /// Codes that mean "try again later": the session is kept.
  public var transient: [String]
  /// What a refresh error with a code in none of the lists means: `true` signs out (NAVER
  /// documents no code for a dead refresh token, so any other code is one), `false` keeps
  /// the session degraded.
  public var otherCodesSignOut: Bool
  /// Whether codes match whatever their case (LINE answers `INVALID_GRANT` as well as
  /// `invalid_grant`); `false` matches exactly.
  public var ignoresCase: Bool

  /// Creates the dialect: RFC 6749, `invalid_grant` signs out, `invalid_client` and
  /// `unauthorized_client` are configuration, `server_error` and
  /// `temporarily_unavailable` are transient, and other codes sign out.
  public init(
    shape: Shape = .rfc6749,
    signOut: [String] = ["invalid_grant"],
    configuration: [String] = ["invalid_client", "unauthorized_client"],
    transient: [String] = ["server_error", "temporarily_unavailable"],
    otherCodesSignOut: Bool = true,
    ignoresCase: Bool = false
  ) {
    self.shape = shape
    self.signOut = signOut
    self.configuration = configuration
    self.transient = transient
    self.otherCodesSignOut = otherCodesSignOut
    self.ignoresCase = ignoresCase
  }
}
