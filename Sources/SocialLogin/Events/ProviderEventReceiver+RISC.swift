import Foundation
import SocialLoginCrypto

extension ProviderEventReceiver {
  /// Google's Cross-Account Protection event types and what each does.
  static let riscEvents: [String: (ProviderEventKind, SignOutReason?)] = [
    "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked":
      (.sessionsRevoked, .providerSessionsRevoked),
    "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked":
      (.tokensRevoked, .providerTokensRevoked),
    "https://schemas.openid.net/secevent/oauth/event-type/token-revoked":
      (.tokensRevoked, .providerTokensRevoked),
    "https://schemas.openid.net/secevent/risc/event-type/account-disabled":
      (.accountDisabled, .accountDisabled),
    "https://schemas.openid.net/secevent/risc/event-type/account-purged":
      (.accountPurged, .accountDeleted),
    "https://schemas.openid.net/secevent/risc/event-type/account-enabled": (.accountEnabled, nil),
    "https://schemas.openid.net/secevent/risc/event-type/account-credential-change-required":
      (.credentialChangeRequired, nil),
    "https://schemas.openid.net/secevent/risc/event-type/verification": (.verification, nil),
  ]

  /// `POST /google/risc`: a Security Event Token (RFC 8417) pushed by Google (RFC 8935),
  /// verified with the keys and issuer of Google's RISC configuration
  /// (``GoogleConfiguration/riscConfigurationEndpoint``); 202 once its events are applied,
  /// 400 with the RFC 8935 error body when it does not verify, 503 when the configuration
  /// or its keys cannot be fetched. A redelivered SET (its `jti` seen) is answered 202 and
  /// changes nothing, as RFC 8935 transmitters redeliver what they think was lost.
  func securityEvent(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    guard let google = client.providers[.google] as? GoogleProvider,
      let issuer = securityEventIssuers[.google]
    else {
      return refuseSecurityEvent(
        .google, "google/risc",
        EventRefusal(code: "invalid_issuer", "This service has no Google provider."))
    }
    let rules = SecurityEventIssuer.Rules(
      audiences: [google.configuration.clientID] + google.configuration.appClientIDs,
      requiresType: false, maximumAge: configuration.maximumSecurityEventAge,
      leeway: google.configuration.leeway)
    return await applySecurityEvent(
      request, route: "google/risc", provider: .google, issuer: issuer, rules: rules
    ) { verified throws(EventRefusal) in
      try Self.riscEvent(verified)
    }
  }

  /// The RFC 8935 400 answer, counted and logged.
  func refuseSecurityEvent(
    _ provider: ProviderID, _ route: String, _ refusal: EventRefusal,
    _ kind: ProviderEventKind = .unknown
  ) -> ProviderEventResponse {
    logRefusal(route, refusal.description)
    report(provider, kind, .rejected)
    return .json(400, ["err": .string(refusal.code), "description": .string(refusal.description)])
  }

