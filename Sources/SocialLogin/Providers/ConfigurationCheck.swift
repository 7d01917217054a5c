/// What a provider's ``LoginProvider/validateConfiguration()`` found: whether the provider
/// accepted the app's own credentials (its client id and secret, app secret, channel secret or
/// API key), checked without any user's token.
///
/// ```swift
/// switch try await facebook.validateConfiguration() {
/// case .ok: break
/// case .notCheckable(let reason): logger.notice("Facebook not checked: \(reason)")
/// case .failed(let error): throw error
/// }
/// ```
public enum ConfigurationCheck: Sendable {
  /// The provider accepted the credentials.
  case ok
  /// The provider offers no way to check these credentials without a user (for example an X
  /// public client, or a configuration without a secret); the reason says why.
  case notCheckable(reason: String)
  /// The check failed: ``AuthError/Code/configuration`` naming the setting when the provider
  /// rejected the credentials, or a transient error (``AuthError/isTransient``) when the
  /// provider could not be asked.
  case failed(AuthError)

  /// The error of a failed check, `nil` otherwise.
  public var error: AuthError? {
    if case .failed(let error) = self { return error }
    return nil
  }
}
