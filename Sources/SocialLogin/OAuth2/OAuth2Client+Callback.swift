import Foundation
import SocialLoginCrypto

extension OAuth2Client {
  /// Checks an authorization callback against the login it claims to finish and returns the
  /// authorization code.
  ///
  /// This is a pure function: it reads the clock but changes nothing, so a pending-login store
  /// can validate *before* it consumes the pending login, and a forged callback leaves the real
  /// login usable. Checks, in order:
  ///
  /// 1. No parameter appears twice (RFC 6749 §3.1) → ``AuthError/Code/invalidCallback``.
  /// 2. The pending login belongs to this provider → ``AuthError/Code/invalidCallback``.
  /// 3. `state` is present and equals the pending login's (constant-time) →
  ///    ``AuthError/Code/stateMismatch``. An `error` callback without the right state is
  ///    reported the same way (with its ``AuthError/oauth`` fields), since anyone can forge one.
  /// 4. RFC 9207 `iss`, when present, equals ``OAuth2Configuration/expectedIssuer``; when
  ///    ``OAuth2Configuration/requiresIssuerInCallback`` is set it must be present →
  ///    ``AuthError/Code/invalidCallback``.
  /// 5. The pending login has not expired → ``AuthError/Code/invalidCallback``.
  /// 6. An `error` parameter → ``AuthError/Code/accessDenied`` for `access_denied` (in any
  ///    case), otherwise ``AuthError/Code/providerError``; both carry the raw `error`,
  ///    `error_description` and `error_uri` in ``AuthError/oauth`` (LINE's upper-case
  ///    `INVALID_REQUEST` is kept as sent).
  /// 7. A non-empty `code` → returned; otherwise ``AuthError/Code/invalidCallback``.
  ///
  /// ```swift
  /// let code = try client.validateCallback(callback, pending: pending)
  /// guard try await pendingStore.consume(pending) else { throw alreadyUsed }
  /// let tokens = try await client.exchangeCode(code, pending: pending)
  /// ```
  public func validateCallback(
    _ callback: AuthorizationCallback, pending: PendingLogin
  ) throws(AuthError) -> String {
    let parameters = try uniqueParameters(callback)
    guard pending.provider == provider else {
      throw AuthError(
        .invalidCallback,
        "The pending login is for provider '\(pending.provider)', not '\(provider)'.",
        provider: provider)
    }
    let reported = callbackError(parameters)
    try checkState(parameters["state"], pending: pending, reported: reported)
    try checkIssuer(parameters["iss"], reported: reported)
    guard clock.wallTime <= pending.expiresAt else {
      throw AuthError(
        .invalidCallback, "The login expired before its callback arrived; start it again.",
        provider: provider, oauth: reported)
    }
    if let reported {
      let isDenied = reported.error.lowercased() == "access_denied"
      throw AuthError(
        isDenied ? .accessDenied : .providerError,
        isDenied
          ? "The user declined or cancelled the login."
          : "The provider reported an error in the authorization callback.",
        provider: provider, oauth: reported)
    }
    guard let code = parameters["code"], !code.isEmpty else {
      throw AuthError(
        .invalidCallback, "The callback has neither a 'code' nor an 'error' parameter.",
        provider: provider)
    }
    return code
  }

  private func uniqueParameters(
    _ callback: AuthorizationCallback
  ) throws(AuthError) -> [String: String] {
    var parameters: [String: String] = [:]
    for item in callback.parameters {
      guard parameters[item.name] == nil else {
        throw AuthError(
          .invalidCallback,
          "The callback repeats the '\(ErrorText.excerpt(item.name, limit: 64))' parameter.",
          provider: provider)
      }
      parameters[item.name] = item.value ?? ""
    }
    return parameters
  }

  private func callbackError(_ parameters: [String: String]) -> AuthError.OAuthErrorFields? {
    guard let error = parameters["error"] else { return nil }
    return AuthError.OAuthErrorFields(
      error: ErrorText.excerpt(error, limit: 128),
      errorDescription: parameters["error_description"].map { ErrorText.excerpt($0) },
      errorURI: parameters["error_uri"].map { ErrorText.excerpt($0) })
  }

  private func checkState(
    _ received: String?, pending: PendingLogin, reported: AuthError.OAuthErrorFields?
  ) throws(AuthError) {
    let suffix =
      reported.map { " It reports '\($0.error)', which is ignored as possibly forged." } ?? ""
    guard let received, !received.isEmpty else {
      throw AuthError(
        .stateMismatch, "The callback has no 'state' parameter." + suffix,
        provider: provider, oauth: reported)
    }
    guard ConstantTime.equals(Array(received.utf8), Array(pending.state.revealed.utf8)) else {
      throw AuthError(
        .stateMismatch, "The callback's 'state' does not match the pending login." + suffix,
        provider: provider, oauth: reported)
    }
  }

  private func checkIssuer(
    _ issuer: String?, reported: AuthError.OAuthErrorFields?
  ) throws(AuthError) {
    guard let expected = configuration.expectedIssuer else {
      if configuration.requiresIssuerInCallback {
        throw AuthError(
          .configuration, "requiresIssuerInCallback is set but expectedIssuer is not.",
          provider: provider)
      }
      return
    }
    guard let issuer else {
      guard !configuration.requiresIssuerInCallback else {
        throw AuthError(
          .invalidCallback,
          "The callback has no 'iss' parameter, but this server always sends one (RFC 9207).",
          provider: provider, oauth: reported)
      }
      return
    }
    guard issuer == expected else {
      throw AuthError(
        .invalidCallback,
        "The callback's issuer '\(ErrorText.excerpt(issuer, limit: 200))' is not the expected "
          + "'\(expected)' (RFC 9207 mix-up protection).",
        provider: provider, oauth: reported)
    }
  }
}
