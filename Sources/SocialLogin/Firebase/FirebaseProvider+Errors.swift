import Foundation

extension AuthError.Code {
  /// Firebase could not verify the identity provider's credential (`INVALID_IDP_RESPONSE`):
  /// the token is expired, forged, for another app, or the provider is not enabled.
  public static let invalidIdPResponse = AuthError.Code(rawValue: "invalid_idp_response")
  /// The provider account is already linked to another Firebase user
  /// (`FEDERATED_USER_ID_ALREADY_LINKED`).
  public static let credentialAlreadyInUse = AuthError.Code(rawValue: "credential_already_in_use")
  /// Another Firebase user already has this email address (`EMAIL_EXISTS`).
  public static let emailAlreadyInUse = AuthError.Code(rawValue: "email_already_in_use")
  /// An account with the same email exists with another sign-in method; the user must sign in
  /// with that one and link this credential (`needConfirmation: true` with HTTP 200).
  public static let accountExistsWithDifferentCredential = AuthError.Code(
    rawValue: "account_exists_with_different_credential")
  /// The Firebase user is disabled (`USER_DISABLED`).
  public static let userDisabled = AuthError.Code(rawValue: "user_disabled")
  /// The Firebase user was deleted (`USER_NOT_FOUND`).
  public static let userNotFound = AuthError.Code(rawValue: "user_not_found")
}

/// What Firebase Authentication said when it refused a request, in its own words.
///
/// Identity Toolkit and Secure Token answer `{"error":{"code":400,"message":"CODE : detail",
/// ...}}`; the message's part before ` : ` is the stable ``code`` and the rest the ``detail``.
/// `signInWithIdp` may also report a problem with HTTP 200 (`needConfirmation`, or an
/// `errorMessage` when `returnIdpCredential` is set); then ``conflict`` carries what the user
/// needs to link the accounts. Read it from an ``AuthError`` with ``AuthError/firebaseError``:
///
/// ```swift
/// } catch let error as AuthError where error.code == .accountExistsWithDifferentCredential {
///   let conflict = error.firebaseError?.conflict
///   print("sign in with", conflict?.verifiedProviders ?? [], "then link", conflict?.providerID ?? "")
/// }
/// ```
public struct FirebaseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The message's stable prefix: `INVALID_IDP_RESPONSE`, `TOKEN_EXPIRED`, ...
  public var code: String
  /// The text after ` : `, when Firebase added one.
  public var detail: String?
  /// The HTTP status (200 for problems reported in a successful response).
  public var httpStatus: Int
  /// Secure Token's `status` (`INVALID_ARGUMENT`, ...), when sent.
  public var status: String?
  /// The account conflict behind `needConfirmation`, `EMAIL_EXISTS` or
  /// `FEDERATED_USER_ID_ALREADY_LINKED`, when Firebase described it.
  public var conflict: FirebaseAccountConflict?

  /// Creates an error.
  public init(
    code: String, detail: String? = nil, httpStatus: Int, status: String? = nil,
    conflict: FirebaseAccountConflict? = nil
  ) {
    self.code = code
    self.detail = detail
    self.httpStatus = httpStatus
    self.status = status
    self.conflict = conflict
  }

  /// Splits a Firebase message `CODE : detail` (or a bare `CODE`).
  public init(message: String, httpStatus: Int, status: String? = nil) {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    if let range = trimmed.range(of: " : ") {
      code = String(trimmed[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
      let rest = trimmed[range.upperBound...].trimmingCharacters(in: .whitespaces)
      detail = rest.isEmpty ? nil : ErrorText.excerpt(rest)
    } else if let colon = trimmed.firstIndex(of: ":"),
      trimmed[..<colon].allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber })
    {
      // `TENANT_ID_MISMATCH: ...` (no space before the colon) appears too.
      code = String(trimmed[..<colon])
      let rest = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      detail = rest.isEmpty ? nil : ErrorText.excerpt(rest)
    } else {
      code = ErrorText.excerpt(trimmed, limit: 128)
      detail = nil
    }
    self.httpStatus = httpStatus
    self.status = status
    conflict = nil
  }

  /// `CODE : detail (HTTP status)`.
  public var description: String {
    "\(code)\(detail.map { " : \($0)" } ?? "") (HTTP \(httpStatus))"
  }

  /// The SDK error for this Firebase answer: a typed code, and for answers that end a
  /// session, the sign-out reason. `QUOTA_EXCEEDED` and `TOO_MANY_ATTEMPTS_TRY_LATER` are
  /// transient (``AuthError/Code/serverUnavailable``).
  public func authError(operation: String, retryAfter: Date? = nil) -> AuthError {
    let (authCode, reason) = Self.classify(code)
    var text = "\(operation) was refused by Firebase with \(code)"
    if let detail { text += " (\(detail))" }
    if let retryAfter { text += "; retry after \(retryAfter)" }
    return AuthError(
      authCode, text + ".", provider: .firebase, httpStatus: httpStatus, providerCode: code,
      retryAfter: retryAfter, signOutReason: reason, underlying: self)
  }

  /// The SDK code and sign-out reason of a Firebase error code.
  static func classify(_ code: String) -> (AuthError.Code, SignOutReason?) {
    switch code {
    case "INVALID_IDP_RESPONSE", "INVALID_CREDENTIAL_OR_PROVIDER_ID":
      return (.invalidIdPResponse, nil)
    case "FEDERATED_USER_ID_ALREADY_LINKED": return (.credentialAlreadyInUse, nil)
    case "EMAIL_EXISTS": return (.emailAlreadyInUse, nil)
    case "TOKEN_EXPIRED", "CREDENTIAL_TOO_OLD_LOGIN_AGAIN":
      return (.refreshTokenInvalid, .refreshTokenExpired)
    case "INVALID_REFRESH_TOKEN": return (.refreshTokenInvalid, .refreshTokenRevoked)
    case "USER_DISABLED": return (.userDisabled, .accountDisabled)
    case "USER_NOT_FOUND": return (.userNotFound, .accountDisabled)
    case "INVALID_ID_TOKEN": return (.invalidToken, nil)
    case "INVALID_API_KEY", "API_KEY_INVALID", "PROJECT_NOT_FOUND": return (.configuration, nil)
    case "QUOTA_EXCEEDED", "TOO_MANY_ATTEMPTS_TRY_LATER": return (.serverUnavailable, nil)
    default: return (.providerError, nil)
    }
  }
}

