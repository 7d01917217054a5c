extension AuthError.Code {
  /// The revocation endpoint does not revoke this type of token (RFC 7009 §2.2.1
  /// `unsupported_token_type`).
  public static let unsupportedTokenType = AuthError.Code(rawValue: "unsupported_token_type")
  /// The device code expired before the user approved the login (RFC 8628 `expired_token`, or
  /// the code's `expires_in` passed while polling); start a new device authorization.
  public static let deviceCodeExpired = AuthError.Code(rawValue: "device_code_expired")
}
