import Foundation

/// An HTTP request as the ``ProviderEventReceiver`` reads it: whatever server received it
/// (the project's loopback server, Hummingbird, Vapor) copies these four things over.
public struct ProviderEventRequest: Sendable, Hashable {
  /// The method, such as `POST`.
  public var method: String
  /// The path, with or without a query (`/events/oidc/backchannel-logout`).
  public var path: String
  /// The headers; names are compared without regard to case.
  public var headers: [String: String]
  /// The body, as received.
  public var body: [UInt8]

  /// Creates a request.
  public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
  }

  /// The value of the header `name` (any case), if present.
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.key.lowercased() == lowered }?.value
  }

  /// The path without its query. Cut at the first `?` byte (no grapheme walk: this runs for
  /// every event); a path that starts with `?` keeps what `split` made of it.
  var route: Substring {
    if let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")), mark != path.startIndex {
      return path[..<mark]
    }
    return path.split(separator: "?", maxSplits: 1).first ?? ""
  }

  /// The query items of the path, if any.
  var query: [String: String] {
    guard let mark = path.firstIndex(of: "?") else { return [:] }
    return FormFields.parse(Array(path[path.index(after: mark)...].utf8)) ?? [:]
  }
}

/// The HTTP answer of the ``ProviderEventReceiver``, for the server to send as it is.
public struct ProviderEventResponse: Sendable, Hashable {
  /// The status code.
  public var status: Int
  /// The headers to send.
  public var headers: [String: String]
  /// The body to send.
  public var body: [UInt8]

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The body as text, for logs and tests.
  public var text: String { String(decoding: body, as: UTF8.self) }

  /// A JSON answer that no cache may keep (every event answer is about one user).
  static func json(_ status: Int, _ value: JSONValue) -> ProviderEventResponse {
    ProviderEventResponse(
      status: status,
      headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
      body: Array(value.jsonText.utf8))
  }

  /// An empty answer that no cache may keep.
  static func empty(_ status: Int) -> ProviderEventResponse {
    ProviderEventResponse(status: status, headers: ["Cache-Control": "no-store"])
  }
}

/// What a provider said happened, as ``AuthEvent/providerEvent(provider:kind:outcome:)`` and
/// the `kind` label of `sociallogin_provider_events_total` name it.
public enum ProviderEventKind: String, Sendable, Hashable, CaseIterable {
  /// An OpenID Connect Back-Channel Logout token.
  case backChannelLogout = "backchannel_logout"
  /// Google RISC `sessions-revoked`.
  case sessionsRevoked = "sessions_revoked"
  /// Google RISC `tokens-revoked` (or `token-revoked`).
  case tokensRevoked = "tokens_revoked"
  /// Google RISC `account-disabled`.
  case accountDisabled = "account_disabled"
  /// Google RISC `account-enabled`: acknowledged, nothing changes.
  case accountEnabled = "account_enabled"
  /// Google RISC `account-purged`.
  case accountPurged = "account_purged"
  /// Google RISC `account-credential-change-required`: acknowledged, nothing changes.
  case credentialChangeRequired = "credential_change_required"
  /// A RISC `verification` event (a transmitter's test): acknowledged.
  case verification
  /// Facebook's deauthorize callback.
  case deauthorize
  /// Facebook's data deletion callback.
  case dataDeletion = "data_deletion"
  /// Kakao's unlink webhook.
  case unlink
  /// Apple's `consent-revoked`.
  case consentRevoked = "consent_revoked"
  /// Apple's `account-delete`.
  case accountDelete = "account_delete"
  /// Apple's `email-disabled` or `email-enabled`: acknowledged, nothing changes.
  case emailChanged = "email_changed"
  /// A request the receiver could not read far enough to know what it said, or an event type
  /// it does not know.
  case unknown
}

/// How the ``ProviderEventReceiver`` answered an event: the `outcome` label of
/// `sociallogin_provider_events_total`.
public enum ProviderEventOutcome: String, Sendable, Hashable, CaseIterable {
  /// Accepted, and at least one session ended.
  case applied
  /// Accepted, and no session matched (the user had none here, or it ended already).
  case noSession = "no_session"
  /// Accepted as information (a verification event, an email change): nothing to end.
  case acknowledged
  /// Accepted once already (its `jti` was seen): nothing was done again.
  case replayed
  /// Refused: not signed right, not for this service, malformed, too large or too old.
  case rejected
  /// Accepted, but ending the sessions failed (the store): the provider may deliver again.
  case failed
}