extension AuthError {
  /// Firebase's own account of the failure, when it came from Firebase Authentication.
  ///
  /// ```swift
  /// if error.firebaseError?.code == "INVALID_IDP_RESPONSE" { ... }
  /// ```
  public var firebaseError: FirebaseError? { underlying as? FirebaseError }
}

extension TransportResponse {
  /// The error for a failed Identity Toolkit or Secure Token response.
  ///
  /// A well-formed Firebase error (`{"error":{"message":"CODE ..."}}`) is the definitive
  /// answer; 5xx and 429 are transient; anything else (HTML from a proxy, an empty or
  /// truncated body) is ``AuthError/Code/invalidResponse`` and never signs anyone out.
  func firebaseFailure(_ operation: String, now: Date) -> AuthError {
    let retryAfter = retryAfter(now: now)
    if let error = jsonObject?["error"]?.objectValue,
      let message = error["message"]?.stringValue, !message.isEmpty
    {
      var firebase = FirebaseError(
        message: message, httpStatus: status, status: error["status"]?.stringValue)
      if message.hasPrefix("API key not valid") { firebase.code = "API_KEY_INVALID" }
      if status >= 500 {
        return AuthError(
          .serverUnavailable,
          "\(operation) is unavailable (HTTP \(status)): \(firebase.code).",
          provider: .firebase, httpStatus: status, providerCode: firebase.code,
          retryAfter: retryAfter, underlying: firebase)
      }
      return firebase.authError(operation: operation, retryAfter: retryAfter)
    }
    if status >= 500 || status == 429 {
      return AuthError(
        .serverUnavailable, "\(operation) is unavailable (HTTP \(status)).",
        provider: .firebase, httpStatus: status, retryAfter: retryAfter)
    }
    return AuthError(
      .invalidResponse, "\(operation) answered HTTP \(status) \(bodySummary(jsonObject)).",
      provider: .firebase, httpStatus: status, retryAfter: retryAfter)
  }
}

extension FirebaseProvider {
  /// Firebase's definitive answers end the session: `TOKEN_EXPIRED` and
  /// `INVALID_REFRESH_TOKEN` (after the session re-reads its store), `USER_DISABLED` and
  /// `USER_NOT_FOUND`. Quota errors, 5xx, network failures and bodies that are not Firebase
  /// errors degrade; so does `INVALID_API_KEY`, which is about the app, not the user: fixing
  /// the key must not find every user signed out.
  public nonisolated func classifyRefreshFailure(_ error: any Error) -> RefreshFailure {
    RefreshFailure.classifying(error) { error in
      guard let firebase = error.firebaseError else {
        return .transient(retryAfter: error.retryAfter)
      }
      switch error.code {
      case .refreshTokenInvalid:
        return .refreshTokenInvalid(error.signOutReason ?? .refreshTokenExpired)
      case .userDisabled, .userNotFound:
        return .terminal(error.signOutReason ?? .accountDisabled)
      case .configuration:
        return .transient(retryAfter: nil)
      default:
        // Other definitive Firebase refusals of a refresh (MISSING_REFRESH_TOKEN,
        // INVALID_GRANT_TYPE, PROJECT_NUMBER_MISMATCH) mean the token cannot be used.
        return .terminal(.providerRejected(code: firebase.code))
      }
    }
  }
}
