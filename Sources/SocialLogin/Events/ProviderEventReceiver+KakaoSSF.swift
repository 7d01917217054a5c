import Foundation

extension ProviderEventReceiver {
  /// Kakao's security event types, by the last segment of their URI: Kakao's exact URIs are
  /// not published in a form this SDK could confirm, so the RISC, CAEP and OAuth namespaces
  /// (`…/risc/event-type/account-disabled`, `…/caep/event-type/session-revoked`,
  /// `…/oauth/event-type/tokens-revoked`) are all read by their last segment.
  static let kakaoEvents: [String: (ProviderEventKind, SignOutReason?)] = [
    "user-unlinked": (.unlink, .appDeauthorized),
    "tokens-revoked": (.tokensRevoked, .providerTokensRevoked),
    "token-revoked": (.tokensRevoked, .providerTokensRevoked),
    "sessions-revoked": (.sessionsRevoked, .providerSessionsRevoked),
    "session-revoked": (.sessionsRevoked, .providerSessionsRevoked),
    "account-disabled": (.accountDisabled, .accountDisabled),
    "account-purged": (.accountPurged, .accountDeleted),
    "account-enabled": (.accountEnabled, nil),
    "credential-change": (.credentialChangeRequired, nil),
    "account-credential-change-required": (.credentialChangeRequired, nil),
    "credential-compromise": (.credentialChangeRequired, nil),
    "verification": (.verification, nil),
  ]

  /// `POST /kakao/ssf`: a Security Event Token Kakao pushes to the callback URL set under
  /// Kakao Login → Security Event (Shared Signals), verified with the issuer and keys of
  /// Kakao's `sse-configuration`: `typ` `secevent+jwt` required, RS256, `aud` the REST API
  /// key (or one of the configuration's audiences), `sub` the Kakao user id. Unlinks, revoked
  /// tokens or sessions and disabled accounts end the user's sessions; an enabled account or
  /// a credential change is acknowledged. 202, or 400 with the RFC 8935 error body.
  func kakaoSecurityEvent(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    guard let kakao = client.providers[.kakao] as? DescribedProvider,
      let issuer = securityEventIssuers[.kakao]
    else {
      return refuseSecurityEvent(
        "kakao", "kakao/ssf",
        EventRefusal(code: "invalid_issuer", "This service has no Kakao provider."))
    }
    let rules = SecurityEventIssuer.Rules(
      audiences: [kakao.configuration.clientID] + kakao.configuration.audiences,
      requiresType: true, maximumAge: configuration.maximumSecurityEventAge,
      leeway: kakao.configuration.leeway)
    return await applySecurityEvent(
      request, route: "kakao/ssf", provider: .kakao, issuer: issuer, rules: rules
    ) { verified throws(EventRefusal) in
      try Self.kakaoEvent(verified)
    }
  }

  /// What a verified Kakao SET says: its first known event type decides; the subject is the
  /// top-level `sub` (the user id), or the event's `subject.sub`; `toe`, when present, must
  /// be a number.
  static func kakaoEvent(_ verified: VerifiedSecurityEvent) throws(EventRefusal) -> SecurityEvent {
    if let toe = verified.claims["toe"], toe.doubleValue == nil {
      throw EventRefusal("The token's 'toe' is not a number.")
    }
    let known = verified.events.keys.sorted().first { type in
      kakaoEvents[lastSegment(type)] != nil
    }
    var event = SecurityEvent(
      issuer: verified.issuer, tokenID: verified.tokenID, kind: .unknown, reason: nil,
      subject: nil, keepUntil: verified.keepUntil)
    guard let known, let (kind, reason) = kakaoEvents[lastSegment(known)] else { return event }
    event.kind = kind
    event.reason = reason
    let nested = verified.events[known]?["subject"]?["sub"]
    let subject = (verified.claims["sub"] ?? nested).flatMap(\.stringValue)
    if let subject, !subject.isEmpty, subject.utf8.count <= 256 {
      event.subject = subject
    } else if reason != nil {
      throw EventRefusal("The \(known) event names no user ('sub').")
    }
    return event
  }

  /// `…/event-type/user-unlinked` → `user-unlinked`.
  private static func lastSegment(_ type: String) -> String {
    type.split(separator: "/").last.map(String.init) ?? type
  }
}
