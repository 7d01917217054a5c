import SocialLogin

extension AuthEvent {
  /// One event of every kind and outcome for `provider` (tests of the recorder's output); a
  /// new case that is missing here fails `everyKindIsCovered`.
  static func everyKind(provider: ProviderID) -> [AuthEvent] {
    var events: [AuthEvent] = [
      .loginStarted(provider: provider),
      .loginSucceeded(provider: provider, duration: .milliseconds(80)),
      .loginFailed(provider: provider, duration: .seconds(2), code: .accessDenied),
      .refreshJoined(provider: provider),
      .signedOut(provider: provider, reason: .refreshTokenExpired),
      .degraded(provider: provider, code: .serverUnavailable),
      .degradationEnded(provider: provider),
      .keySetFetched(provider: provider, duration: .milliseconds(30)),
      .keySetFetchFailed(provider: provider, duration: .seconds(5), code: .timedOut),
      .providerEvent(provider: provider, kind: .backChannelLogout, outcome: .applied),
    ]
    for outcome in RefreshEventOutcome.allCases {
      events.append(
        .refreshed(
          provider: provider, outcome: outcome, duration: .seconds(1),
          leaseWait: .milliseconds(3)))
    }
    for operation in StoreOperation.allCases {
      events.append(.storeFailed(operation: operation, provider: provider, code: .storageFailed))
    }
    for kind in ExternalTokenKind.allCases {
      events.append(.verified(provider: provider, token: kind, duration: .milliseconds(2)))
      events.append(
        .verificationFailed(
          provider: provider, token: kind, duration: .milliseconds(2), code: .invalidToken))
    }
    return events
  }

  /// The case's name, to check that ``everyKind(provider:)`` covers every case.
  var kindName: String {
    switch self {
    case .loginStarted: return "loginStarted"
    case .loginSucceeded: return "loginSucceeded"
    case .loginFailed: return "loginFailed"
    case .refreshed: return "refreshed"
    case .refreshJoined: return "refreshJoined"
    case .signedOut: return "signedOut"
    case .degraded: return "degraded"
    case .degradationEnded: return "degradationEnded"
    case .storeFailed: return "storeFailed"
    case .verified: return "verified"
    case .verificationFailed: return "verificationFailed"
    case .keySetFetched: return "keySetFetched"
    case .keySetFetchFailed: return "keySetFetchFailed"
    case .providerEvent: return "providerEvent"
    }
  }
}