  /// Verifies the SET in the body with `issuer`, maps it with `map`, keeps its `jti`, and
  /// ends the sessions it names: 202, 400 (RFC 8935) or 503.
  func applySecurityEvent(
    _ request: ProviderEventRequest, route: String, provider: ProviderID,
    issuer: SecurityEventIssuer, rules: SecurityEventIssuer.Rules,
    map: (VerifiedSecurityEvent) throws(EventRefusal) -> SecurityEvent
  ) async -> ProviderEventResponse {
    let token = String(decoding: request.body, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let event: SecurityEvent
    do {
      event = try map(await issuer.verify(token, rules: rules))
    } catch let refusal as EventRefusal {
      return refuseSecurityEvent(provider, route, refusal)
    } catch let error as AuthError where error.code == .invalidToken {
      return refuseSecurityEvent(provider, route, EventRefusal(error: error))
    } catch {
      // The configuration or its keys could not be fetched: nothing was decided.
      logRefusal(route, "\(error)")
      report(provider, .unknown, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Keys unavailable."])
    }
    let kind = event.kind
    let id = "set \(event.issuer) \(event.tokenID)"
    do {
      guard try await firstDelivery(id, until: event.keepUntil) else {
        report(provider, kind, .replayed)
        return .empty(202)
      }
    } catch {
      report(provider, kind, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Store failed."])
    }
    guard let reason = event.reason, event.subject != nil || event.refreshToken != nil else {
      report(provider, kind, .acknowledged)
      return .empty(202)
    }
    do {
      let ended: Int
      if let subject = event.subject {
        ended = try await client.endSessions(
          of: provider, subject: subject, sessionID: nil, reason: reason)
      } else if let token = event.refreshToken {
        ended = try await client.endSessions(of: provider, holding: token, reason: reason)
      } else {
        ended = 0
      }
      report(provider, kind, ended > 0 ? .applied : .noSession)
      return .empty(202)
    } catch {
      await forget(id)
      report(provider, kind, .failed)
      return .json(503, ["err": "temporarily_unavailable", "description": "Store failed."])
    }
  }

  /// What a verified RISC SET says: its first known event type decides (Google sends one
  /// event per SET), its subject an `iss-sub` or `id_token_claims` `sub`, or a refresh token.
  static func riscEvent(_ verified: VerifiedSecurityEvent) throws(EventRefusal) -> SecurityEvent {
    let events = verified.events
    let known = events.keys.sorted().first { riscEvents[$0] != nil }
    var event = SecurityEvent(
      issuer: verified.issuer, tokenID: verified.tokenID, kind: .unknown, reason: nil,
      subject: nil, keepUntil: verified.keepUntil)
    if let known, let (kind, reason) = riscEvents[known] {
      event.kind = kind
      event.reason = reason
      let subject = events[known]?["subject"]
      switch subject?["subject_type"]?.stringValue {
      case "iss-sub"?, "id_token_claims"?:
        event.subject = subject?["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
      case "oauth_token"?:
        if subject?["token_type"]?.stringValue == "refresh_token",
          let algorithm = subject?["token_identifier_alg"]?.stringValue,
          let token = subject?["token"]?.stringValue, !token.isEmpty, token.utf8.count <= 512
        {
          event.refreshToken = RefreshTokenIdentifier(algorithm: algorithm, token: token)
        }
      default:
        break
      }
      if reason != nil, event.subject == nil, event.refreshToken == nil {
        throw EventRefusal("The \(known) event names no subject with a 'sub' or a refresh token.")
      }
    }
    return event
  }
}

/// A verified Security Event Token (Google RISC, Kakao SSF): its first known event.
struct SecurityEvent: Sendable {
  var issuer: String
  var tokenID: String
  var kind: ProviderEventKind
  var reason: SignOutReason?
  /// The subject the event is about, when it names one (Google: `iss-sub` or
  /// `id_token_claims`; Kakao: the user id); a token-level event (`oauth_token`) names none.
  var subject: String?
  /// A token-level event's refresh token (`oauth_token` subject), as Google identifies it.
  var refreshToken: RefreshTokenIdentifier?
  var keepUntil: Date
}

/// How Google names a refresh token in a token-level event: its first 16 characters
/// (`prefix`), or the base64 of SHA-512 applied twice (`hash_base64_sha512_sha512`).
struct RefreshTokenIdentifier: Sendable {
  var algorithm: String
  var token: String

  /// Whether `refreshToken` is the token named.
  func matches(_ refreshToken: String) -> Bool {
    switch algorithm {
    case "prefix":
      guard token.utf8.count == 16 else { return false }
      return ConstantTime.equals(Array(refreshToken.utf8.prefix(16)), Array(token.utf8))
    case "hash_base64_sha512_sha512":
      let digest = SHA512.hash(SHA512.hash(Array(refreshToken.utf8)))
      let named = Array(token.utf8)
      return ConstantTime.equals(Array(Base64.encode(digest).utf8), named)
        || ConstantTime.equals(Array(Base64URL.encode(digest).utf8), named)
    default:
      return false
    }
  }
}
