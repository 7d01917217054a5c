import Foundation

/// The one error type of the SDK: a code, a readable message and everything the provider said.
///
/// `AuthError` is a struct with extensible ``Code``s (like Auth0's errors), so new codes never
/// break your `switch`. Match on ``code``; read ``isTransient`` to decide whether to retry.
///
/// ```swift
/// do {
///   let token = try await session.freshAccessToken()
/// } catch let error as AuthError where error.code == .signedOut {
///   // ask the user to sign in again: error.signOutReason says why
/// } catch let error as AuthError where error.isTransient {
///   // the provider or network is down: keep the session and retry later
/// }
/// ```
public struct AuthError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  /// What went wrong, as a stable machine-readable code.
  ///
  /// Codes are the static members (``signedOut``, ``network``, …), not string literals, so a
  /// typo does not compile. A code matches an error in a `catch` or `case` pattern:
  ///
  /// ```swift
  /// do {
  ///   _ = try await session.freshAccessToken()
  /// } catch AuthError.Code.signedOut {
  ///   // ask the user to sign in again
  /// }
  /// ```
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's stable string.
    public let rawValue: String
    /// Creates a code from its stable string (for codes a provider extension defines, or read
    /// back from a log).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code's string.
    public var description: String { rawValue }

    /// Whether `error` is an ``AuthError`` with this code: `catch AuthError.Code.signedOut`.
    public static func ~= (code: Code, error: any Error) -> Bool {
      (error as? AuthError)?.code == code
    }

    /// The network failed (DNS, connection, TLS, reset). Transient.
    public static let network = Code(rawValue: "network")
    /// A request or wait ran out of time. Transient.
    public static let timedOut = Code(rawValue: "timed_out")
    /// The server answered with a 5xx status, or 429. Transient.
    public static let serverUnavailable = Code(rawValue: "server_unavailable")
    /// The provider answered, but not in a shape the SDK understands (an HTML page, an empty
    /// or truncated body, a success without the expected fields). Transient: such an answer is
    /// not the provider's verdict (proxies, WAFs and load balancers send them), so a retry
    /// may succeed and a session that gets one keeps its tokens.
    public static let invalidResponse = Code(rawValue: "invalid_response")
    /// The response body was larger than the transport's cap.
    public static let responseTooLarge = Code(rawValue: "response_too_large")
    /// The provider returned an OAuth error (see ``AuthError/oauth``).
    public static let providerError = Code(rawValue: "provider_error")
    /// The refresh token is no longer accepted (spent, revoked or expired).
    public static let refreshTokenInvalid = Code(rawValue: "refresh_token_invalid")
    /// The access token expired and the provider cannot refresh it.
    public static let accessTokenExpired = Code(rawValue: "access_token_expired")
    /// The session is signed out; ``AuthError/signOutReason`` says why.
    public static let signedOut = Code(rawValue: "signed_out")
    /// The session store failed to read or write.
    public static let storageFailed = Code(rawValue: "storage_failed")
    /// A compare-and-swap write found a newer version in the store.
    public static let storageConflict = Code(rawValue: "storage_conflict")
    /// A stored session file could not be decoded; it was set aside.
    public static let storageCorrupt = Code(rawValue: "storage_corrupt")
    /// A stored record is sealed with a key the store's ``SealingKeyRing`` does not hold
    /// (the message names the key id): a key retired too early, or a process started with an
    /// outdated key file. The record is kept untouched and never served; install the key to
    /// read it again. It never signs anyone out by itself. Not transient: retrying with the
    /// same keys gets the same answer.
    public static let storageSealedWithUnknownKey = Code(
      rawValue: "storage_sealed_with_unknown_key")
    /// A stored record fails to open: modified, truncated, copied from another record's
    /// place, or plain text where a sealed record was expected. The record is kept untouched
    /// (for investigation) and never served; it never signs anyone out by itself. Not
    /// transient.
    public static let storageTampered = Code(rawValue: "storage_tampered")
    /// The provider does not support the requested operation.
    public static let unsupported = Code(rawValue: "unsupported")
    /// The SDK or provider was configured wrongly.
    public static let configuration = Code(rawValue: "configuration")
    /// No provider is registered under the requested id.
    public static let unknownProvider = Code(rawValue: "unknown_provider")
    /// The authorization callback was malformed or did not match a pending login.
    public static let invalidCallback = Code(rawValue: "invalid_callback")
    /// The callback's `state` is missing or does not match.
    public static let stateMismatch = Code(rawValue: "state_mismatch")
    /// A token (JWT, ID token) failed verification; ``AuthError/joseError`` says why for
    /// JWTs (<doc:VerifyingMobileTokens> lists the reasons).
    public static let invalidToken = Code(rawValue: "invalid_token")
    /// The user declined or cancelled the login.
    public static let accessDenied = Code(rawValue: "access_denied")
    /// Several accounts are signed in with one provider where exactly one was expected
    /// (``LoginClient/session(for:)-(ProviderID)``); the message names them. Also a login
    /// that would replace the session of an account whose subject differs in its bytes
    /// (``LoginClient/register(credential:identity:)``).
    public static let ambiguousSession = Code(rawValue: "ambiguous_session")
    /// A caller asked for a token valid longer than the provider grants: even a token just
    /// refreshed would not last the requested minimum TTL. Not transient (asking again gets
    /// the same answer): lower the minimum, or call ``SessionActor/forceRefresh(timeout:)`` to
    /// get a new token whatever its lifetime. The session stays signed in.
    public static let tokenLifetimeTooShort = Code(rawValue: "token_lifetime_too_short")
    /// A nonce store is full of nonces that have not expired: a new nonce is refused rather
    /// than evicting one an app is about to use. Rate-limit the endpoint that issues nonces.
    public static let nonceStoreFull = Code(rawValue: "nonce_store_full")
    /// A message that must be handled once (an Apple server notification's `jti`) came again.
    public static let replayed = Code(rawValue: "replayed")
  }

  /// The fields of an RFC 6749 §5.2 / §4.1.2.1 error response.
  public struct OAuthErrorFields: Hashable, Sendable, Codable {
    /// The `error` code, for example `invalid_grant`.
    public var error: String
    /// The human-readable `error_description`, if any.
    public var errorDescription: String?
    /// The `error_uri`, if any.
    public var errorURI: String?

    /// Creates the fields.
    public init(error: String, errorDescription: String? = nil, errorURI: String? = nil) {
      self.error = error
      self.errorDescription = errorDescription
      self.errorURI = errorURI
    }
  }

  /// The machine-readable code.
  public var code: Code
  /// A readable message, safe to log (never contains secrets).
  public var message: String
  /// The provider involved, when one was.
  public var provider: ProviderID?
  /// The HTTP status of the response that failed, when there was one.
  public var httpStatus: Int?
  /// The size in bytes of the body the SDK could not understand, for
  /// ``Code/invalidResponse`` errors about a response (`0`: an empty body). It lets a
  /// provider's rule recognise its own answers (Glewlwyd's empty 400 for a dead refresh token,
  /// ``RefreshTokenRejection/emptyBadRequest``) without parsing messages.
  public var responseBodySize: Int?
  /// The OAuth `error`/`error_description`/`error_uri`, when the provider sent them.
  public var oauth: OAuthErrorFields?
  /// The provider's own error code (Facebook `190`, Firebase `TOKEN_EXPIRED`, ...), if any.
  public var providerCode: String?
  /// The provider's own error subcode (Facebook `error_subcode`), if any.
  public var providerSubcode: String?
  /// When the provider asked us to retry (`Retry-After`), on the local clock.
  public var retryAfter: Date?
  /// Why the session was signed out, for ``Code/signedOut`` and terminal refresh failures.
  public var signOutReason: SignOutReason?
  /// The error that caused this one.
  public var underlying: (any Error)?
  /// Whether the request was sent and its answer never came: a timeout, or the connection
  /// reset or closed after the request was written. The server may have acted on it — a
  /// refresh token sent this way may have been spent, and the tokens that replaced it were in
  /// the lost answer. Transports set it (``URLSessionTransport`` for every timeout and for a
  /// connection lost, closed or answered with garbage once connected, since it cannot see
  /// whether the request was written); a session that gets it on a refresh remembers it, and
  /// signs out with ``SignOutReason/refreshResponseLost`` if the provider then refuses that
  /// refresh token.
  public var answerLost: Bool

  /// Creates an error.
  public init(
    _ code: Code,
    _ message: String,
    provider: ProviderID? = nil,
    httpStatus: Int? = nil,
    responseBodySize: Int? = nil,
    oauth: OAuthErrorFields? = nil,
    providerCode: String? = nil,
    providerSubcode: String? = nil,
    retryAfter: Date? = nil,
    signOutReason: SignOutReason? = nil,
    underlying: (any Error)? = nil,
    answerLost: Bool = false
  ) {
    self.code = code
    self.message = message
    self.provider = provider
    self.httpStatus = httpStatus
    self.responseBodySize = responseBodySize
    self.oauth = oauth
    self.providerCode = providerCode
    self.providerSubcode = providerSubcode
    self.retryAfter = retryAfter
    self.signOutReason = signOutReason
    self.underlying = underlying
    self.answerLost = answerLost
  }

  /// Whether retrying later may succeed: network failures, timeouts, 5xx and 429 responses,
  /// OAuth `temporarily_unavailable`/`server_error`, failed store writes, and answers the SDK
  /// could not understand (``Code/invalidResponse``: HTML pages, empty or truncated bodies,
  /// which are not the provider's verdict).
  public var isTransient: Bool {
    isOutage || code == .invalidResponse
  }

  /// Whether the provider, the network or the store is down or overloaded (the transient
  /// failures other than an answer the SDK did not understand). A provider's own rule for a
  /// dead refresh token is never applied to an outage.
  var isOutage: Bool {
    switch code {
    case .network, .timedOut, .serverUnavailable, .storageFailed: return true
    default:
      if let status = httpStatus, status >= 500 || status == 429 { return true }
      // LINE sends upper-case codes (`SERVER_ERROR`).
      if let error = oauth?.error.lowercased(),
        ["temporarily_unavailable", "server_error"].contains(error)
      {
        return true
      }
      return false
    }
  }

  /// A one-line summary: code, provider, status, OAuth error and message.
  public var description: String {
    var head = "AuthError.\(code.rawValue)"
    var details: [String] = []
    if let provider { details.append("provider: \(provider)") }
    if let httpStatus { details.append("status: \(httpStatus)") }
    if let oauth {
      details.append("error: \(oauth.error)")
      if let text = oauth.errorDescription { details.append("description: \(text)") }
    }
    if let providerCode { details.append("provider code: \(providerCode)") }
    if let signOutReason { details.append("reason: \(signOutReason)") }
    if !details.isEmpty { head += " (\(details.joined(separator: ", ")))" }
    return "\(head): \(message)"
  }

  /// ``description`` plus the chain of underlying causes.
  public var debugDescription: String {
    guard let underlying else { return description }
    return "\(description)\nCAUSE: \(String(describing: underlying))"
  }
}

extension AuthError {
  /// The session is signed out for `reason`.
  public static func signedOut(_ reason: SignOutReason, provider: ProviderID? = nil) -> AuthError {
    AuthError(
      .signedOut, "The session is signed out (\(reason)); sign in again.",
      provider: provider, signOutReason: reason)
  }
}
